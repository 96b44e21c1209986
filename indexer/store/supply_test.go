package store

import (
	"bytes"
	"math/rand"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm/state"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/stretchr/testify/require"
)

// The pending rows sort as platformvm promotes pending stakers
// (state.Staker.Less): each promotion's reward depends on the supply the
// ones before it left, so the order decides the amounts.
func TestPendingKeyOrderIsPlatformVMs(t *testing.T) {
	rng := rand.New(rand.NewSource(1)) //nolint:gosec // a test's shuffle
	priorities := []txs.Priority{
		txs.PrimaryNetworkDelegatorApricotPendingPriority,
		txs.PrimaryNetworkValidatorPendingPriority,
		txs.PrimaryNetworkDelegatorBanffPendingPriority,
	}
	stakers := make([]*state.Staker, 200)
	for i := range stakers {
		var id ids.ID
		rng.Read(id[:])
		stakers[i] = &state.Staker{
			TxID:     id,
			NextTime: time.Unix(1_700_000_000+int64(rng.Intn(3)), 0),
			Priority: priorities[rng.Intn(len(priorities))],
		}
	}
	key := func(s *state.Staker) []byte { return pendingKey(s.NextTime.Unix(), uint8(s.Priority), s.TxID) }
	for _, a := range stakers {
		for _, b := range stakers {
			require.Equal(t, a.Less(b), bytes.Compare(key(a), key(b)) < 0, "%s vs %s", a.TxID, b.TxID)
		}
	}
}
