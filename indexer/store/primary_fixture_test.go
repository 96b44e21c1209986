package store

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/txsig"
)

// A small primary network: genesis UTXOs on P and an asset on X, a transfer,
// a validator with two stake UTXOs, its reward, and exports between X, P and
// C with their imports.
var (
	xChainID = ids.ID{'X'}
	cChainID = ids.ID{'C'}
	avax     = ids.ID{'a'}
	addrA    = ids.ShortID{0xA}
	addrB    = ids.ShortID{0xB}
	addrD    = ids.ShortID{0xD}
	evmE     = [20]byte{0xE}
	node1    = ids.NodeID{1}
)

const genesisTime = 1000

func testNetwork(genesis map[netinfo.Chain]*pdata.Block) PrimaryNetwork {
	byID := map[ids.ID]netinfo.Chain{ids.Empty: netinfo.P, xChainID: netinfo.X, cChainID: netinfo.C}
	return PrimaryNetwork{
		ChainOf: func(id ids.ID) (netinfo.Chain, bool) { c, ok := byID[id]; return c, ok },
		IDOf: func(c netinfo.Chain) ids.ID {
			for id, chain := range byID {
				if chain == c {
					return id
				}
			}
			return ids.Empty
		},
		Genesis:     genesis,
		GenesisTime: genesisTime,
	}
}

// out is UTXO index of tx owned by owners.
func out(tx ids.ID, index uint32, amount uint64, owners ...ids.ShortID) pdata.UTXO {
	return pdata.UTXO{ID: tx.Prefix(uint64(index)), TxID: tx, OutputIndex: index, Asset: avax, Amount: amount,
		Owners: pdata.Owners{Threshold: 1, Addrs: owners}, Bytes: []byte{byte(index), 0xB7},
		OutputType: "secp256k1fx.TransferOutput"}
}

func exported(u pdata.UTXO, dest ids.ID) pdata.UTXO {
	u.Exported, u.DestinationChain = true, dest
	return u
}

func stake(u pdata.UTXO, start, end int64) pdata.UTXO {
	u.Kind, u.StakeStart, u.StakeEnd = pdata.KindStake, start, end
	return u
}

func spend(u pdata.UTXO) pdata.Input {
	return pdata.Input{UTXOID: u.ID, TxID: u.TxID, OutputIndex: u.OutputIndex, Asset: u.Asset, Amount: u.Amount,
		Signers: txsig.Known(u.Owners.Addrs...)}
}

// fixture holds the txs of the scenario and decodes their bytes (the bytes
// are the tx ID) back into copies of them.
type fixture struct {
	fakeTxs

	gP, gX                 *pdata.Block
	t1, t2, t3, t4, t5     *pdata.Tx
	asset, e1, c1, c2      *pdata.Tx
	g1, g2, g3             pdata.UTXO
	p1, p2, p3, p4, p5, p6 pdata.UTXO
	s1, s2, r1             pdata.UTXO
	x1, xo1, xo2, ex1, ex2 pdata.UTXO
	cx1, unknown           pdata.UTXO
}

// fakeTxs holds a scenario's txs under IDs made of a tag byte and their
// name, and decodes their bytes (the ID) back to a copy.
type fakeTxs struct {
	tag byte
	txs map[ids.ID]*pdata.Tx
}

func newFakeTxs(tag byte) fakeTxs { return fakeTxs{tag: tag, txs: map[ids.ID]*pdata.Tx{}} }

func (f fakeTxs) tx(name, typ string, consumed []pdata.Input, produced ...pdata.UTXO) *pdata.Tx {
	id := ids.ID{f.tag, name[0], name[len(name)-1]}
	tx := &pdata.Tx{ID: id, Type: typ, Bytes: id[:], Consumed: consumed, Produced: produced}
	f.txs[id] = tx
	return tx
}

func (f fakeTxs) decode(_ netinfo.Chain, b []byte) (*pdata.Tx, error) {
	id, err := ids.ToID(b)
	if err != nil {
		return nil, err
	}
	tx, ok := f.txs[id]
	if !ok {
		return nil, fmt.Errorf("unknown tx %s", id)
	}
	cp := *tx
	cp.Produced = append([]pdata.UTXO(nil), tx.Produced...)
	return &cp, nil
}

