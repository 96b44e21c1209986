package evm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestGetTokenDetails(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{
		"address": "{kitties}", "name": "Kitties", "symbol": "KIT", "ercType": "ERC-721", "tokenId": "9", "tokenUri": "ipfs://kitties/9",
		"metadata": {"indexStatus": "indexed", "metadataLastUpdatedTimestamp": 1700000100, "name": "Kitty #9",
		             "imageUri": "ipfs://img/9", "attributes": "[{\"trait_type\":\"eyes\",\"value\":\"green\"}]"},
		"ownerAddress": "{alice}"}`)), srv.GetBody(t, tokensPath(handlertest.Kitties)+"/9"))
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{
		"address": "{items}", "ercType": "ERC-1155", "tokenId": "3", "tokenUri": "", "metadata": {"indexStatus": "unindexed"}}`)),
		srv.GetBody(t, tokensPath(handlertest.Items)+"/3"))
	require.Equal(t, "9", srv.GetBody(t, tokensPath(handlertest.Kitties)+"/009")["tokenId"], "leading zeros name the same token")
}
