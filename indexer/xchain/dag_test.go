package xchain

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/indexer"
	"github.com/ava-labs/avalanchego/snow/engine/avalanche/vertex"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/avm/block"
	"github.com/ava-labs/avalanchego/vms/avm/txs"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/components/verify"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/chain/x"
	"github.com/ava-labs/avalanchego/wallet/chain/x/builder"
	"github.com/ava-labs/avalanchego/wallet/chain/x/signer"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common/utxotest"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// dagChain is an X-chain with a DAG era, made of real avm txs that
// avalanchego's wallet builds and signs, on the local network's genesis:
//
//	vertex 0 (DAG height 0): a, ewoq pays bob 7 AVAX out of a genesis UTXO
//	vertex 1 (DAG height 1): b, ewoq creates the COIN asset; and a again
//	vertex 2 (DAG height 2): the stop vertex, no txs
//	block 1: c, bob pays carol 5 AVAX out of what a paid him
//	block 2: d, ewoq pays carol 400 COIN
type dagChain struct {
	chainID    ids.ID
	genesis    *pdata.Block
	avax       ids.ID
	vertices   []vertex.StatelessVertex
	blocks     []*block.StandardBlock
	a, b, c, d *txs.Tx
}

var (
	ewoq  = genesis.EWOQKey
	bob   = secp256k1.TestKeys()[1]
	carol = secp256k1.TestKeys()[2]
)

// Times: the local genesis starts at 1721016000; the vertices are accepted
// in the hour after, the linear blocks a day later.
const (
	dagVertexTime = 1_721_016_000 + 600
	dagBlockTime  = 1_721_016_000 + 86_400
)

func vertexTime(i int) int64   { return dagVertexTime + int64(i)*60 }
func blockTime(h uint64) int64 { return dagBlockTime + int64(h)*60 }

func newDAGChain(t *testing.T) *dagChain {
	t.Helper()
	gen, err := Genesis(constants.LocalID)
	require.NoError(t, err)
	genesisBytes, _, err := genesis.FromConfig(genesis.GetConfig(constants.LocalID))
	require.NoError(t, err)
	chainTx, err := genesis.VMGenesis(genesisBytes, constants.AVMID)
	require.NoError(t, err)
	ch := &dagChain{chainID: chainTx.ID(), genesis: gen, avax: gen.Txs[0].ID}
	ctx := &builder.Context{
		NetworkID:        constants.LocalID,
		BlockchainID:     ch.chainID,
		AVAXAssetID:      ch.avax,
		BaseTxFee:        units.MilliAvax,
		CreateAssetTxFee: 10 * units.MilliAvax,
	}
	var genesisUTXOs []*avax.UTXO
	for _, u := range gen.Txs[0].Produced {
		var utxo avax.UTXO
		_, err := builder.Parser.Codec().Unmarshal(u.Bytes, &utxo)
		require.NoError(t, err)
		genesisUTXOs = append(genesisUTXOs, &utxo)
	}
	pay := func(asset ids.ID, amount uint64, to *secp256k1.PrivateKey) []*avax.TransferableOutput {
		return []*avax.TransferableOutput{{Asset: avax.Asset{ID: asset}, Out: &secp256k1fx.TransferOutput{
			Amt: amount, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{to.Address()}},
		}}}
	}

	w := newDAGWallet(t, ctx, ewoq, genesisUTXOs)
	ch.a = w.signed(t, must(w.builder.NewBaseTx(pay(ch.avax, 7*units.Avax, bob))))
	w = newDAGWallet(t, ctx, ewoq, ch.a.UTXOs())
	ch.b = w.signed(t, must(w.builder.NewCreateAssetTx("Coin", "COIN", 2, map[uint32][]verify.State{
		0: {&secp256k1fx.TransferOutput{Amt: 1000, OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{ewoq.Address()}}}},
	})))
	w = newDAGWallet(t, ctx, bob, ch.a.UTXOs())
	ch.c = w.signed(t, must(w.builder.NewBaseTx(pay(ch.avax, 5*units.Avax, carol))))
	w = newDAGWallet(t, ctx, ewoq, ch.b.UTXOs())
	ch.d = w.signed(t, must(w.builder.NewBaseTx(pay(ch.b.ID(), 400, carol))))

	v0, err := vertex.Build(ch.chainID, 0, nil, [][]byte{ch.a.Bytes()})
	require.NoError(t, err)
	v1, err := vertex.Build(ch.chainID, 1, []ids.ID{v0.ID()}, [][]byte{ch.b.Bytes(), ch.a.Bytes()})
	require.NoError(t, err)
	stop, err := vertex.BuildStopVertex(ch.chainID, 2, []ids.ID{v1.ID()})
	require.NoError(t, err)
	ch.vertices = []vertex.StatelessVertex{v0, v1, stop}

	parent := gen.ID // the linearized chain's genesis, whose parent is the stop vertex
	for h, tx := range []*txs.Tx{ch.c, ch.d} {
		height := uint64(h + 1)
		blk, err := block.NewStandardBlock(parent, height, time.Unix(blockTime(height), 0), []*txs.Tx{tx}, builder.Parser.Codec())
		require.NoError(t, err)
		ch.blocks = append(ch.blocks, blk)
		parent = blk.ID()
	}
	return ch
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// newDAGWallet is avalanchego's X-chain wallet of key over utxos.
func newDAGWallet(t *testing.T, ctx *builder.Context, key *secp256k1.PrivateKey, utxos []*avax.UTXO) *testWallet {
	backend := x.NewBackend(ctx, utxotest.NewDeterministicChainUTXOs(t, map[ids.ID][]*avax.UTXO{ctx.BlockchainID: utxos}))
	return &testWallet{
		builder: builder.New(set.Of(key.Address()), ctx, backend),
		signer:  signer.New(secp256k1fx.NewKeychain(key), backend),
	}
}

