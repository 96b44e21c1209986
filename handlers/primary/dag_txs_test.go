package primary

import (
	"strconv"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// xNonLinearRequired are the required members of the OpenAPI's
// XChainNonLinearTransaction.
var xNonLinearRequired = []string{"txHash", "chainFormat", "timestamp", "txType", "memo", "consumedUtxos",
	"emittedUtxos", "amountUnlocked", "amountCreated", "vertices"}

// dagTime is when the node accepted the DAG's vertices: after linear block 1,
// as on a node that bootstrapped the DAG after Cortina.
const dagTime = handlertest.PGenesisTime + 15

// withDAGTxs indexes, on the X-chain, a DAG tx of PAlice's held by two
// vertices and a linear tx in block 1 that spends its output.
func withDAGTxs(backend *handlertest.Fakes) (dag, linear ids.ID, vertices []pdata.TxVertex) {
	f := backend.Primary
	f.AssetList[fakenet.AVAXAssetID] = pdata.Asset{ID: fakenet.AVAXAssetID, Name: "Avalanche", Symbol: "AVAX", Denomination: 9, Type: "secp256k1"}
	dag, linear = handlertest.FixtureTxID(netinfo.X, 100), handlertest.FixtureTxID(netinfo.X, 101)
	vertices = []pdata.TxVertex{{ID: ids.ID{'v', 0}, DAGHeight: 4, Timestamp: dagTime}, {ID: ids.ID{'v', 1}, DAGHeight: 5, Timestamp: dagTime + 2}}
	out := handlertest.NewUTXO(netinfo.X, dag, 0, handlertest.PAlice, 7_000_000_000, 0)
	out.CreatedTime = dagTime
	dagTx := pdata.IndexedTx{Chain: netinfo.X, Pos: pdata.TxPos{Height: 0, Index: 1 << 16}, BlockID: vertices[0].ID,
		BlockTime: dagTime, Tx: &pdata.Tx{ID: dag, Type: "BaseTx"}, Vertices: vertices,
		Produced: []pdata.IndexedUTXO{handlertest.Spent(out, netinfo.X, linear, 1)}}
	f.AddTx(dagTx)
	change := handlertest.NewUTXO(netinfo.X, linear, 0, handlertest.PAlice, 6_999_000_000, 1)
	f.AddTx(handlertest.IndexedTx(netinfo.X, 1, 0, &pdata.Tx{ID: linear, Type: "BaseTx"},
		[]pdata.IndexedUTXO{handlertest.Spent(out, netinfo.X, linear, 1)}, []pdata.IndexedUTXO{change}))
	f.AddBlock(pdata.IndexedBlock{Chain: netinfo.X, Number: 2, Time: handlertest.BlockTime(2)})
	return dag, linear, vertices
}

func TestListXChainDAGTxs(t *testing.T) {
	backend := handlertest.NewFakes()
	dag, linear, vertices := withDAGTxs(backend)
	srv := newTestAPI(t, handlertest.Config(), backend)
	body := srv.GetBody(t, xTxsPath+"?addresses=X-"+handlertest.Bech32Of(t, handlertest.PAlice))
	list := handlertest.Objects(t, body["transactions"])
	require.Len(t, list, 2)
	require.Equal(t, linear.String(), list[0]["txHash"], "newest first: the linear tx, then the DAG's")
	require.Equal(t, dag.String(), list[1]["txHash"])

	tx := list[1]
	requireKeys(t, tx, xNonLinearRequired...)
	require.Equal(t, "non-linear", tx["chainFormat"])
	require.NotContains(t, tx, "blockHeight")
	require.NotContains(t, tx, "blockHash")
	require.InDelta(t, float64(dagTime+2), tx["timestamp"], 0, "the latest of its vertices' times")
	require.Equal(t, []any{
		map[string]any{"hash": vertices[0].ID.String(), "height": float64(4), "timestamp": float64(dagTime)},
		map[string]any{"hash": vertices[1].ID.String(), "height": float64(5), "timestamp": float64(dagTime + 2)},
	}, tx["vertices"])
	emitted := handlertest.Objects(t, tx["emittedUtxos"])
	require.Len(t, emitted, 1)
	require.Equal(t, linear.String(), emitted[0]["consumingTxHash"], "spent by the linear block")
	require.Equal(t, []string{"7000000000"}, amountsOf(t, tx["amountCreated"]))

	require.Equal(t, "linear", list[0]["chainFormat"])
	require.InDelta(t, 1, list[0]["blockHeight"], 0)
	require.NotContains(t, list[0], "vertices")
}

// A time range that no linear block falls in still asks the index, with its
// time bounds: DAG txs may lie there.
func TestListXChainDAGTxsByTime(t *testing.T) {
	backend := handlertest.NewFakes()
	withDAGTxs(backend)
	srv := newTestAPI(t, handlertest.Config(), backend)
	ts := strconv.Itoa(dagTime)
	srv.GetBody(t, xTxsPath+"?addresses=X-"+handlertest.Bech32Of(t, handlertest.PAlice)+"&startTimestamp="+ts+"&endTimestamp="+ts)
	backend.Primary.Mu.Lock()
	queries := backend.Primary.TxQueries
	backend.Primary.Mu.Unlock()
	require.NotEmpty(t, queries)
	q := queries[0]
	require.Equal(t, uint64(2), q.FromHeight, "after block 1, the last block before the range")
	require.Equal(t, uint64(2), q.ToHeight)
	require.Equal(t, int64(dagTime), *q.FromTime)
	require.Equal(t, int64(dagTime), *q.ToTime)
}
