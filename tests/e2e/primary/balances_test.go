package primary

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// getBalancesByAddresses (GET .../blockchains/{blockchainId}/balances) for A,
// now and at every time the scenario recorded, against what the node said
// then: platform.getBalance, avm.getAllBalances, and getUTXOs (with
// sourceChain for atomic memory), to the last unit and UTXO count.

// bucketKey is one line of a balance category: the asset, and for atomic
// memory the chain it is shared with.
type bucketKey struct {
	asset      ids.ID
	sharedWith string
}

type bucketValue struct {
	amount uint64
	count  int
}

// balanceView is category → line → amount and UTXO count.
type balanceView map[string]map[bucketKey]bucketValue

func (v balanceView) add(category string, k bucketKey, amount uint64) {
	if v[category] == nil {
		v[category] = map[bucketKey]bucketValue{}
	}
	b := v[category][k]
	v[category][k] = bucketValue{amount: b.amount + amount, count: b.count + 1}
}

// categories are the arrays each chain's balances object must carry.
var balanceCategories = map[string][]string{
	"P": {"unlockedUnstaked", "unlockedStaked", "lockedPlatform", "lockedStakeable", "lockedStaked", "pendingStaked",
		"atomicMemoryUnlocked", "atomicMemoryLocked"},
	"X": {"locked", "unlocked", "atomicMemoryUnlocked", "atomicMemoryLocked"},
	"C": {"atomicMemoryUnlocked", "atomicMemoryLocked"},
}

// expectedBalances classifies the node's UTXOs of a snapshot at its time
// (no stake in this scenario), and checks the
// classification agrees with the node's own sums of that moment.
func expectedBalances(t *testing.T, s *primaryScenario, snap balanceSnapshot, chain string) balanceView {
	t.Helper()
	v := balanceView{}
	at := uint64(snap.time)
	switch chain {
	case "P":
		sums := map[string]map[ids.ID]uint64{}
		for _, u := range snap.utxos["P"] {
			category := "unlockedUnstaked"
			switch {
			case u.Locktime > at:
				category = "lockedPlatform"
			case u.StakeLocktime > at:
				category = "lockedStakeable"
			}
			v.add(category, bucketKey{asset: u.Asset}, u.Amount)
			if sums[category] == nil {
				sums[category] = map[ids.ID]uint64{}
			}
			sums[category][u.Asset] += u.Amount
		}
		require.Equal(t, snap.p.Unlocked, nonNil(sums["unlockedUnstaked"]), "%s: platform.getBalance unlockeds vs its UTXOs", snap.label)
		require.Equal(t, snap.p.LockedNotStakeable, nonNil(sums["lockedPlatform"]), "%s: platform.getBalance lockedNotStakeables", snap.label)
		require.Equal(t, snap.p.LockedStakeable, nonNil(sums["lockedStakeable"]), "%s: platform.getBalance lockedStakeables", snap.label)
	case "X":
		unlocked := map[ids.ID]uint64{}
		for _, u := range snap.utxos["X"] {
			if u.Locktime > at {
				v.add("locked", bucketKey{asset: u.Asset}, u.Amount)
				continue
			}
			v.add("unlocked", bucketKey{asset: u.Asset}, u.Amount)
			unlocked[u.Asset] += u.Amount
		}
		require.Equal(t, snap.x, unlocked, "%s: avm.getAllBalances vs avm.getUTXOs", snap.label)
	}
	for src, utxos := range snap.atomic[chain] {
		for _, u := range utxos {
			category := "atomicMemoryUnlocked"
			if u.Locktime > at {
				category = "atomicMemoryLocked"
			}
			v.add(category, bucketKey{asset: u.Asset, sharedWith: src.String()}, u.Amount)
		}
	}
	return v
}

func nonNil(m map[ids.ID]uint64) map[ids.ID]uint64 {
	if m == nil {
		return map[ids.ID]uint64{}
	}
	return m
}

