package primary

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/pchain"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/tests/e2e/dataapi"
)

// The values the P-chain's bytes do not hold, derived by the P writer:
// each staker's potential reward (estimatedReward) and the primary
// network's current supply, against the node.

// TestPrimaryStakingEstimatedReward: listLatestPrimaryNetworkTransactions
// (after the stakers ended) and listActivePrimaryNetworkStakingTransactions
// (captured while they were active) show, as estimatedReward, the
// potentialReward getCurrentValidators gave for each staker while it was
// active. Each is computed from the supply before it, so four exact rewards
// in a row also check the supply the index carries from genesis.
func TestPrimaryStakingEstimatedReward(t *testing.T) {
	s, ctx := stakingFixture(t)
	for _, st := range s.stakers() {
		got := listPrimaryTxs(t, ctx, "P", url.Values{"addresses": {s.pAddrOf(t, st.staker)}, "pageSize": {"100"}})
		var found bool
		for _, tx := range got {
			if tx.TxHash == st.id.String() {
				found = true
				require.Equal(t, strconv.FormatUint(st.potentialReward, 10), tx.EstimatedReward,
					"%s: estimatedReward of %s (node: potentialReward %d)", st.label, st.id, st.potentialReward)
			}
		}
		require.True(t, found, "%s: staking tx %s not listed", st.label, st.id)
		require.NotZero(t, st.potentialReward, "%s: a zero reward would prove little", st.label)
	}
	for label, st := range map[string]*stakerTx{"staking S": s.validator, "staking D1": s.d1} {
		var page dataapi.TxPage
		s.activeReplies[label].Decode(t, &page)
		require.Len(t, page.Transactions, 1, label)
		require.Equal(t, strconv.FormatUint(st.potentialReward, 10), page.Transactions[0].EstimatedReward, "%s while active", label)
	}
}

// TestPrimaryStakingCurrentSupply: platform.getCurrentSupply at the tip
// equals the supply the P writer derives at that height, and the potential
// rewards it stores equal the node's, once the staking scenario has added
// four stakers and rewarded them.
//
// The blocks that carry currentSupply over HTTP are those a node signed
// (listPrimaryNetworkBlocksByNodeId), and this network signs none (sybil
// protection off), so the test catches the node's P-chain up into a store of
// its own with the plugin's own source and writer (pchain.Source,
// store.PrimaryWriter) and the same network facts (indexer.PrimaryNetwork).
// The plugin itself is checked through estimatedReward
// (TestPrimaryStakingEstimatedReward).
func TestPrimaryStakingCurrentSupply(t *testing.T) {
	s, ctx := stakingFixture(t)
	platform := platformvm.NewClient(env.URI(t))
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	st.SetPrimaryNetwork(primaryNetworkOfLocal(t))
	src, err := pchain.NewSource(nodeapi.New(env.URI(t)), upgradesOfLocal())
	require.NoError(t, err)
	reader := st.PrimaryReader(func(_ netinfo.Chain, b []byte) (*pdata.Tx, error) { return pchain.DecodeTx(b) })

	// The node answers supply and height under one lock; a proposal block
	// at the tip whose option is not accepted yet is asked again.
	var supply, height uint64
	for attempt := 0; ; attempt++ {
		supply, height, err = platform.GetCurrentSupply(ctx, constants.PrimaryNetworkID)
		require.NoError(t, err, "platform.getCurrentSupply")
		catchUpP(t, ctx, src, st, height)
		b, ok, err := reader.Block(ctx, netinfo.P, height)
		require.NoError(t, err)
		require.True(t, ok, "block %d", height)
		if b.Type != "BanffProposalBlock" || attempt > 10 {
			require.NotNil(t, b.CurrentSupply, "block %d (%s): no supply derived", height, b.Type)
			require.Equal(t, supply, *b.CurrentSupply, "currentSupply at P block %d (%s)", height, b.Type)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("supply %d at P height %d: equal", supply, height)

	for _, delegators := range []bool{false, true} {
		var want []ids.ID
		for _, sk := range s.stakers() {
			if (sk.label != "validator") == delegators {
				want = append(want, sk.id)
			}
		}
		got, err := reader.Stakers(ctx, pdata.StakerQuery{Delegators: delegators, TxIDs: want})
		require.NoError(t, err)
		require.Len(t, got, len(want))
		for _, g := range got {
			for _, sk := range s.stakers() {
				if sk.id == g.TxID {
					require.NotNil(t, g.PotentialReward, sk.label)
					require.Equal(t, sk.potentialReward, *g.PotentialReward, "%s: potential reward", sk.label)
				}
			}
		}
	}
}

// catchUpP writes the node's P-chain blocks up to height into st, as the P
// follower does (Fetch decides a proposal block with its option, so it may
// return fewer blocks than asked).
func catchUpP(t *testing.T, ctx context.Context, src *pchain.Source, st *store.Store, height uint64) {
	t.Helper()
	w := st.PrimaryWriter(netinfo.P)
	for {
		c, err := w.Cursor(ctx)
		require.NoError(t, err)
		if c.NextHeight > height {
			return
		}
		blocks, err := src.Fetch(ctx, c.NextHeight, int(height-c.NextHeight+1))
		require.NoError(t, err)
		if len(blocks) == 0 {
			time.Sleep(50 * time.Millisecond) // the option of a proposal at the tip
			continue
		}
		require.NoError(t, w.Apply(ctx, blocks, time.Now()))
	}
}