// signed signs utx as the wallet issues it.
func (w *testWallet) signed(t *testing.T, utx txs.UnsignedTx) *txs.Tx {
	t.Helper()
	tx, err := signer.SignUnsigned(t.Context(), w.signer, utx)
	require.NoError(t, err)
	return tx
}

// serve puts the chain in node's indexes: every vertex, and the first
// blocks linear blocks.
func (ch *dagChain) serve(node *fakeNode, vertices, blocks int) {
	for i, vtx := range ch.vertices[:vertices] {
		node.vertices.add(vtx.ID(), vtx.Bytes(), vertexTime(i))
	}
	for _, blk := range ch.blocks[:blocks] {
		node.blocks.add(blk.ID(), blk.Bytes(), blockTime(blk.Height()))
	}
}

// openDAGStore opens the store in dir with the local network's facts.
func openDAGStore(t *testing.T, ch *dagChain, dir string) *store.Store {
	t.Helper()
	s, err := store.Open(dir, logging.NoLog{})
	require.NoError(t, err)
	byID := map[ids.ID]netinfo.Chain{constants.PlatformChainID: netinfo.P, ch.chainID: netinfo.X}
	s.SetPrimaryNetwork(store.PrimaryNetwork{
		ChainOf: func(id ids.ID) (netinfo.Chain, bool) { c, ok := byID[id]; return c, ok },
		IDOf: func(c netinfo.Chain) ids.ID {
			if c == netinfo.X {
				return ch.chainID
			}
			return constants.PlatformChainID
		},
		Genesis:     map[netinfo.Chain]*pdata.Block{netinfo.X: ch.genesis},
		GenesisTime: int64(genesis.LocalConfig.StartTime),
	})
	return s
}

