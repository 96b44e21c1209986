//go:build e2e

package webhooks

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/truth"
)

// primaryBalances are one address's balances on one chain as the node
// reports them, by asset and balance type (the CommonBalanceType names the
// chain's Data API balances use): its own UTXOs (getUTXOs) and what the
// chain's atomic memory holds for it from each other chain (getUTXOs with
// sourceChain).
type primaryBalances map[ids.ID]map[string]uint64

// primaryBalancesOf reads addr's balances on chain at time at from the
// node. P: unlockedUnstaked, lockedPlatform, lockedStakeable, and the
// stake (getStake's staked outputs): unlockedStaked, or lockedStaked while
// still stake-locked (the tests' locks outlast their stakes); X: unlocked,
// locked; all three: the atomic memory.
func primaryBalancesOf(t *testing.T, ctx context.Context, uri, chain, addr string, at int64) primaryBalances {
	t.Helper()
	out := primaryBalances{}
	add := func(u truth.UTXO, typ string) {
		if out[u.Asset] == nil {
			out[u.Asset] = map[string]uint64{}
		}
		out[u.Asset][typ] += u.Amount
	}
	if chain != "C" {
		for _, u := range truth.UTXOs(t, ctx, uri, chain, "", addr) {
			locked := u.Locktime > uint64(at)
			switch {
			case chain == "X" && locked:
				add(u, "locked")
			case chain == "X":
				add(u, "unlocked")
			case locked:
				add(u, "lockedPlatform")
			case u.StakeLocktime > uint64(at):
				add(u, "lockedStakeable")
			default:
				add(u, "unlockedUnstaked")
			}
		}
	}
	if chain == "P" {
		for _, u := range stakedOutputs(t, ctx, uri, addr) {
			if u.StakeLocktime > uint64(at) {
				add(u, "lockedStaked")
			} else {
				add(u, "unlockedStaked")
			}
		}
	}
	for _, src := range []string{"P", "X", "C"} {
		if src == chain {
			continue
		}
		for _, u := range truth.AtomicUTXOs(t, ctx, uri, chain, src, addr) {
			if u.Locktime > uint64(at) {
				add(u, "atomicMemoryLocked")
			} else {
				add(u, "atomicMemoryUnlocked")
			}
		}
	}
	return out
}

// stakedOutputs are the outputs platform.getStake says addr stakes now.
func stakedOutputs(t *testing.T, ctx context.Context, uri, addr string) []truth.UTXO {
	t.Helper()
	var reply struct {
		StakedOutputs []string `json:"stakedOutputs"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getStake",
		map[string]any{"addresses": []string{addr}, "encoding": "hex"}, &reply))
	var out []truth.UTXO
	for _, s := range reply.StakedOutputs {
		b, err := formatting.Decode(formatting.Hex, s)
		require.NoError(t, err)
		var o avax.TransferableOutput
		_, err = txs.Codec.Unmarshal(b, &o)
		require.NoError(t, err, "platform.getStake output %s", s)
		out = append(out, truth.DecodeUTXO(t, &avax.UTXO{Asset: o.Asset, Out: o.Out}))
	}
	return out
}

// of is the amount of asset in balance type typ.
func (b primaryBalances) of(asset ids.ID, typ string) *big.Int {
	return new(big.Int).SetUint64(b[asset][typ])
}

// primaryChange is what an event says of one asset, written as the tests
// compare it: "asset net (type=amount ...)", types in name order.
func primaryChange(asset string, net *big.Int, types map[string]*big.Int) string {
	var names []string
	for n, v := range types {
		if v.Sign() != 0 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + "=" + types[n].String()
	}
	return fmt.Sprintf("%s %s (%s)", asset, net, strings.Join(parts, " "))
}

// expectedChanges is the balance_change the node's balances before and
// after a tx call for: every asset whose balance of some type moved, by
// asset ID.
func expectedChanges(before, after primaryBalances) []string {
	assets := map[ids.ID]bool{}
	for a := range before {
		assets[a] = true
	}
	for a := range after {
		assets[a] = true
	}
	var ordered []ids.ID
	for a := range assets {
		ordered = append(ordered, a)
	}
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].Compare(ordered[j]) < 0 })
	var out []string
	for _, a := range ordered {
		typeNames := map[string]bool{}
		for n := range before[a] {
			typeNames[n] = true
		}
		for n := range after[a] {
			typeNames[n] = true
		}
		net, types := new(big.Int), map[string]*big.Int{}
		for n := range typeNames {
			d := new(big.Int).Sub(after.of(a, n), before.of(a, n))
			types[n] = d
			net.Add(net, d)
		}
		if s := primaryChange(a.String(), net, types); !strings.HasSuffix(s, "()") {
			out = append(out, s)
		}
	}
	return out
}
