package evm

import (
	"math/big"
	"net/http"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// withItems adds to the fixtures (Alice: ten of Items id 3 by her logs)
// Items ids 5 (given away by her logs) and 6, and a state where balanceOf
// says id 3: 4 (not what the logs say), id 5: 2, id 6: 0, as of height h
// plus 0.
func withItems(t *testing.T) *handlertest.Fakes {
	backend := withTokenState(t)
	for _, id := range []int64{5, 6} {
		backend.EVM.Nfts[netinfo.C] = append(backend.EVM.Nfts[netinfo.C], evmdata.NFT{
			Contract: handlertest.Items, Kind: evmdata.Erc1155, TokenID: big.NewInt(id), Owner: handlertest.Alice, Balance: new(big.Int),
		})
	}
	erc20 := backend.EVM.TokenState.BalanceAt
	backend.EVM.TokenState.BalanceAt = func(h uint64, c evmdata.BalanceCall) *big.Int {
		if c.TokenID == nil {
			return erc20(h, c)
		}
		if c.Token != handlertest.Items || c.Owner != handlertest.Alice {
			return nil
		}
		switch c.TokenID.Int64() {
		case 3:
			return big.NewInt(4)
		case 5:
			return big.NewInt(2)
		}
		return new(big.Int)
	}
	return backend
}

func erc1155Path(owner common.Address) string {
	return "/v1/chains/43112/addresses/" + owner.Hex() + "/balances:listErc1155"
}

func TestListErc1155Balances(t *testing.T) {
	backend := withItems(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	body := srv.GetBody(t, erc1155Path(handlertest.Alice))
	require.Equal(t, []string{"ERC-1155:3=4", "ERC-1155:5=2"}, tokenBalances(t, body, "erc1155TokenBalances"),
		"balanceOf at the block, whatever the logs say; the ERC-721s and the empty id left out")
	item := body["erc1155TokenBalances"].([]any)[0].(map[string]any)
	require.Equal(t, handlertest.Items.Hex(), item["address"])
	require.Equal(t, "43112", item["chainId"])
	require.Contains(t, item, "tokenUri")
	require.Contains(t, item["metadata"], "indexStatus")
	require.Equal(t, "115", body["nativeTokenBalance"].(map[string]any)["balance"])
	require.Equal(t, []uint64{15, 15}, backend.EVM.TokenState.Heights)

	require.Equal(t, []string{"ERC-1155:3=4", "ERC-1155:5=2"},
		tokenBalances(t, srv.GetBody(t, erc1155Path(handlertest.Alice)+"?contractAddress="+handlertest.Items.Hex()+"&blockNumber=7"), "erc1155TokenBalances"))
	require.Equal(t, uint64(7), backend.EVM.PinnedSeen[len(backend.EVM.PinnedSeen)-1], "the candidates as of the asked block")
	require.Empty(t, tokenBalances(t, srv.GetBody(t, erc1155Path(handlertest.Alice)+"?contractAddress="+handlertest.Kitties.Hex()), "erc1155TokenBalances"))

	path := erc1155Path(handlertest.Alice) + "?pageSize=1"
	first := srv.GetBody(t, path)
	require.Equal(t, []string{"ERC-1155:3=4"}, tokenBalances(t, first, "erc1155TokenBalances"))
	second := srv.GetBody(t, handlertest.WithToken(path, first))
	require.Equal(t, []string{"ERC-1155:5=2"}, tokenBalances(t, second, "erc1155TokenBalances"))
	require.NotContains(t, second, "nextPageToken")

	for query, fragments := range map[string][]string{
		"blockNumber=16":      {"blockNumber", "above block 15"},
		"blockNumber=x":       {"blockNumber"},
		"contractAddress=0x1": {"contractAddress"},
		"pageSize=501":        {"pageSize"},
	} {
		handlertest.RequireDataError(t, srv.Get(t, erc1155Path(handlertest.Alice)+"?"+query), http.StatusBadRequest, fragments...)
	}
}

func TestListCollectibleBalances(t *testing.T) {
	backend := withItems(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	path := "/v1/chains/43112/addresses/" + handlertest.Alice.Hex() + "/balances:listCollectibles"
	want := []string{"ERC-721:7=", "ERC-721:9=", "ERC-721:20=", "ERC-1155:3=4", "ERC-1155:5=2", "ERC-721:1="}
	body := srv.GetBody(t, path)
	require.Equal(t, want, tokenBalances(t, body, "collectibleBalances"), "by contract then id: Kitties, Items, Punks")
	kitty := body["collectibleBalances"].([]any)[1].(map[string]any)
	require.Equal(t, "Kitties", kitty["name"])
	require.Equal(t, handlertest.Alice.Hex(), kitty["ownerAddress"])
	require.Equal(t, "ipfs://kitties/9", kitty["tokenUri"])
	require.Equal(t, 3, backend.EVM.TokenState.Calls, "only the three ERC-1155 ids are read from the node")

	var got []string
	for page := srv.GetBody(t, path+"?pageSize=2"); ; page = srv.GetBody(t, handlertest.WithToken(path+"?pageSize=2", page)) {
		got = append(got, tokenBalances(t, page, "collectibleBalances")...)
		if _, more := page["nextPageToken"]; !more {
			break
		}
	}
	require.Equal(t, want, got)
	require.Equal(t, []string{"ERC-721:1="}, tokenBalances(t, srv.GetBody(t, path+"?contractAddress="+handlertest.Punks.Hex()), "collectibleBalances"))
	require.NotContains(t, body, "nativeTokenBalance")
	handlertest.RequireDataError(t, srv.Get(t, path+"?contractAddress=nope"), http.StatusBadRequest, "contractAddress")
}