// xFollowers are the X-chain's two followers over node, writing to s, as
// the indexer builds them.
func xFollowers(t *testing.T, node *fakeNode, s *store.Store) (blocks, vertices follower.Runner) {
	t.Helper()
	metrics, err := follower.NewMetrics(prometheus.NewRegistry())
	require.NoError(t, err)
	cfg := follower.Config{PollInterval: 5 * time.Millisecond, BatchSize: 2, Fetchers: 2}
	src, err := NewSource(indexer.NewClient(node.url + blockIndexPath))
	require.NoError(t, err)
	vsrc, err := NewVertexSource(node.url)
	require.NoError(t, err)
	blocks = follower.New(follower.Identity{Chain: netinfo.X, Name: "X"}, follower.Source[*pdata.Block](src),
		follower.Sink[*pdata.Block](s.PrimaryWriter(netinfo.X)), cfg, logging.NoLog{}, metrics)
	vertices = follower.New(follower.Identity{Chain: netinfo.X, Name: "X-vertices"}, follower.Source[*pdata.Vertex](vsrc),
		follower.Sink[*pdata.Vertex](s.VertexWriter()), cfg, logging.NoLog{}, metrics)
	return blocks, vertices
}

// follow runs the runners at once until each has indexed up to its height
// in heights, then stops them.
func follow(t *testing.T, runners []follower.Runner, heights []uint64) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for _, r := range runners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = r.Run(ctx)
		}()
	}
	require.Eventually(t, func() bool {
		for i, r := range runners {
			if st := r.Status(); !st.CaughtUp || st.IndexedHeight != heights[i] {
				return false
			}
		}
		return true
	}, 20*time.Second, 5*time.Millisecond)
	cancel()
	wg.Wait()
}

// indexDAGChain indexes the whole chain into a store in dir: the two
// followers at once, or in the order given.
func indexDAGChain(t *testing.T, ch *dagChain, dir string, linearFirst bool) *store.Store {
	t.Helper()
	node := newFakeNode(t)
	ch.serve(node, len(ch.vertices), len(ch.blocks))
	s := openDAGStore(t, ch, dir)
	t.Cleanup(func() { _ = s.Close() })
	blocks, vertices := xFollowers(t, node, s)
	if linearFirst {
		follow(t, []follower.Runner{blocks}, []uint64{2})
		follow(t, []follower.Runner{vertices}, []uint64{3})
	} else {
		follow(t, []follower.Runner{blocks, vertices}, []uint64{2, 3})
	}
	return s
}

// dagView is what the index serves about the chain: the tx listings of
// listLatestPrimaryNetworkTransactions, the balances of
// getBalancesByAddresses at a few times, and the assets.
type dagView struct {
	txs      map[string][]pdata.IndexedTx
	balances map[int64][]pdata.BalanceEntry
	assets   map[ids.ID]pdata.Asset
}

func readDAGView(t *testing.T, ch *dagChain, s *store.Store) dagView {
	t.Helper()
	d, err := NewDecoder()
	require.NoError(t, err)
	r := s.PrimaryReader(func(_ netinfo.Chain, b []byte) (*pdata.Tx, error) { return d.DecodeTx(b) })
	ctx := t.Context()
	view := dagView{txs: map[string][]pdata.IndexedTx{}, balances: map[int64][]pdata.BalanceEntry{}}
	for name, q := range map[string]pdata.TxQuery{
		"all":       {},
		"all desc":  {Desc: true},
		"ewoq":      {Addresses: []ids.ShortID{ewoq.Address()}},
		"bob":       {Addresses: []ids.ShortID{bob.Address()}},
		"carol":     {Addresses: []ids.ShortID{carol.Address()}},
		"bob desc":  {Addresses: []ids.ShortID{bob.Address(), carol.Address()}, Desc: true},
		"dag times": {Addresses: []ids.ShortID{bob.Address()}, FromHeight: 1, FromTime: ptr(vertexTime(0))},
	} {
		view.txs[name], err = r.Txs(ctx, netinfo.X, q)
		require.NoError(t, err)
	}
	people := []ids.ShortID{bob.Address(), carol.Address()}
	for _, at := range []int64{vertexTime(0) - 1, vertexTime(0), vertexTime(2), blockTime(1), blockTime(2)} {
		view.balances[at], err = r.Balances(ctx, netinfo.X, people, at)
		require.NoError(t, err)
	}
	view.assets, err = r.Assets(ctx, []ids.ID{ch.avax, ch.b.ID()})
	require.NoError(t, err)
	return view
}