// apiBalanceView reads avadata's balances of A on chain, at blockTimestamp
// when at > 0.
func apiBalanceView(t *testing.T, ctx context.Context, s *primaryScenario, chain string, at int64) balanceView {
	t.Helper()
	q := url.Values{"addresses": {s.addressFor(t, chain)}}
	if at > 0 {
		q.Set("blockTimestamp", strconv.FormatInt(at, 10))
	}
	var body dataapi.Balances
	harness.GetOK(t, ctx, primaryURL(t, chainAlias(chain), "balances", q), &body)
	require.Equal(t, dataapi.ChainInfo{ChainName: chainAlias(chain), Network: primaryNetwork}, body.ChainInfo, "%s balances chainInfo", chain)
	v := balanceView{}
	for _, category := range balanceCategories[chain] {
		items, ok := body.Balances[category]
		require.True(t, ok, "%s balances: no %q array in %v", chain, category, body.Balances)
		for _, a := range items {
			id, err := ids.FromString(a.AssetID)
			require.NoError(t, err, "%s %s: assetId", chain, category)
			n, err := strconv.ParseUint(a.Amount, 10, 64)
			require.NoError(t, err, "%s %s: amount %q", chain, category, a.Amount)
			require.NotNil(t, a.UTXOCount, "%s %s %s: utxoCount", chain, category, a.AssetID)
			k := bucketKey{asset: id}
			if category == "atomicMemoryUnlocked" || category == "atomicMemoryLocked" {
				require.NotEmpty(t, a.SharedWithChainID, "%s %s: sharedWithChainId", chain, category)
				k.sharedWith = a.SharedWithChainID
				// The spec: both atomic-memory arrays carry sharedWithChainId
				// and status, on every chain (the OpenAPI's X and C shapes
				// lack status; the P-chain's requires it).
				require.Equal(t, "pendingImport", a.Status, "%s %s: status", chain, category)
			}
			_, dup := v[category][k]
			require.False(t, dup, "%s %s: %+v listed twice", chain, category, k)
			if v[category] == nil {
				v[category] = map[bucketKey]bucketValue{}
			}
			v[category][k] = bucketValue{amount: n, count: *a.UTXOCount}
			checkAssetInfo(t, s, chain+" "+category, a)
		}
	}
	for category := range body.Balances {
		require.Contains(t, balanceCategories[chain], category, "%s balances: unexpected category", chain)
	}
	return v
}

// checkAssetInfo: AVAX and the scenario's asset carry their real
// name/symbol/denomination (CreateAssetTx's fields).
func checkAssetInfo(t *testing.T, s *primaryScenario, what string, a dataapi.AssetAmount) {
	t.Helper()
	switch a.AssetID {
	case s.avax.String():
		require.Equal(t, "AVAX", a.Symbol, "%s: AVAX symbol", what)
		require.Equal(t, 9, a.Denomination, "%s: AVAX denomination", what)
	case s.asset.String():
		require.Equal(t, s.assetName, a.Name, "%s: asset name", what)
		require.Equal(t, s.assetSymbol, a.Symbol, "%s: asset symbol", what)
		require.Equal(t, int(s.assetDenomination), a.Denomination, "%s: asset denomination", what)
	}
	require.Equal(t, "secp256k1", a.Type, "%s: asset type", what)
}

func requireSameBalances(t *testing.T, want, got balanceView, what string) {
	t.Helper()
	norm := func(v balanceView) balanceView {
		out := balanceView{}
		for c, m := range v {
			if len(m) > 0 {
				out[c] = m
			}
		}
		return out
	}
	require.Equal(t, norm(want), norm(got), "%s: balances (amount and UTXO count per asset)", what)
}

// TestPrimaryBalancesNow: A's balances now, against the node now.
func TestPrimaryBalancesNow(t *testing.T) {
	s, ctx := primaryFixture(t)
	// Nothing touches A after the scenario, so the node's answer now is A's
	// state now.
	now := nodeSnapshot(t, ctx, s, "now", time.Now().Unix())
	for _, chain := range []string{"P", "X", "C"} {
		t.Run(chain, func(t *testing.T) {
			requireSameBalances(t, expectedBalances(t, s, now, chain), apiBalanceView(t, ctx, s, chain, 0), chain+" now")
		})
	}
	// The scenario's ends are there: the locked P outputs, the asset on X,
	// and the unimported exports in P's and C's atomic memory.
	want := expectedBalances(t, s, now, "P")
	require.Equal(t, s.lockedPlatform, want["lockedPlatform"][bucketKey{asset: s.avax}].amount, "node: P lockedPlatform")
	require.Equal(t, s.lockedStk, want["lockedStakeable"][bucketKey{asset: s.avax}].amount, "node: P lockedStakeable")
	require.Equal(t, uint64(100_000_000), want["atomicMemoryUnlocked"][bucketKey{asset: s.avax, sharedWith: s.cChain.String()}].amount,
		"node: P atomic memory from C")
	c := expectedBalances(t, s, now, "C")
	require.Equal(t, uint64(300_000_000), c["atomicMemoryUnlocked"][bucketKey{asset: s.avax, sharedWith: s.xChain.String()}].amount,
		"node: C atomic memory from X")
}

// TestPrimaryBalancesInThePast: at each recorded time, the balances the
// node reported then.
func TestPrimaryBalancesInThePast(t *testing.T) {
	s, ctx := primaryFixture(t)
	for _, snap := range s.snapshots {
		t.Run(snap.label, func(t *testing.T) {
			for _, chain := range []string{"P", "X", "C"} {
				requireSameBalances(t, expectedBalances(t, s, snap, chain), apiBalanceView(t, ctx, s, chain, snap.time),
					chain+" at "+strconv.FormatInt(snap.time, 10)+" ("+snap.label+")")
			}
		})
	}
}

// nodeSnapshot reads A's balances from the node now.
func nodeSnapshot(t *testing.T, ctx context.Context, s *primaryScenario, label string, at int64) balanceSnapshot {
	t.Helper()
	// A copy of the scenario, so the shared one's snapshots stay as they are.
	cp := *s
	cp.snapshots = nil
	r := &scenarioRun{primaryScenario: &cp, t: t, ctx: ctx}
	r.snapshot(label, at)
	return r.snapshots[0]
}