func newFixture() *fixture {
	f := &fixture{fakeTxs: newFakeTxs('t')}
	// P genesis: a pseudo tx with ID ids.Empty holds the allocations.
	f.g1 = out(ids.Empty, 0, 1000, addrA)
	f.g2 = out(ids.Empty, 1, 500, addrA)
	f.g2.StakeableLocktime = 6000
	f.g3 = out(ids.Empty, 2, 300, addrB)
	f.g3.Owners.Locktime = 4000
	f.gP = &pdata.Block{Number: 0, ID: ids.ID{'g', 'P'}, Type: "genesis",
		Txs: []*pdata.Tx{{ID: ids.Empty, Produced: []pdata.UTXO{f.g1, f.g2, f.g3}}}}

	// X genesis: the asset.
	f.asset = f.tx("asset", "CreateAssetTx", nil)
	f.x1 = out(f.asset.ID, 0, 2000, addrA)
	f.asset.Produced = []pdata.UTXO{f.x1}
	f.asset.Asset = &pdata.Asset{ID: avax, Name: "Avalanche", Symbol: "AVAX", Denomination: 9, Type: "secp256k1"}
	f.gX = &pdata.Block{Number: 0, ID: ids.ID{'g', 'X'}, Timestamp: 900, Type: "genesis", Txs: []*pdata.Tx{f.asset}}

	f.t1 = f.tx("t1", "BaseTx", []pdata.Input{spend(f.g1)})
	f.p1, f.p2 = out(f.t1.ID, 0, 400, addrB), out(f.t1.ID, 1, 599, addrA)
	f.t1.Produced = []pdata.UTXO{f.p1, f.p2}

	f.t2 = f.tx("t2", "AddValidatorTx", []pdata.Input{spend(f.p2)})
	f.p3 = out(f.t2.ID, 0, 99, addrA)
	f.s1 = stake(out(f.t2.ID, 1, 400, addrA), 3000, 9000)
	f.s2 = stake(out(f.t2.ID, 2, 100, addrA), 3000, 9000)
	f.s2.StakeableLocktime = 20000
	f.t2.Produced = []pdata.UTXO{f.p3, f.s1, f.s2}
	f.t2.Staker = &pdata.Staker{NodeID: node1, Start: 3000, End: 9000, Weight: 500,
		RewardsOwner: &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{addrA}}, Stake: []ids.ID{f.s1.ID, f.s2.ID}}

	f.e1 = f.tx("e1", "ExportTx", []pdata.Input{spend(f.x1)})
	f.xo1, f.xo2 = out(f.e1.ID, 0, 1400, addrA), out(f.e1.ID, 1, 50, addrA)
	f.xo2.Owners.Locktime = 99999
	f.ex1 = exported(out(f.e1.ID, 2, 499, addrA), ids.Empty)
	f.ex2 = exported(out(f.e1.ID, 3, 40, addrA), cChainID)
	f.e1.Produced = []pdata.UTXO{f.xo1, f.xo2, f.ex1, f.ex2}
	f.e1.DestinationChain = ids.Empty

	f.unknown = out(ids.ID{'u'}, 0, 7, addrA)
	f.t3 = f.tx("t3", "ImportTx", []pdata.Input{spend(f.ex1), spend(f.unknown)})
	f.t3.SourceChain = xChainID
	f.p4 = out(f.t3.ID, 0, 505, addrA)
	f.t3.Produced = []pdata.UTXO{f.p4}

	f.t4 = f.tx("t4", "RewardValidatorTx", nil)
	f.r1 = out(f.t2.ID, 3, 10, addrA)
	f.r1.Kind, f.r1.RewardType = pdata.KindReward, pdata.RewardValidator
	f.t4.Outcome, f.t4.Produced, f.t4.Unstaked, f.t4.RewardOf = pdata.OutcomeCommit, []pdata.UTXO{f.r1}, []ids.ID{f.s1.ID, f.s2.ID}, f.t2.ID

	f.t5 = f.tx("t5", "BaseTx", []pdata.Input{spend(f.p1)})
	f.p5, f.p6 = out(f.t5.ID, 0, 399, addrD), out(f.t5.ID, 1, 1, addrA, addrB)
	f.t5.Produced = []pdata.UTXO{f.p5, f.p6}

	f.c1 = f.tx("c1", "ExportTx", nil)
	f.cx1 = exported(out(f.c1.ID, 0, 60, addrA), ids.Empty)
	f.cx1.Owners.Locktime = 50000
	f.c1.Produced = []pdata.UTXO{f.cx1}
	f.c1.EVMInputs = []pdata.EVMAmount{{Address: evmE, Asset: avax, Amount: 60}}

	f.c2 = f.tx("c2", "ImportTx", []pdata.Input{spend(f.ex2)})
	f.c2.SourceChain = xChainID
	f.c2.EVMOutputs = []pdata.EVMAmount{{Address: evmE, Asset: avax, Amount: 39}}
	return f
}

