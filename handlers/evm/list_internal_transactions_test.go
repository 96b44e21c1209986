package evm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
)

func TestListInternalTransactions(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)

	alice := srv.GetBody(t, historyPath(handlertest.EVMAddr, ":listInternals"))
	require.Equal(t, []any{map[string]any{
		"blockNumber": "13", "blockTimestamp": 1_700_000_026.0, "blockHash": handlertest.BlockRef(13).Hash.Hex(),
		"txHash":         handlertest.TxHashN(4).Hex(),
		"from":           map[string]any{"address": handlertest.Kitties.Hex(), "name": "Kitties", "symbol": "KIT"},
		"to":             map[string]any{"address": handlertest.Alice.Hex()},
		"internalTxType": "CALL", "value": "1000", "isReverted": false, "gasUsed": "0", "gasLimit": "2300",
	}}, alice["transactions"], "the frame that pays alice, with its block and tx")

	bob := handlertest.Objects(t, srv.GetBody(t, historyPath(handlertest.EVMAddr2, ":listInternals"))["transactions"])
	require.Len(t, bob, 1)
	require.Equal(t, "UNKNOWN", bob[0]["internalTxType"], "a SELFDESTRUCT frame, in the closed enum")
	require.Equal(t, true, bob[0]["isReverted"])

	require.Equal(t, []any{}, srv.GetBody(t, historyPath(handlertest.EVMAddr, ":listInternals")+"?endBlock=13")["transactions"])
	require.Equal(t, []any{}, srv.GetBody(t, historyPath(handlertest.Carol.Hex(), ":listInternals"))["transactions"])
}

func TestInternalPositionsRoundTrip(t *testing.T) {
	p := evmdata.InternalPos{Block: 1 << 40, TxIndex: 7, Frame: 1<<32 - 1}
	got, ok := decodeInternalPos(encodeInternalPos(p))
	require.True(t, ok)
	require.Equal(t, p, got)
	_, ok = decodeInternalPos(encodeTxPos(evmdata.TxPos{Block: 1}))
	require.False(t, ok, "another listing's position")
}