func ptr[T any](v T) *T { return &v }

func txIDsOf(txs []pdata.IndexedTx) []ids.ID {
	out := make([]ids.ID, len(txs))
	for i, tx := range txs {
		out[i] = tx.Tx.ID
	}
	return out
}

// The DAG's txs, from the node's vertex index through the real followers
// and writers, are X-chain txs: listed before the linear ones, their UTXOs
// spent by linear blocks, in the balances from their vertex's time on.
func TestDAGTxsIndexed(t *testing.T) {
	require := require.New(t)
	ch := newDAGChain(t)
	s := indexDAGChain(t, ch, t.TempDir(), false)
	view := readDAGView(t, ch, s)
	genesisTx := ch.genesis.Txs[0].ID
	a, b, c, d := ch.a.ID(), ch.b.ID(), ch.c.ID(), ch.d.ID()

	require.Equal([]ids.ID{genesisTx, a, b, c, d}, txIDsOf(view.txs["all"]))
	require.Equal([]ids.ID{d, c, b, a, genesisTx}, txIDsOf(view.txs["all desc"]))
	require.Equal([]ids.ID{genesisTx, a, b, d}, txIDsOf(view.txs["ewoq"]))
	require.Equal([]ids.ID{a, c}, txIDsOf(view.txs["bob"]))
	require.Equal([]ids.ID{c, d}, txIDsOf(view.txs["carol"]))
	require.Equal([]ids.ID{d, c, a}, txIDsOf(view.txs["bob desc"]))
	require.Equal([]ids.ID{a, c}, txIDsOf(view.txs["dag times"]), "a time range reaches the DAG txs of its times")

	all := view.txs["all"]
	txA, txB, txC := all[1], all[2], all[3]
	v0, v1 := ch.vertices[0], ch.vertices[1]
	require.Equal(TypeBaseTx, txA.Tx.Type)
	require.Equal(v0.ID(), txA.BlockID)
	require.Equal(vertexTime(0), txA.BlockTime)
	require.Equal([]pdata.TxVertex{
		{ID: v0.ID(), DAGHeight: 0, Timestamp: vertexTime(0)},
		{ID: v1.ID(), DAGHeight: 1, Timestamp: vertexTime(1)},
	}, txA.Vertices, "a is in both vertices")
	require.Equal(TypeCreateAssetTx, txB.Tx.Type)
	require.Equal([]pdata.TxVertex{{ID: v1.ID(), DAGHeight: 1, Timestamp: vertexTime(1)}}, txB.Vertices)
	require.Nil(txC.Vertices)
	require.Equal(pdata.TxPos{Height: 1}, txC.Pos)
	require.Equal(ch.blocks[0].ID(), txC.BlockID)

	// What a paid bob, c spends: created in vertex 0, consumed in block 1.
	require.Len(txC.Consumed, 1)
	paid := txC.Consumed[0]
	require.Equal(a, paid.CreatingTx)
	require.Equal(vertexTime(0), paid.CreatedTime)
	require.Equal(c, paid.ConsumingTx)
	require.Equal(blockTime(1), paid.ConsumingTime)
	require.Equal(7*units.Avax, paid.Amount)
	for _, u := range txA.Produced {
		if u.Owners.Addrs[0] == bob.Address() {
			require.Equal(c, u.ConsumingTx, "a's output to bob is consumed by c")
		}
	}
	require.Equal(pdata.Asset{ID: b, Name: "Coin", Symbol: "COIN", Denomination: 2, Type: AssetSECP}, view.assets[b])

	avaxOf := func(amount uint64, n int) pdata.BalanceEntry {
		return pdata.BalanceEntry{Category: pdata.UnlockedUnstaked, Asset: ch.avax, Amount: amount, UTXOs: n}
	}
	coin := pdata.BalanceEntry{Category: pdata.UnlockedUnstaked, Asset: b, Amount: 400, UTXOs: 1}
	bobChange := 7*units.Avax - 5*units.Avax - units.MilliAvax
	require.Empty(view.balances[vertexTime(0)-1], "before the DAG")
	require.Equal([]pdata.BalanceEntry{avaxOf(7*units.Avax, 1)}, view.balances[vertexTime(0)])
	require.Equal([]pdata.BalanceEntry{avaxOf(7*units.Avax, 1)}, view.balances[vertexTime(2)], "at linearization")
	require.Equal([]pdata.BalanceEntry{avaxOf(bobChange+5*units.Avax, 2)}, view.balances[blockTime(1)])
	require.ElementsMatch([]pdata.BalanceEntry{avaxOf(bobChange+5*units.Avax, 2), coin}, view.balances[blockTime(2)])

	// The vertex endpoints' data is unchanged.
	latest, err := s.LatestVertices(t.Context(), nil, 0)
	require.NoError(err)
	require.Len(latest, 3)
	require.ElementsMatch([]ids.ID{a, b}, latest[1].TxIDs)
	require.Empty(latest[0].TxIDs, "the stop vertex")
}

