package evm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// A transfer shows the token it moves with its URI and metadata as read:
// an ERC-1155 id its uri(id) as the contract returned it.
func TestTransfersCarryTheTokenURI(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	for i, nft := range backend.EVM.Nfts[netinfo.C] {
		switch {
		case nft.Contract == handlertest.Items:
			backend.EVM.Nfts[netinfo.C][i].Metadata = &evmdata.NFTMetadata{TokenURI: "https://items.example/{id}.json",
				Status: evmdata.IndexStatusIndexed, Name: "Item three", UpdatedAt: 1_700_000_200}
		case nft.Contract == handlertest.Kitties && nft.TokenID.Int64() == 7:
			backend.EVM.Nfts[netinfo.C][i].Metadata = &evmdata.NFTMetadata{TokenURI: "ipfs://kitties/7", Status: evmdata.IndexStatusUnindexed}
		}
	}
	srv := newTestAPI(t, newTestConfig(), backend)
	for _, path := range []string{
		"/v1/chains/43112/transactions/" + handlertest.TxHashN(4).Hex(),
		"/v1/chains/43112/addresses/" + handlertest.Alice.Hex() + "/transactions",
	} {
		body := srv.GetBody(t, path)
		if txs, ok := body["transactions"].([]any); ok {
			for _, tx := range txs {
				if tx.(map[string]any)["nativeTransaction"].(map[string]any)["txHash"] == handlertest.TxHashN(4).Hex() {
					body = tx.(map[string]any)
				}
			}
		}
		multi := body["erc1155Transfers"].([]any)[0].(map[string]any)["erc1155Token"].(map[string]any)
		require.Equal(t, "https://items.example/{id}.json", multi["tokenUri"], path)
		require.Equal(t, map[string]any{"indexStatus": "indexed", "name": "Item three", "metadataLastUpdatedTimestamp": 1_700_000_200.0},
			multi["metadata"], path)
		kitty := body["erc721Transfers"].([]any)[0].(map[string]any)["erc721Token"].(map[string]any)
		require.Equal(t, "ipfs://kitties/7", kitty["tokenUri"], path)
	}
	transfers := srv.GetBody(t, "/v1/chains/43112/tokens/"+handlertest.Items.Hex()+"/transfers")["transfers"].([]any)
	require.Equal(t, "https://items.example/{id}.json", transfers[0].(map[string]any)["erc1155Token"].(map[string]any)["tokenUri"])
}
