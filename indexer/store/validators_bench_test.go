package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/pdata"
)

// listValidators reads every validator row of the index (Bare: without the
// delegations each would derive), filters and sorts them in memory, then
// reads the page's validators again with their delegations. These
// benchmarks time both reads over 2,000 validators of 2,000 nodes, each with
// three delegators, 500 of the validators completed.

const (
	benchValidators = 2_000
	benchPageSize   = 10
)

func openValidatorBench(b *testing.B) (*PrimaryReader, []ids.ID) {
	b.Helper()
	node := func(n int) ids.NodeID { return ids.NodeID{byte(n), byte(n >> 8), 0xBE} }
	staker := func(id ids.ID, typ string, st pdata.Staker) *pdata.Tx {
		tx := &pdata.Tx{ID: id, Type: typ, Bytes: make([]byte, 300)}
		s := stake(out(id, 0, st.Weight, addrA), st.Start, st.End)
		tx.Produced, st.Stake, st.RewardsOwner = []pdata.UTXO{s}, []ids.ID{s.ID}, owners(addrA)
		tx.Staker = &st
		return tx
	}
	var blocks []*pdata.Block
	var validatorIDs []ids.ID
	for n := range benchValidators {
		h := n + 1
		start := int64(genesisTime + h)
		end := int64(1 << 40)
		if n%4 == 0 {
			end = start + 10 // completed by now: no reward tx, but over (status is the caller's filter)
		}
		v := staker(benchID('v', n), "AddPermissionlessValidatorTx",
			pdata.Staker{NodeID: node(n), Start: start, End: end, Weight: 2000 + uint64(n), DelegationShares: 20000 + uint32(n)})
		validatorIDs = append(validatorIDs, v.ID)
		txs := []*pdata.Tx{v}
		for d := range 3 {
			txs = append(txs, staker(benchID('d', 3*n+d), "AddPermissionlessDelegatorTx",
				pdata.Staker{Delegator: true, NodeID: node(n), Start: start + 1, End: start + 5, Weight: 25}))
		}
		blocks = append(blocks, listingBlock(h, txs...))
	}
	return openListingBench(b, blocks), validatorIDs
}

// BenchmarkValidatorsAllBare reads every validator row, as listValidators
// does for each page before filtering.
func BenchmarkValidatorsAllBare(b *testing.B) {
	r, _ := openValidatorBench(b)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		vals, err := r.Stakers(ctx, pdata.StakerQuery{Bare: true})
		if err != nil || len(vals) != benchValidators {
			b.Fatalf("%d validators, %v", len(vals), err)
		}
	}
}

// BenchmarkValidatorsAllFilled is what reading every validator with its
// delegations would cost (what Bare spares).
func BenchmarkValidatorsAllFilled(b *testing.B) {
	r, _ := openValidatorBench(b)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		vals, err := r.Stakers(ctx, pdata.StakerQuery{})
		if err != nil || len(vals) != benchValidators {
			b.Fatalf("%d validators, %v", len(vals), err)
		}
	}
}

// BenchmarkValidatorsPageFill reads one page of validators by staking tx,
// with their delegations.
func BenchmarkValidatorsPageFill(b *testing.B) {
	r, ids := openValidatorBench(b)
	ctx := context.Background()
	page := ids[1000 : 1000+benchPageSize]
	b.ResetTimer()
	for range b.N {
		vals, err := r.Stakers(ctx, pdata.StakerQuery{TxIDs: page, Limit: len(page)})
		require.NoError(b, err)
		if len(vals) != benchPageSize || vals[0].DelegatorCount != 3 {
			b.Fatalf("%d validators", len(vals))
		}
	}
}