// Whichever X follower runs first, and across restarts while the node is
// still accepting (bootstrapping) the DAG, the index serves the same.
func TestDAGTxsFollowerOrderAndResume(t *testing.T) {
	ch := newDAGChain(t)
	want := readDAGView(t, ch, indexDAGChain(t, ch, t.TempDir(), false))
	require.Equal(t, want, readDAGView(t, ch, indexDAGChain(t, ch, t.TempDir(), true)), "linear follower first")

	// The node shows one vertex, then every vertex and one block, then
	// everything; the store is closed and reopened between runs.
	node := newFakeNode(t)
	ch.serve(node, len(ch.vertices), len(ch.blocks))
	dir := t.TempDir()
	for _, step := range []struct{ vertices, blocks int }{{1, 0}, {3, 1}, {3, 2}} {
		node.vertices.show(step.vertices)
		node.blocks.show(step.blocks)
		s := openDAGStore(t, ch, dir)
		blocks, vertices := xFollowers(t, node, s)
		follow(t, []follower.Runner{blocks, vertices}, []uint64{uint64(step.blocks), uint64(step.vertices)})
		require.NoError(t, s.Close())
	}
	s := openDAGStore(t, ch, dir)
	defer s.Close()
	require.Equal(t, want, readDAGView(t, ch, s), "resumed")
}

// A vertex holding a tx that does not decode stops the vertex follower
// there, loudly: the error is in its status, and the vertices before it
// stay indexed.
func TestDAGTxUndecodable(t *testing.T) {
	ch := newDAGChain(t)
	bad, err := vertex.Build(ch.chainID, 1, []ids.ID{ch.vertices[0].ID()}, [][]byte{{0, 0, 9, 9, 9}})
	require.NoError(t, err)
	node := newFakeNode(t)
	ch.serve(node, 1, 0)
	s := openDAGStore(t, ch, t.TempDir())
	defer s.Close()
	_, vertices := xFollowers(t, node, s)
	follow(t, []follower.Runner{vertices}, []uint64{1})
	node.vertices.add(bad.ID(), bad.Bytes(), vertexTime(1))

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = vertices.Run(ctx)
	}()
	require.Eventually(t, func() bool { return vertices.Status().LastError != "" }, 20*time.Second, 5*time.Millisecond)
	cancel()
	<-done
	st := vertices.Status()
	require.Contains(t, st.LastError, "vertex "+bad.ID().String()+" tx 0")
	require.Equal(t, uint64(1), st.IndexedHeight)
	require.Equal(t, uint64(2), st.NodeHeight, "the follower knows it is behind")
	c, err := s.VertexWriter().Cursor(t.Context())
	require.NoError(t, err)
	require.Equal(t, uint64(2), c.NextHeight)
}
