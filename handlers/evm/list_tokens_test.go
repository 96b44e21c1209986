package evm

import (
	"math/big"
	"net/http"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

func tokensPath(contract common.Address) string {
	return "/v1/chains/43112/nfts/collections/" + contract.Hex() + "/tokens"
}

func TestListTokensShapesEachStandard(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{"tokens": [
		{"address": "{kitties}", "name": "Kitties", "symbol": "KIT", "ercType": "ERC-721", "tokenId": "1", "tokenUri": "",
		 "metadata": {"indexStatus": "unindexed"}, "ownerAddress": "{bob}"},
		{"address": "{kitties}", "name": "Kitties", "symbol": "KIT", "ercType": "ERC-721", "tokenId": "7", "tokenUri": "",
		 "metadata": {"indexStatus": "unindexed"}, "ownerAddress": "{alice}"},
		{"address": "{kitties}", "name": "Kitties", "symbol": "KIT", "ercType": "ERC-721", "tokenId": "9", "tokenUri": "ipfs://kitties/9",
		 "metadata": {"indexStatus": "indexed", "metadataLastUpdatedTimestamp": 1700000100, "name": "Kitty #9",
		              "imageUri": "ipfs://img/9", "attributes": "[{\"trait_type\":\"eyes\",\"value\":\"green\"}]"},
		 "ownerAddress": "{alice}"},
		{"address": "{kitties}", "name": "Kitties", "symbol": "KIT", "ercType": "ERC-721", "tokenId": "20", "tokenUri": "",
		 "metadata": {"indexStatus": "unindexed"}, "ownerAddress": "{alice}"}
	]}`)), srv.GetBody(t, tokensPath(handlertest.Kitties)))

	require.Equal(t, handlertest.DecodeJSON(t, expand(`{"tokens": [
		{"address": "{items}", "ercType": "ERC-1155", "tokenId": "3", "tokenUri": "", "metadata": {"indexStatus": "unindexed"}}
	]}`)), srv.GetBody(t, tokensPath(handlertest.Items)))
}

func TestListTokensPages(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	path := tokensPath(handlertest.Kitties) + "?pageSize=3"
	first := srv.GetBody(t, path)
	require.Len(t, first["tokens"], 3)
	// A token minted before the cursor and one after it while the client pages.
	backend.EVM.Nfts[netinfo.C] = append(backend.EVM.Nfts[netinfo.C],
		evmdata.NFT{Contract: handlertest.Kitties, Kind: evmdata.Erc721, TokenID: big.NewInt(2), Owner: handlertest.Carol},
		evmdata.NFT{Contract: handlertest.Kitties, Kind: evmdata.Erc721, TokenID: big.NewInt(30), Owner: handlertest.Carol})
	second := srv.GetBody(t, handlertest.WithToken(path, first))
	var ids []any
	for _, tok := range second["tokens"].([]any) {
		ids = append(ids, tok.(map[string]any)["tokenId"])
	}
	require.Equal(t, []any{"20", "30"}, ids, "resumes after the last id shown; nothing repeats")
	require.NotContains(t, second, "nextPageToken")

	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(tokensPath(handlertest.Punks)+"?pageSize=3", first)),
		http.StatusBadRequest, "pageToken")
}

func TestNFTCollectionBadInput(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	kitty := "/v1/chains/43112/nfts/collections/" + handlertest.Kitties.Hex() + "/tokens/"
	for name, tt := range map[string]struct {
		path      string
		status    int
		fragments []string
	}{
		"unknown chain":         {"/v1/chains/999/nfts/collections/" + handlertest.Kitties.Hex() + "/tokens", http.StatusBadRequest, []string{"chainId"}},
		"bad address":           {"/v1/chains/43112/nfts/collections/0x12/tokens", http.StatusBadRequest, []string{"address", "0x12"}},
		"not a contract":        {tokensPath(handlertest.Alice), http.StatusNotFound, []string{"is not a contract known to the index"}},
		"an ERC-20":             {tokensPath(handlertest.Wavax), http.StatusBadRequest, []string{"ERC-20", "not an NFT"}},
		"bad page size":         {tokensPath(handlertest.Kitties) + "?pageSize=101", http.StatusBadRequest, []string{"pageSize"}},
		"negative token id":     {kitty + "-1", http.StatusBadRequest, []string{"tokenId", "decimal integer"}},
		"hex token id":          {kitty + "0x10", http.StatusBadRequest, []string{"tokenId"}},
		"token id too large":    {kitty + new(big.Int).Lsh(big.NewInt(1), 256).String(), http.StatusBadRequest, []string{"tokenId", "2^256-1"}},
		"token id way too long": {kitty + strings.Repeat("1", 79), http.StatusBadRequest, []string{"tokenId"}},
		"unknown token":         {kitty + "8", http.StatusNotFound, []string{"token 8 of " + handlertest.Kitties.Hex(), "never minted, or burnt"}},
		"ERC-1155 missing":      {"/v1/chains/43112/nfts/collections/" + handlertest.Items.Hex() + "/tokens/4", http.StatusNotFound, []string{"token 4"}},
	} {
		t.Run(name, func(t *testing.T) {
			handlertest.RequireDataError(t, srv.Get(t, tt.path), tt.status, tt.fragments...)
		})
	}
}
