package evm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// listErc20Transactions, listErc721Transactions and listErc1155Transactions
// serve alike (transferHistory): each lists one standard's transfers.
func TestListErcTransactions(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	alice := handlertest.EVMAddr

	erc20 := srv.GetBody(t, historyPath(alice, ":listErc20"))
	require.Equal(t, []string{"12", "11"}, handlertest.TxHeights(t, erc20), "her send to bob and her wrap's mint; not bob's send to carol")
	sent := handlertest.Objects(t, erc20["transactions"])[0]
	require.Equal(t, handlertest.TxHashN(3).Hex(), sent["txHash"])
	require.Equal(t, handlertest.BlockRef(12).Hash.Hex(), sent["blockHash"])
	require.Equal(t, 1_700_000_024.0, sent["blockTimestamp"])
	require.Equal(t, handlertest.Avax(500).String(), sent["value"])
	require.Equal(t, handlertest.Bob.Hex(), sent["to"].(map[string]any)["address"])
	token := sent["erc20Token"].(map[string]any)
	require.Equal(t, "WAVAX", token["symbol"])
	require.Equal(t, "ERC-20", token["ercType"])
	require.NotContains(t, token, "tokenReputation", "v1 shapes have no reputation")

	erc721 := srv.GetBody(t, historyPath(alice, ":listErc721"))
	require.Equal(t, []string{"13"}, handlertest.TxHeights(t, erc721))
	kitty := handlertest.Objects(t, erc721["transactions"])[0]
	require.Equal(t, 5.0, kitty["logIndex"])
	require.Equal(t, "7", kitty["erc721Token"].(map[string]any)["tokenId"])
	require.NotContains(t, kitty, "value", "an Erc721Transfer has no value")

	erc1155 := srv.GetBody(t, historyPath(alice, ":listErc1155"))
	require.Equal(t, []string{"13"}, handlertest.TxHeights(t, erc1155))
	item := handlertest.Objects(t, erc1155["transactions"])[0]
	require.Equal(t, "10", item["value"])
	require.Equal(t, "ERC-1155", item["erc1155Token"].(map[string]any)["ercType"])

	carol := srv.GetBody(t, historyPath(handlertest.Carol.Hex(), ":listErc20"))
	require.Equal(t, []string{"13"}, handlertest.TxHeights(t, carol), "a receiver in someone else's tx")
	require.Equal(t, []any{}, srv.GetBody(t, historyPath(handlertest.Carol.Hex(), ":listErc721"))["transactions"])
	require.Equal(t, []string{"12"}, handlertest.TxHeights(t, srv.GetBody(t, historyPath(alice, ":listErc20")+"?startBlock=12")))

	var kinds []evmdata.ErcType
	for _, q := range backend.EVM.Histories.Transfers {
		kinds = append(kinds, q.Kind)
		require.True(t, q.Desc)
		require.Equal(t, uint64(handlertest.FixtureHeight), q.Pinned)
	}
	require.Contains(t, kinds, evmdata.Erc20)
	require.Contains(t, kinds, evmdata.Erc721)
	require.Contains(t, kinds, evmdata.Erc1155)
}

func TestListErcTransactionsPagesThroughBatchElements(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	batch := handlertest.FixtureTxs()[3]
	batch.Block = handlertest.BlockRef(15)
	batch.Tx.Index, batch.Tx.Hash = 1, handlertest.TxHashN(77)
	batch.Tx.Transfers = nil
	for i := range 3 {
		batch.Tx.Transfers = append(batch.Tx.Transfers, evmdata.TokenTransfer{LogIndex: 9, BatchIndex: uint16(i),
			Token: handlertest.Items, Kind: evmdata.Erc1155, Operator: handlertest.Bob, From: handlertest.Bob,
			To: handlertest.Alice, TokenID: handlertest.Gwei(int64(i)), Value: handlertest.Gwei(1)})
	}
	backend.EVM.AddTx(netinfo.C, batch)
	srv := newTestAPI(t, newTestConfig(), backend)
	path := historyPath(handlertest.EVMAddr, ":listErc1155") + "?pageSize=2"
	var ids []string
	body := srv.GetBody(t, path)
	for {
		for _, tr := range handlertest.Objects(t, body["transactions"]) {
			ids = append(ids, tr["erc1155Token"].(map[string]any)["tokenId"].(string))
		}
		if _, more := body["nextPageToken"]; !more {
			break
		}
		body = srv.GetBody(t, handlertest.WithToken(path, body))
	}
	require.Equal(t, []string{"2000000000", "1000000000", "0", "3"}, ids, "each batch element, newest first, then the older transfer")
}
