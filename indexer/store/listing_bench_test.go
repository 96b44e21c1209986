package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// The listings that merge several key ranges into one page: P-chain txs of
// several addresses, and stakers of several nodes. Both read pages of 50
// from four of sixteen ranges, in each direction.

const (
	listingRanges  = 16
	listingEntries = 4_000
	listingPage    = 50
)

// benchPages reads first pages each way; page returns how many entries
// one held, which must be a full page.
func benchPages(b *testing.B, page func(desc bool) (int, error)) {
	for _, dir := range []struct {
		name string
		desc bool
	}{{"asc", false}, {"desc", true}} {
		b.Run(dir.name, func(b *testing.B) {
			for range b.N {
				if n, err := page(dir.desc); err != nil || n != listingPage {
					b.Fatalf("page: %d entries, %v", n, err)
				}
			}
		})
	}
}

// listingBlock is block h of a listing benchmark, at time genesisTime+h.
func listingBlock(h int, txs ...*pdata.Tx) *pdata.Block {
	return &pdata.Block{Number: uint64(h), ID: benchID('b', h), Timestamp: int64(genesisTime + h),
		Type: "BanffStandardBlock", Txs: txs}
}

func openListingBench(b *testing.B, blocks []*pdata.Block) *PrimaryReader {
	s, err := Open(b.TempDir(), logging.NoLog{})
	require.NoError(b, err)
	b.Cleanup(func() { _ = s.Close() })
	s.SetPrimaryNetwork(testNetwork(nil))
	writeP(b, s, blocks)
	return s.PrimaryReader(nil)
}

// BenchmarkTxsOfAddresses lists the txs of four addresses over 4,000
// BaseTxs, each paying two of sixteen addresses.
func BenchmarkTxsOfAddresses(b *testing.B) {
	addr := func(n int) ids.ShortID { return ids.ShortID{byte(n % listingRanges), 0xAD} }
	var blocks []*pdata.Block
	for h := 1; h <= listingEntries; h++ {
		tx := &pdata.Tx{ID: benchID('t', h), Type: "BaseTx", Bytes: make([]byte, 300)}
		tx.Produced = []pdata.UTXO{out(tx.ID, 0, 1, addr(h)), out(tx.ID, 1, 1, addr(h*7))}
		blocks = append(blocks, listingBlock(h, tx))
	}
	r := openListingBench(b, blocks)
	addrs := []ids.ShortID{addr(1), addr(2), addr(3), addr(4)}
	ctx := context.Background()
	benchPages(b, func(desc bool) (int, error) {
		page, err := r.Txs(ctx, netinfo.P, pdata.TxQuery{Addresses: addrs, Desc: desc, Limit: listingPage})
		return len(page), err
	})
}

// BenchmarkStakersOfNodes lists the delegators of four nodes over 4,000
// delegators of sixteen validators.
func BenchmarkStakersOfNodes(b *testing.B) {
	node := func(n int) ids.NodeID { return ids.NodeID{byte(n % listingRanges), 0xD0} }
	staker := func(id ids.ID, typ string, st pdata.Staker) *pdata.Tx {
		tx := &pdata.Tx{ID: id, Type: typ, Bytes: make([]byte, 300)}
		s := stake(out(id, 0, st.Weight, addrA), st.Start, st.End)
		tx.Produced, st.Stake, st.RewardsOwner = []pdata.UTXO{s}, []ids.ID{s.ID}, owners(addrA)
		tx.Staker = &st
		return tx
	}
	var validators []*pdata.Tx
	for n := range listingRanges {
		validators = append(validators, staker(benchID('v', n), "AddValidatorTx",
			pdata.Staker{NodeID: node(n), Start: genesisTime, End: 1 << 40, Weight: 2000, DelegationShares: 20000}))
	}
	blocks := []*pdata.Block{listingBlock(1, validators...)}
	for h := 2; h <= listingEntries+1; h++ {
		d := staker(benchID('d', h), "AddDelegatorTx",
			pdata.Staker{Delegator: true, NodeID: node(h), Start: int64(genesisTime + h), End: 1 << 39, Weight: 25})
		blocks = append(blocks, listingBlock(h, d))
	}
	r := openListingBench(b, blocks)
	nodes := []ids.NodeID{node(1), node(2), node(3), node(4)}
	ctx := context.Background()
	benchPages(b, func(desc bool) (int, error) {
		page, err := r.Stakers(ctx, pdata.StakerQuery{Delegators: true, NodeIDs: nodes, Desc: desc, Limit: listingPage})
		return len(page), err
	})
}