// pBlocks are P blocks 1-2 (Apricot: no time; block 2 advances the chain
// time to 2000) and 3-5.
func (f *fixture) pBlocks() (first, second []*pdata.Block) {
	first = []*pdata.Block{
		{Number: 1, ID: ids.ID{'P', 1}, Type: "ApricotStandardBlock", Size: 300, Txs: []*pdata.Tx{f.t1}},
		{Number: 2, ID: ids.ID{'P', 2}, ParentID: ids.ID{'P', 1}, Type: "ApricotProposalBlock", NextChainTime: 2000,
			Txs: []*pdata.Tx{f.t2}},
	}
	second = []*pdata.Block{
		{Number: 3, ID: ids.ID{'P', 3}, Type: "ApricotStandardBlock", Txs: []*pdata.Tx{f.t3},
			Proposer: &pdata.Proposer{ID: ids.ID{'P', 3}, PChainHeight: 2}}, // any node could build it
		{Number: 4, ID: ids.ID{'P', 4}, Timestamp: 10000, Type: "BanffProposalBlock", Txs: []*pdata.Tx{f.t4},
			Proposer: &pdata.Proposer{ID: ids.ID{'P', 4}, NodeID: node1, PChainHeight: 3, Timestamp: 10000}},
		{Number: 5, ID: ids.ID{'P', 5}, ParentID: ids.ID{'P', 4}, Timestamp: 12000, Type: "BanffStandardBlock",
			Txs:      []*pdata.Tx{f.t5},
			Proposer: &pdata.Proposer{ID: ids.ID{'o', 5}, ParentID: ids.ID{'o', 4}, NodeID: node1, PChainHeight: 4, Timestamp: 12000}},
	}
	return first, second
}

func (f *fixture) xBlocks() []*pdata.Block {
	return []*pdata.Block{{Number: 1, ID: ids.ID{'X', 1}, Timestamp: 1500, Type: "StandardBlock", Txs: []*pdata.Tx{f.e1}}}
}

func (f *fixture) cBlocks() []*evmdata.Block {
	return []*evmdata.Block{
		{Number: 1, Hash: common.Hash{'c', 1}, Timestamp: 1200, Atomic: []*pdata.Tx{f.c1}},
		{Number: 2, Hash: common.Hash{'c', 2}, Timestamp: 2500, Atomic: []*pdata.Tx{f.c2}},
	}
}

// openFixture opens a store with the fixture's network; write orders the
// chains' writes.
func openFixture(t testing.TB, f *fixture) *Store {
	s, err := Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	s.SetPrimaryNetwork(testNetwork(map[netinfo.Chain]*pdata.Block{netinfo.P: f.gP, netinfo.X: f.gX}))
	return s
}

func writeP(t testing.TB, s *Store, blocks []*pdata.Block) {
	require.NoError(t, s.PrimaryWriter(netinfo.P).Apply(context.Background(), blocks, time.Now()))
}

func writeX(t testing.TB, s *Store, f *fixture) {
	require.NoError(t, s.PrimaryWriter(netinfo.X).Apply(context.Background(), f.xBlocks(), time.Now()))
}

func writeC(t testing.TB, s *Store, f *fixture) {
	require.NoError(t, s.EVMWriter(netinfo.C).Apply(context.Background(), f.cBlocks(), time.Now()))
}
