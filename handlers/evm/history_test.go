package evm

import (
	"net/http"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

// A C-chain whose index starts at block 10 (the node state-synced it):
// the fixtures' txs sit in blocks 10 to 15, WAVAX was deployed in block
// 10, Kitties and Items have no indexed deployment. The subnet keeps its
// history from genesis.

const historyFrom = 10

func newPartialHistoryAPI(t *testing.T) *handlertest.API {
	t.Helper()
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	addFixtureBlocks(backend, netinfo.C, historyFrom, handlertest.FixtureHeight)
	addFixtureBlocks(backend, fakenet.SubnetChain, 1, 3)
	backend.EVM.SetHistoryFrom(netinfo.C, historyFrom)
	return newTestAPI(t, newTestConfig(), backend)
}

const cPath = "/v1/chains/43112"

// starts is the sentence every refusal about the C-chain starts with.
const starts = "C-chain history in this node's index starts at block 10"

func TestPartialHistoryHeaderOnEveryReplyOfThePartialChain(t *testing.T) {
	srv := newPartialHistoryAPI(t)
	for _, path := range []string{
		cPath, cPath + "/blocks", cPath + "/blocks/12", cPath + "/transactions",
		cPath + "/addresses/" + handlertest.EVMAddr + "/transactions",
		cPath + "/addresses/" + handlertest.EVMAddr + "/balances:listErc721",
		cPath + "/blocks/5", // a refusal says it too
	} {
		rec := srv.Get(t, path)
		require.Equal(t, "10", rec.Header().Get(api.HeaderHistoryFrom), path)
	}
	subnet := srv.Get(t, "/v1/chains/779672/blocks")
	require.Equal(t, http.StatusOK, subnet.Code)
	require.Empty(t, subnet.Header().Get(api.HeaderHistoryFrom), "a chain indexed from genesis has no header")

	all := srv.Get(t, "/v1/blocks")
	require.Equal(t, http.StatusOK, all.Code)
	require.Equal(t, "10", all.Header().Get(api.HeaderHistoryFrom), "the all-chains listing names the partial chain")
}

func TestPartialHistoryRefusesRangesBeforeTheFirstBlock(t *testing.T) {
	srv := newPartialHistoryAPI(t)
	addr := cPath + "/addresses/" + handlertest.EVMAddr
	for _, path := range []string{
		addr + "/transactions?startBlock=5",
		addr + "/transactions?startBlock=9&endBlock=12",
		"/v2/chains/43112/addresses/" + handlertest.EVMAddr + "/transactions?startBlock=1",
		addr + "/transactions:listNative?startBlock=3",
		addr + "/transactions:listErc20?startBlock=3",
		addr + "/transactions:listErc721?startBlock=3",
		addr + "/transactions:listErc1155?startBlock=3",
		addr + "/transactions:listInternals?startBlock=3",
		cPath + "/tokens/" + handlertest.Wavax.Hex() + "/transfers?startBlock=2",
	} {
		handlertest.RequireDataError(t, srv.Get(t, path), http.StatusBadRequest, starts, "is before it",
			"ask for blocks from 10 on, or give the node the chain's full history and set indexFrom")
	}
	handlertest.RequireDataError(t, srv.Get(t, addr+"/transactions?endBlock=10"), http.StatusBadRequest,
		starts, "endBlock 10 (exclusive) selects only blocks before it")

	// From the first block on, and without bounds, listings answer: they
	// end at the first indexed block.
	require.Equal(t, []string{"15", "14", "13", "12", "11", "10"}, handlertest.TxBlocks(t, srv.GetBody(t, addr+"/transactions?startBlock=10")))
	require.Equal(t, []string{"15", "14", "13", "12", "11", "10"}, handlertest.TxBlocks(t, srv.GetBody(t, addr+"/transactions")))
	require.Equal(t, []string{"11", "10"}, handlertest.TxBlocks(t, srv.GetBody(t, addr+"/transactions?endBlock=12")))
}

func TestPartialHistoryBlocksAndTransactionsBeforeTheFirstBlock(t *testing.T) {
	srv := newPartialHistoryAPI(t)
	for _, path := range []string{cPath + "/blocks/5", cPath + "/blocks/0", cPath + "/blocks/9/transactions"} {
		handlertest.RequireDataError(t, srv.Get(t, path), http.StatusNotFound, starts, "is before it", "set indexFrom")
	}
	unknown := handlertest.HashN(0xee, 1).Hex()
	handlertest.RequireDataError(t, srv.Get(t, cPath+"/blocks/"+unknown), http.StatusNotFound, starts,
		"no block with hash", "it may be in an earlier block")
	handlertest.RequireDataError(t, srv.Get(t, cPath+"/transactions/"+unknown), http.StatusNotFound, starts,
		"transaction "+unknown+" is not in the index", "it may be in an earlier block")
	handlertest.RequireDataError(t, srv.Get(t, cPath+"/blocks/99"), http.StatusNotFound, "the index holds blocks 10 to 15")

	// Blocks from the first one on are served, without the cumulative
	// count the index only has from its first block.
	block := srv.GetBody(t, cPath+"/blocks/12")
	require.Equal(t, "12", block["blockNumber"])
	require.NotContains(t, block, "cumulativeTransactions")
	for _, b := range srv.GetBody(t, cPath+"/blocks")["blocks"].([]any) {
		require.NotContains(t, b, "cumulativeTransactions")
	}
	subnet := srv.GetBody(t, "/v1/chains/779672/blocks/3")
	require.Equal(t, "1", subnet["cumulativeTransactions"], "a chain indexed from genesis keeps its count")
	require.Equal(t, "12", srv.GetBody(t, cPath+"/transactions/"+handlertest.TxHashN(3).Hex())["nativeTransaction"].(map[string]any)["blockNumber"])
}

func TestPartialHistoryContractsAndCollections(t *testing.T) {
	srv := newPartialHistoryAPI(t)
	kitties, items := handlertest.Kitties.Hex(), handlertest.Items.Hex()

	// WAVAX was deployed in block 10: everything about it is known.
	deployment := srv.GetBody(t, cPath+"/contracts/"+handlertest.Wavax.Hex()+"/transactions:getDeployment")
	require.Equal(t, handlertest.TxHashN(1).Hex(), deployment["nativeTransaction"].(map[string]any)["txHash"])

	handlertest.RequireDataError(t, srv.Get(t, cPath+"/contracts/"+kitties+"/transactions:getDeployment"),
		http.StatusNotFound, starts, "the deployment of contract "+kitties+" is not in the index")
	meta := srv.GetBody(t, cPath+"/addresses/"+kitties)
	require.Equal(t, "ERC-721", meta["ercType"])
	require.NotContains(t, meta, "deploymentDetails")
	never := common.HexToAddress("0x00000000000000000000000000000000000b0b0b").Hex()
	handlertest.RequireDataError(t, srv.Get(t, cPath+"/addresses/"+never), http.StatusNotFound, starts,
		never+" is not a contract known to the index", "it may be in an earlier block")

	// Figures derived from all of a collection's transfers.
	handlertest.RequireMetricsError(t, srv.Get(t, "/metrics/v2/chains/43112/contracts/"+kitties+"/nfts:listHolders"),
		http.StatusNotFound, starts, "contract "+kitties+"'s deployment is not indexed", "its holders and their counts")
	handlertest.RequireDataError(t, srv.Get(t, cPath+"/nfts/collections/"+kitties+"/tokens"), http.StatusNotFound,
		starts, "its tokens, their owners and supplies")
	handlertest.RequireDataError(t, srv.Get(t, cPath+"/nfts/collections/"+items+"/tokens/3"), http.StatusNotFound,
		starts, "its tokens' supplies")
	// An ERC-721 token's owner is its last transfer's recipient: right when
	// the index holds one; a token it holds none of may be older.
	require.Equal(t, "7", srv.GetBody(t, cPath+"/nfts/collections/"+kitties+"/tokens/7")["tokenId"])
	handlertest.RequireDataError(t, srv.Get(t, cPath+"/nfts/collections/"+kitties+"/tokens/999"), http.StatusNotFound,
		starts, "token 999 of "+kitties, "it may have been minted before")
}

func TestPartialHistoryBalancesBeforeTheFirstBlock(t *testing.T) {
	srv := newPartialHistoryAPI(t)
	addr := cPath + "/addresses/" + handlertest.EVMAddr
	for _, path := range []string{addr + "/balances:listErc20?blockNumber=5", addr + "/balances:listErc1155?blockNumber=9"} {
		handlertest.RequireDataError(t, srv.Get(t, path), http.StatusBadRequest, starts, "blockNumber", "is before it")
	}
}

// A back-fill that reached genesis but is still counting: while it fills
// below where the running state counts from, and while it re-derives it,
// nothing counted from the whole chain is shown.
func TestBackfillRunningStateHidesCounts(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	addFixtureBlocks(backend, netinfo.C, 1, handlertest.FixtureHeight)
	srv := newTestAPI(t, newTestConfig(), backend)
	kitties := handlertest.Kitties.Hex()
	holders := "/metrics/v2/chains/43112/contracts/" + kitties + "/nfts:listHolders"
	erc721 := cPath + "/addresses/" + handlertest.EVMAddr + "/balances:listErc721"
	token7 := cPath + "/nfts/collections/" + kitties + "/tokens/7"
	token999 := cPath + "/nfts/collections/" + kitties + "/tokens/999"

	require.Contains(t, srv.GetBody(t, cPath+"/blocks/12"), "cumulativeTransactions", "no back-fill: the chain's count")

	backend.EVM.SetRunningState(netinfo.C, 10, true) // filling below block 10
	require.NotContains(t, srv.GetBody(t, cPath+"/blocks/12"), "cumulativeTransactions")
	handlertest.RequireMetricsError(t, srv.Get(t, holders), http.StatusServiceUnavailable,
		"NFT holdings count from block 10 until the back-fill")
	require.Equal(t, http.StatusOK, srv.Get(t, erc721).Code, "holdings as of before the fill stay readable")
	require.Equal(t, "7", srv.GetBody(t, token7)["tokenId"], "a token moved since the fill's start: its owner is known")
	handlertest.RequireDataError(t, srv.Get(t, token999), http.StatusServiceUnavailable,
		"NFT holdings count from block 10 until the back-fill")

	backend.EVM.SetRunningState(netinfo.C, 10, false) // re-deriving
	require.NotContains(t, srv.GetBody(t, cPath+"/blocks/12"), "cumulativeTransactions")
	handlertest.RequireMetricsError(t, srv.Get(t, holders), http.StatusServiceUnavailable, "re-deriving NFT holdings")
	handlertest.RequireDataError(t, srv.Get(t, erc721), http.StatusServiceUnavailable, "re-deriving NFT holdings")
	// The ownership rows are being rebuilt: even a token the index holds
	// an owner of may show an earlier one.
	handlertest.RequireDataError(t, srv.Get(t, token7), http.StatusServiceUnavailable, "re-deriving NFT holdings")

	backend.EVM.SetRunningState(netinfo.C, 1, true) // done
	require.Contains(t, srv.GetBody(t, cPath+"/blocks/12"), "cumulativeTransactions")
	require.Equal(t, http.StatusOK, srv.Get(t, holders).Code)
	require.Equal(t, "7", srv.GetBody(t, token7)["tokenId"])
	handlertest.RequireDataError(t, srv.Get(t, token999), http.StatusNotFound, "token 999 of "+kitties+" is not held")
}
