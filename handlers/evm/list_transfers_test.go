package evm

import (
	"context"
	"math/big"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

func transfersPath(token common.Address) string {
	return "/v1/chains/43112/tokens/" + token.Hex() + "/transfers"
}

// transferPositions lists "block/logIndex" of a transfers page.
func transferPositions(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, item := range body["transfers"].([]any) {
		m := item.(map[string]any)
		out = append(out, m["blockNumber"].(string)+"/"+api.FormatUint(uint64(m["logIndex"].(float64))))
	}
	return out
}

func TestListTokenTransfersShapes(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))

	rec := srv.Get(t, transfersPath(handlertest.Wavax)+"?pageSize=1")
	handlertest.RequireJSON(t, rec, http.StatusOK, nil)
	var body map[string]any
	handlertest.RequireJSON(t, rec, http.StatusOK, &body)
	delete(body, "nextPageToken")
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{"transfers": [{
		"blockNumber": "13", "blockTimestamp": 1700000026, "blockHash": "{block13}", "txHash": "{tx4}",
		"from": {"address": "{bob}"}, "to": {"address": "{carol}"}, "logIndex": 7, "value": "1000000000000000",
		"erc20Token": {"address": "{wavax}", "name": "Wrapped AVAX", "symbol": "WAVAX", "decimals": 18, "ercType": "ERC-20"}
	}]}`)), body)

	nft := srv.GetBody(t, transfersPath(handlertest.Kitties))["transfers"].([]any)
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{
		"blockNumber": "13", "blockTimestamp": 1700000026, "blockHash": "{block13}", "txHash": "{tx4}",
		"from": {"address": "{bob}"}, "to": {"address": "{alice}"}, "logIndex": 5,
		"erc721Token": {"address": "{kitties}", "name": "Kitties", "symbol": "KIT", "ercType": "ERC-721",
			"tokenId": "7", "tokenUri": "", "metadata": {"indexStatus": "unindexed"}}
	}`)), nft[0], "ERC-721 transfers carry no value")

	multi := srv.GetBody(t, transfersPath(handlertest.Items))["transfers"].([]any)
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{
		"blockNumber": "13", "blockTimestamp": 1700000026, "blockHash": "{block13}", "txHash": "{tx4}",
		"from": {"address": "{bob}"}, "to": {"address": "{alice}"}, "logIndex": 6, "value": "10",
		"erc1155Token": {"address": "{items}", "ercType": "ERC-1155", "tokenId": "3", "tokenUri": "",
			"metadata": {"indexStatus": "unindexed"}}
	}`)), multi[0])
}

func TestListTokenTransfersOrderAndFilters(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	require.Equal(t, []string{"13/7", "12/0", "11/3"}, transferPositions(t, srv.GetBody(t, transfersPath(handlertest.Wavax))), "newest first")
	require.Equal(t, []string{"12/0", "11/3"}, transferPositions(t, srv.GetBody(t, transfersPath(handlertest.Wavax)+"?endBlock=13")))
	require.Equal(t, []string{"13/7", "12/0"}, transferPositions(t, srv.GetBody(t, transfersPath(handlertest.Wavax)+"?startBlock=12")))

	calls := len(backend.EVM.TransferQueries)
	require.Equal(t, map[string]any{"transfers": []any{}}, srv.GetBody(t, transfersPath(handlertest.Wavax)+"?endBlock=0"))
	require.Len(t, backend.EVM.TransferQueries, calls)

	// Not a token, or not a contract at all: an empty list.
	require.Equal(t, map[string]any{"transfers": []any{}}, srv.GetBody(t, transfersPath(handlertest.Alice)))
	require.Equal(t, map[string]any{"transfers": []any{}}, srv.GetBody(t, transfersPath(handlertest.Mystery)))
}

func TestListTokenTransfersPaging(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	// A TransferBatch: three elements share log index 9.
	batch := evmdata.Tx{Hash: handlertest.TxHashN(7), From: handlertest.Alice, To: handlertest.AddrPtr(handlertest.Items), Status: 1, Input: []byte{1, 2, 3, 4}}
	for i := range uint16(3) {
		batch.Transfers = append(batch.Transfers, evmdata.TokenTransfer{
			LogIndex: 9, BatchIndex: i, Token: handlertest.Items, Kind: evmdata.Erc1155, Operator: handlertest.Alice, From: handlertest.Alice, To: handlertest.Bob,
			TokenID: big.NewInt(int64(10 + i)), Value: big.NewInt(1),
		})
	}
	backend.EVM.AddTx(netinfo.C, evmdata.IndexedTx{Block: handlertest.BlockRef(15), Tx: batch, Traced: true})
	srv := newTestAPI(t, newTestConfig(), backend)

	path := transfersPath(handlertest.Items) + "?pageSize=2"
	var ids []string
	body := srv.GetBody(t, path)
	for {
		for _, item := range body["transfers"].([]any) {
			ids = append(ids, item.(map[string]any)["erc1155Token"].(map[string]any)["tokenId"].(string))
		}
		// A new transfer arrives above the pinned height.
		late := evmdata.Tx{Hash: handlertest.TxHashN(2000 + uint64(len(ids))), From: handlertest.Alice, To: handlertest.AddrPtr(handlertest.Items), Status: 1,
			Transfers: []evmdata.TokenTransfer{{Token: handlertest.Items, Kind: evmdata.Erc1155, From: handlertest.Alice, To: handlertest.Carol,
				TokenID: big.NewInt(99), Value: big.NewInt(1)}}}
		height := uint64(20 + len(ids))
		backend.EVM.AddTx(netinfo.C, evmdata.IndexedTx{Block: handlertest.BlockRef(height), Tx: late, Traced: true})
		backend.SetIndexedHeight(netinfo.C, height)
		if _, more := body["nextPageToken"]; !more {
			break
		}
		body = srv.GetBody(t, handlertest.WithToken(path, body))
	}
	require.Equal(t, []string{"12", "11", "10", "3"}, ids, "batch elements page one by one, newest first")
	for _, q := range backend.EVM.TransferQueries {
		require.Equal(t, uint64(handlertest.FixtureHeight), q.Pinned)
	}
}

// fakePrices prices WAVAX at 21.5 and the native token at 30.25 (now) or
// 12 (historical) in every currency.
type fakePrices struct{ calls int }

func (p *fakePrices) TokenPrice(_ context.Context, chain netinfo.ChainInfo, token common.Address, _ string,
	at time.Time,
) (string, bool, error) {
	p.calls++
	switch {
	case chain.Chain != netinfo.C:
		return "", false, nil
	case token == handlertest.Wavax:
		return "21.5", true, nil
	case token == (common.Address{}) && at.IsZero():
		return "30.25", true, nil
	case token == (common.Address{}):
		return "12", true, nil
	}
	return "", false, nil
}

func TestListTokenTransfersPrices(t *testing.T) {
	cfg := newTestConfig()
	prices := &fakePrices{}
	cfg.EVM.Prices = prices
	srv := newTestAPI(t, cfg, handlertest.WithFixtures(t, handlertest.NewFakes()))
	transfers := srv.GetBody(t, transfersPath(handlertest.Wavax))["transfers"].([]any)
	for _, item := range transfers {
		token := item.(map[string]any)["erc20Token"].(map[string]any)
		require.Equal(t, map[string]any{"currencyCode": "usd", "value": "21.5"}, token["price"])
	}
	require.Equal(t, 1, prices.calls, "one price lookup per token and request")
}
