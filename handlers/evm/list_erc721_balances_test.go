package evm

import (
	"math/big"
	"net/http"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

func erc721Path(owner common.Address) string {
	return "/v1/chains/43112/addresses/" + owner.Hex() + "/balances:listErc721"
}

// nftIDs lists "symbol#id" of an ERC-721 balances page.
func nftIDs(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, item := range body["erc721TokenBalances"].([]any) {
		m := item.(map[string]any)
		out = append(out, m["symbol"].(string)+"#"+m["tokenId"].(string))
	}
	return out
}

func TestListErc721Balances(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, erc721Path(handlertest.Alice))
	require.Equal(t, []string{"KIT#7", "KIT#9", "KIT#20", "PNK#1"}, nftIDs(t, body), "by contract then token id; no ERC-1155")
	require.NotContains(t, body, "nextPageToken")
	require.Equal(t, map[string]any{
		"name": "Avalanche", "symbol": "AVAX", "decimals": 18.0, "chainId": "43112", "balance": "12500000000000000000",
	}, body["nativeTokenBalance"])
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{
		"address": "{kitties}", "name": "Kitties", "symbol": "KIT", "ercType": "ERC-721", "tokenId": "9",
		"tokenUri": "ipfs://kitties/9", "ownerAddress": "{alice}", "chainId": "43112",
		"metadata": {"indexStatus": "indexed", "metadataLastUpdatedTimestamp": 1700000100, "name": "Kitty #9",
			"imageUri": "ipfs://img/9", "attributes": "[{\"trait_type\":\"eyes\",\"value\":\"green\"}]"}
	}`)), body["erc721TokenBalances"].([]any)[1])

	require.Equal(t, []string{"PNK#1"}, nftIDs(t, srv.GetBody(t, erc721Path(handlertest.Alice)+"?contractAddress="+handlertest.Punks.Hex())))
	require.Empty(t, nftIDs(t, srv.GetBody(t, erc721Path(handlertest.Alice)+"?contractAddress="+handlertest.Items.Hex())), "an ERC-1155 contract has no ERC-721 tokens")
	require.Empty(t, nftIDs(t, srv.GetBody(t, erc721Path(handlertest.Carol))))
	require.Equal(t, "0", srv.GetBody(t, erc721Path(handlertest.Carol))["nativeTokenBalance"].(map[string]any)["balance"])
}

func TestListErc721BalancesPaging(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	path := erc721Path(handlertest.Alice) + "?pageSize=2"
	first := srv.GetBody(t, path)
	require.Equal(t, []string{"KIT#7", "KIT#9"}, nftIDs(t, first))
	second := srv.GetBody(t, handlertest.WithToken(path, first))
	require.Equal(t, []string{"KIT#20", "PNK#1"}, nftIDs(t, second), "the ERC-1155 holding in between is skipped")
	require.NotContains(t, second, "nextPageToken")

	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(erc721Path(handlertest.Alice)+"?contractAddress="+handlertest.Kitties.Hex(), first)),
		http.StatusBadRequest, "other parameters")
	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(erc721Path(handlertest.Bob), first)), http.StatusBadRequest, "other parameters")
}

func TestListErc721BalancesBoundsItsReads(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	// carol holds many ERC-1155 ids of one contract, then one ERC-721 token
	// of a contract that sorts after it.
	many := common.HexToAddress("0x1000000000000000000000000000000000000000")
	late := common.HexToAddress("0xf000000000000000000000000000000000000000")
	for id := range int64(40) {
		backend.EVM.Nfts[netinfo.C] = append(backend.EVM.Nfts[netinfo.C], evmdata.NFT{
			Contract: many, Kind: evmdata.Erc1155, TokenID: big.NewInt(id), Owner: handlertest.Carol, Balance: big.NewInt(2),
		})
	}
	backend.EVM.Nfts[netinfo.C] = append(backend.EVM.Nfts[netinfo.C], evmdata.NFT{
		Contract: late, Kind: evmdata.Erc721, TokenID: big.NewInt(1), Owner: handlertest.Carol, Balance: big.NewInt(1),
	})
	backend.EVM.AddContract(netinfo.C, evmdata.Contract{Address: late, Kind: evmdata.Erc721, Name: "Late", Symbol: "LTE"})
	srv := newTestAPI(t, newTestConfig(), backend)

	path := erc721Path(handlertest.Carol) + "?pageSize=1"
	body := srv.GetBody(t, path)
	var found []string
	for pages := 1; ; pages++ {
		require.Less(t, pages, 10, "paging ends")
		found = append(found, nftIDs(t, body)...)
		if _, more := body["nextPageToken"]; !more {
			break
		}
		before := backend.EVM.NftCalls
		body = srv.GetBody(t, handlertest.WithToken(path, body))
		require.LessOrEqual(t, backend.EVM.NftCalls-before, maxNFTBatches, "one page reads at most maxNFTBatches batches")
	}
	require.Equal(t, []string{"LTE#1"}, found)
}

func TestListErc721BalancesWithoutEVMState(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := handlertest.NewAPI(t, handlertest.Config(), backend, func(core *api.Core) []api.Route {
		return Routes(core, Config{}, backend.EVM, nil)
	})
	handlertest.RequireDataError(t, srv.Get(t, erc721Path(handlertest.Alice)), http.StatusServiceUnavailable, "native balances are not available")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/chains/43112/addresses/"+handlertest.Alice.Hex()+"/balances:getNative"),
		http.StatusServiceUnavailable, "native balances are not available")
}
