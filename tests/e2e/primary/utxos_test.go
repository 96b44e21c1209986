package primary

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// getUtxosByAddresses (GET and POST .../blockchains/{blockchainId}/utxos)
// for the scenarios' addresses, against the node: platform.getUTXOs,
// avm.getUTXOs and avax.getUTXOs (with sourceChain for atomic memory) as
// sets; spent UTXOs against the txs that made and consumed them (getTx,
// avax.getAtomicTx). utxos_activity_test.go has the address activity
// operations and the bad input.

// listedUTXO is PChainUtxo and Utxo in one, with every field the tests
// check (outputIndex is a number on P, a string on X and C).
type listedUTXO struct {
	Addresses               []string            `json:"addresses"`
	Asset                   dataapi.AssetAmount `json:"asset"`
	UTXOID                  string              `json:"utxoId"`
	TxHash                  string              `json:"txHash"`         // P
	CreationTxHash          string              `json:"creationTxHash"` // X, C
	Amount                  string              `json:"amount"`         // P
	AssetID                 string              `json:"assetId"`        // P
	OutputIndex             json.RawMessage     `json:"outputIndex"`
	CreatedOnChainID        string              `json:"createdOnChainId"`
	ConsumedOnChainID       string              `json:"consumedOnChainId"`
	ConsumingTxHash         string              `json:"consumingTxHash"`
	ConsumingBlockTimestamp *int64              `json:"consumingBlockTimestamp"` // P
	ConsumingTxTimestamp    *int64              `json:"consumingTxTimestamp"`    // X, C
	BlockTimestamp          *int64              `json:"blockTimestamp"`          // P
	Timestamp               *int64              `json:"timestamp"`               // X, C
	PlatformLocktime        *uint64             `json:"platformLocktime"`        // P
	StakeableLocktime       *uint64             `json:"stakeableLocktime"`       // P
	Locktime                *uint64             `json:"locktime"`                // X, C
	Threshold               int                 `json:"threshold"`
	UTXOType                string              `json:"utxoType"`
	Staked                  *bool               `json:"staked"`
	RewardType              string              `json:"rewardType"`
	UTXOStartTimestamp      *int64              `json:"utxoStartTimestamp"`
	UTXOEndTimestamp        *int64              `json:"utxoEndTimestamp"`
}

// created is when the UTXO was created (blockTimestamp on P, timestamp on
// X and C).
func (u *listedUTXO) created(t *testing.T) int64 {
	t.Helper()
	ts := u.BlockTimestamp
	if ts == nil {
		ts = u.Timestamp
	}
	require.NotNil(t, ts, "utxo %s: no creation time", u.UTXOID)
	return *ts
}

// consumedAt is when the UTXO was consumed (nil: unspent).
func (u *listedUTXO) consumedAt() *int64 {
	if u.ConsumingBlockTimestamp != nil {
		return u.ConsumingBlockTimestamp
	}
	return u.ConsumingTxTimestamp
}

func (u *listedUTXO) amount(t *testing.T) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(u.Asset.Amount, 10, 64)
	require.NoError(t, err, "utxo %s: amount %q", u.UTXOID, u.Asset.Amount)
	return n
}

// utxoKey is what the node and avadata both say of a UTXO: its ID, output
// index, asset, amount, locktimes and owners.
type utxoKey struct {
	id                      ids.ID
	index                   uint32
	asset                   ids.ID
	amount                  uint64
	locktime, stakeLocktime uint64
	owners                  string // bech32 without chain prefix, sorted, comma-joined
}

func nodeUTXOKey(t *testing.T, hrp string, u truth.UTXO) utxoKey {
	t.Helper()
	owners := make([]string, len(u.Addrs))
	for i, a := range u.Addrs {
		s, err := address.FormatBech32(hrp, a.Bytes())
		require.NoError(t, err)
		owners[i] = s
	}
	slices.Sort(owners)
	return utxoKey{id: u.ID, index: u.Index, asset: u.Asset, amount: u.Amount, locktime: u.Locktime,
		stakeLocktime: u.StakeLocktime, owners: strings.Join(owners, ",")}
}

func apiUTXOKey(t *testing.T, chain string, u *listedUTXO) utxoKey {
	t.Helper()
	id, err := ids.FromString(u.UTXOID)
	require.NoError(t, err, "utxoId %q", u.UTXOID)
	asset, err := ids.FromString(u.Asset.AssetID)
	require.NoError(t, err, "utxo %s: assetId", u.UTXOID)
	k := utxoKey{id: id, asset: asset, amount: u.amount(t), owners: strings.Join(slices.Sorted(slices.Values(u.Addresses)), ",")}
	index := string(u.OutputIndex)
	if chain == "P" {
		require.Equal(t, u.Amount, u.Asset.Amount, "P utxo %s: amount and asset.amount", u.UTXOID)
		require.Equal(t, u.Asset.AssetID, u.AssetID, "P utxo %s: assetId and asset.assetId", u.UTXOID)
		require.NotNil(t, u.PlatformLocktime, "P utxo %s: platformLocktime", u.UTXOID)
		k.locktime = *u.PlatformLocktime
		if u.StakeableLocktime != nil {
			k.stakeLocktime = *u.StakeableLocktime
		}
	} else {
		require.True(t, strings.HasPrefix(index, `"`), "%s utxo %s: outputIndex %s must be a string", chain, u.UTXOID, index)
		index = strings.Trim(index, `"`)
		require.NotNil(t, u.Locktime, "%s utxo %s: locktime", chain, u.UTXOID)
		k.locktime = *u.Locktime
	}
	n, err := strconv.ParseUint(index, 10, 32)
	require.NoError(t, err, "utxo %s: outputIndex %s", u.UTXOID, u.OutputIndex)
	k.index = uint32(n)
	return k
}

// nodeUTXOs is what the node holds for addr on chain: its own UTXOs
// (getUTXOs) and its atomic memory from the other two chains (getUTXOs
// with sourceChain), keyed by source ("" for its own).
func nodeUTXOs(t *testing.T, ctx context.Context, chain, addr string) map[string][]truth.UTXO {
	t.Helper()
	out := map[string][]truth.UTXO{}
	if chain != "C" { // the C-chain's own state is accounts
		out[""] = truth.UTXOs(t, ctx, env.URI(t), chain, "", chain+"-"+addr)
	}
	for _, src := range []string{"P", "X", "C"} {
		if src != chain {
			out[src] = truth.AtomicUTXOs(t, ctx, env.URI(t), chain, src, chain+"-"+addr)
		}
	}
	return out
}

func nodeUTXOKeys(t *testing.T, hrp string, bySource map[string][]truth.UTXO) []utxoKey {
	var out []utxoKey
	for _, utxos := range bySource {
		for _, u := range utxos {
			out = append(out, nodeUTXOKey(t, hrp, u))
		}
	}
	return out
}

// listUTXOs pages through avadata's GET listing of chain with q, pageSize
// at a time, checking nothing repeats.
func listUTXOs(t *testing.T, ctx context.Context, chain string, q url.Values, pageSize int) []listedUTXO {
	t.Helper()
	q = cloneQuery(q)
	q.Set("pageSize", strconv.Itoa(pageSize))
	items := harness.ListAll[listedUTXO](t, ctx, primaryURL(t, chainAlias(chain), "utxos", q), "utxos", pageSize)
	seen := map[string]bool{}
	for _, u := range items {
		require.False(t, seen[u.UTXOID], "%s utxos %v: %s listed twice", chain, q, u.UTXOID)
		seen[u.UTXOID] = true
	}
	return items
}

func cloneQuery(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = slices.Clone(v)
	}
	return out
}

// postUTXOs is one page of the POST (V2) listing with the addresses in the
// body.
func postUTXOs(t *testing.T, ctx context.Context, chain, addrs string, q url.Values) []listedUTXO {
	t.Helper()
	body, err := json.Marshal(map[string]string{"addresses": addrs})
	require.NoError(t, err)
	r := harness.Do(t, ctx, http.MethodPost, primaryURL(t, chainAlias(chain), "utxos", q), body,
		map[string]string{"Content-Type": "application/json"})
	require.Equal(t, http.StatusOK, r.Status, "POST %s utxos: %s", chain, r.Body)
	harness.RequireNoNulls(t, r.Body, "POST utxos")
	var reply struct {
		UTXOs         []listedUTXO      `json:"utxos"`
		ChainInfo     dataapi.ChainInfo `json:"chainInfo"`
		NextPageToken string            `json:"nextPageToken"`
	}
	r.Decode(t, &reply)
	require.Equal(t, dataapi.ChainInfo{ChainName: chainAlias(chain), Network: primaryNetwork}, reply.ChainInfo)
	require.Empty(t, reply.NextPageToken, "POST %s utxos: one page of %s", chain, q.Get("pageSize"))
	return reply.UTXOs
}

func apiUTXOKeys(t *testing.T, chain string, utxos []listedUTXO) []utxoKey {
	out := make([]utxoKey, len(utxos))
	for i := range utxos {
		out[i] = apiUTXOKey(t, chain, &utxos[i])
	}
	return out
}

func listedIDs(utxos []listedUTXO) []string {
	out := make([]string, len(utxos))
	for i, u := range utxos {
		out[i] = u.UTXOID
	}
	return out
}

// TestPrimaryUtxosMatchNode: A's unspent UTXOs on each chain, paged three at
// a time and in one POST page, are the node's getUTXOs and atomic memory,
// with where they were created and will be consumed.
func TestPrimaryUtxosMatchNode(t *testing.T) {
	s, ctx := primaryFixture(t)
	a := s.bech32(t)
	for _, chain := range []string{"P", "X", "C"} {
		t.Run(chain, func(t *testing.T) {
			node := nodeUTXOs(t, ctx, chain, a)
			want := nodeUTXOKeys(t, s.hrp, node)
			got := listUTXOs(t, ctx, chain, url.Values{"addresses": {s.addressFor(t, chain)}}, 3)
			require.ElementsMatch(t, want, apiUTXOKeys(t, chain, got), "%s: avadata vs the node's getUTXOs", chain)
			require.NotEmpty(t, want, "%s: A holds something there", chain)

			// Where each was created: this chain, or the chain that
			// exported it into this chain's atomic memory.
			source := map[string]string{}
			for src, utxos := range node {
				for _, u := range utxos {
					source[u.ID.String()] = src
				}
			}
			for _, u := range got {
				created := chain
				if src := source[u.UTXOID]; src != "" {
					created = src
				}
				require.Equal(t, s.chainID(created).String(), u.CreatedOnChainID, "%s utxo %s: createdOnChainId", chain, u.UTXOID)
				require.Equal(t, s.chainID(chain).String(), u.ConsumedOnChainID, "%s utxo %s: consumedOnChainId", chain, u.UTXOID)
				require.Empty(t, u.ConsumingTxHash, "%s utxo %s: unspent", chain, u.UTXOID)
				require.Equal(t, 1, u.Threshold)
				checkAssetInfo(t, s, chain+" utxo "+u.UTXOID, u.Asset)
				creator := u.TxHash
				if chain != "P" {
					creator = u.CreationTxHash
				}
				require.NotEmpty(t, creator, "%s utxo %s: creating tx", chain, u.UTXOID)
			}

			// The V2 listing: the addresses in the body, one page.
			post := postUTXOs(t, ctx, chain, s.addressFor(t, chain), url.Values{"pageSize": {"1024"}})
			require.Equal(t, listedIDs(listUTXOs(t, ctx, chain, url.Values{"addresses": {s.addressFor(t, chain)}}, 100)),
				listedIDs(post), "%s: POST lists what GET lists, in the same order", chain)
		})
	}
	// The scenario's ends are there: the locked outputs on P.
	p := listUTXOs(t, ctx, "P", url.Values{"addresses": {a}}, 100)
	var locked, stakeLocked bool
	for _, u := range p {
		locked = locked || (*u.PlatformLocktime == s.lockTime && u.amount(t) == s.lockedPlatform)
		stakeLocked = stakeLocked || (u.StakeableLocktime != nil && *u.StakeableLocktime == s.lockTime && u.amount(t) == s.lockedStk)
	}
	require.True(t, locked && stakeLocked, "P: the platform-locked and the stakeable-locked outputs")
}

// scenarioOutput is an output of a scenario tx owned by A: its UTXO ID and
// the chain that holds it (the tx's chain, or an export's destination).
type scenarioOutput struct {
	id   ids.ID
	hold string
}

// outputsToA reads every scenario tx from the node and lists the outputs A
// owns: every UTXO A ever had.
func outputsToA(t *testing.T, ctx context.Context, s *primaryScenario) []scenarioOutput {
	t.Helper()
	chainOf := map[string]string{s.pChain.String(): "P", s.xChain.String(): "X", s.cChain.String(): "C"}
	a := s.bech32(t)
	var out []scenarioOutput
	for _, tx := range s.txs {
		if tx.chain == "C" {
			atx := truth.AtomicTx(t, ctx, env.URI(t), tx.id)
			exp, ok := atx.UnsignedAtomicTx.(*atomic.UnsignedExportTx)
			if !ok {
				continue // an import: its outputs are EVM balances
			}
			for i, o := range exp.ExportedOutputs {
				tr, ok := o.Out.(*secp256k1fx.TransferOutput)
				if ok && slices.Contains(tr.Addrs, s.addr) {
					out = append(out, scenarioOutput{id: tx.id.Prefix(uint64(i)), hold: chainOf[exp.DestinationChain.String()]})
				}
			}
			continue
		}
		ntx := truth.GetTx(t, ctx, env.URI(t), tx.chain, tx.id)
		var raw struct {
			Unsigned struct {
				Outputs []json.RawMessage `json:"outputs"`
			} `json:"unsignedTx"`
		}
		require.NoError(t, json.Unmarshal(ntx.Raw, &raw))
		regular := len(raw.Unsigned.Outputs)
		for _, o := range ntx.Outs {
			if !slices.ContainsFunc(o.Addrs, func(s string) bool { return strings.HasSuffix(s, "-"+a) || s == a }) {
				continue
			}
			hold := tx.chain
			if int(o.Index) >= regular && ntx.DestinationChain != "" {
				hold = chainOf[ntx.DestinationChain]
			}
			out = append(out, scenarioOutput{id: tx.id.Prefix(uint64(o.Index)), hold: hold})
		}
	}
	return out
}

// consumes reports whether the node's tx txID (a scenario tx of chain)
// consumed utxo.
func consumes(t *testing.T, ctx context.Context, chain string, txID, utxo ids.ID) bool {
	t.Helper()
	if chain == "C" {
		imp, ok := truth.AtomicTx(t, ctx, env.URI(t), txID).UnsignedAtomicTx.(*atomic.UnsignedImportTx)
		return ok && slices.ContainsFunc(imp.ImportedInputs, func(in *avax.TransferableInput) bool { return in.InputID() == utxo })
	}
	return slices.ContainsFunc(truth.GetTx(t, ctx, env.URI(t), chain, txID).Ins, func(in truth.In) bool { return in.UTXOID == utxo })
}

// TestPrimaryUtxosIncludeSpent: with includeSpent, every UTXO A ever had on
// the chain (every output of the scenario's txs that A owns and the chain
// holds); the spent ones name the tx that consumed them (its inputs hold
// the UTXO, and its block time is the consuming time), the unspent ones
// are the node's getUTXOs.
func TestPrimaryUtxosIncludeSpent(t *testing.T) {
	s, ctx := primaryFixture(t)
	outputs := outputsToA(t, ctx, s)
	byID := map[ids.ID]*scenarioTx{}
	for _, tx := range s.txs {
		byID[tx.id] = tx
	}
	for _, chain := range []string{"P", "X", "C"} {
		t.Run(chain, func(t *testing.T) {
			var want []string
			for _, o := range outputs {
				if o.hold == chain {
					want = append(want, o.id.String())
				}
			}
			all := listUTXOs(t, ctx, chain, url.Values{"addresses": {s.addressFor(t, chain)}, "includeSpent": {"true"}}, 4)
			require.ElementsMatch(t, want, listedIDs(all), "%s: every UTXO A ever had there", chain)
			unspent := map[ids.ID]bool{}
			for _, k := range nodeUTXOKeys(t, s.hrp, nodeUTXOs(t, ctx, chain, s.bech32(t))) {
				unspent[k.id] = true
			}
			spent := 0
			for _, u := range all {
				id, err := ids.FromString(u.UTXOID)
				require.NoError(t, err)
				if unspent[id] {
					require.Empty(t, u.ConsumingTxHash, "%s utxo %s is unspent on the node", chain, u.UTXOID)
					continue
				}
				spent++
				require.NotEmpty(t, u.ConsumingTxHash, "%s utxo %s is spent on the node", chain, u.UTXOID)
				consumer, err := ids.FromString(u.ConsumingTxHash)
				require.NoError(t, err)
				tx, ok := byID[consumer]
				require.True(t, ok, "%s utxo %s: consumed by %s, not a scenario tx", chain, u.UTXOID, consumer)
				require.Equal(t, chain, tx.chain, "%s utxo %s: consumed on this chain", chain, u.UTXOID)
				require.True(t, consumes(t, ctx, chain, consumer, id), "%s utxo %s: the node's %s does not consume it", chain, u.UTXOID, tx)
				require.Equal(t, s.chainID(chain).String(), u.ConsumedOnChainID)
				require.NotNil(t, u.consumedAt(), "%s utxo %s: consuming time", chain, u.UTXOID)
				require.Equal(t, tx.blockTime, *u.consumedAt(), "%s utxo %s: consuming time is %s's block time", chain, u.UTXOID, tx)
			}
			require.NotZero(t, spent, "%s: A spent something there", chain)
		})
	}
}

// TestPrimaryUtxosFiltersAndOrder: assetId, minUtxoAmount, sortBy and
// sortOrder, and paging one at a time to the end.
func TestPrimaryUtxosFiltersAndOrder(t *testing.T) {
	s, ctx := primaryFixture(t)
	a := s.bech32(t)

	// The scenario's asset on X: the node's UTXOs of it.
	var want []utxoKey
	for _, k := range nodeUTXOKeys(t, s.hrp, nodeUTXOs(t, ctx, "X", a)) {
		if k.asset == s.asset {
			want = append(want, k)
		}
	}
	require.NotEmpty(t, want)
	got := listUTXOs(t, ctx, "X", url.Values{"addresses": {a}, "assetId": {s.asset.String()}}, 10)
	require.ElementsMatch(t, want, apiUTXOKeys(t, "X", got), "X: assetId")

	for _, chain := range []string{"P", "X"} {
		node := nodeUTXOKeys(t, s.hrp, nodeUTXOs(t, ctx, chain, a))
		const minAmount = units.Avax / 2
		want = nil
		for _, k := range node {
			if k.amount >= minAmount {
				want = append(want, k)
			}
		}
		require.NotEmpty(t, want)
		got = listUTXOs(t, ctx, chain, url.Values{"addresses": {a}, "minUtxoAmount": {strconv.FormatUint(minAmount, 10)}}, 2)
		require.ElementsMatch(t, want, apiUTXOKeys(t, chain, got), "%s: minUtxoAmount", chain)

		for _, sortBy := range []string{"", "timestamp", "amount"} {
			for _, order := range []string{"", "asc", "desc"} {
				q := url.Values{"addresses": {a}, "includeSpent": {"true"}}
				if sortBy != "" {
					q.Set("sortBy", sortBy)
				}
				if order != "" {
					q.Set("sortOrder", order)
				}
				whole := listUTXOs(t, ctx, chain, q, 100)
				require.Equal(t, listedIDs(whole), listedIDs(listUTXOs(t, ctx, chain, q, 1)), "%s %v: pages of one", chain, q)
				key := func(u *listedUTXO) int64 { return u.created(t) }
				if sortBy == "amount" {
					key = func(u *listedUTXO) int64 { return int64(u.amount(t)) }
				}
				for i := 1; i < len(whole); i++ {
					prev, cur := key(&whole[i-1]), key(&whole[i])
					if order == "asc" {
						require.LessOrEqual(t, prev, cur, "%s %v: ascending at %d", chain, q, i)
					} else {
						require.GreaterOrEqual(t, prev, cur, "%s %v: descending (the default) at %d", chain, q, i)
					}
				}
			}
		}
	}
}

// TestPrimaryUtxosStaking: the staking scenario's keys on P: their UTXOs
// are the node's getUTXOs; the stake each staker got back is a STAKE UTXO
// with the staking period the node reported, each reward names its
// RewardValidatorTx and its reward type.
func TestPrimaryUtxosStaking(t *testing.T) {
	s, ctx := stakingFixture(t)
	for _, role := range []string{"S", "F", "D1", "D2", "G"} {
		got := listUTXOs(t, ctx, "P", url.Values{"addresses": {s.addr(t, role)}}, 5)
		want := nodeUTXOKeys(t, s.hrp, map[string][]truth.UTXO{"": truth.UTXOs(t, ctx, env.URI(t), "P", "", "P-"+s.addr(t, role))})
		require.ElementsMatch(t, want, apiUTXOKeys(t, "P", got), "%s: avadata vs platform.getUTXOs", role)
	}
	for _, st := range s.stakers() {
		all := listUTXOs(t, ctx, "P", url.Values{"addresses": {s.addr(t, roleOf(s, st.staker))}, "includeSpent": {"true"}}, 100)
		byID := map[string]listedUTXO{}
		for _, u := range all {
			byID[u.UTXOID] = u
		}
		for id, amount := range st.stakeReturns() {
			u, ok := byID[id.String()]
			require.True(t, ok, "%s: stake %s listed", st.label, id)
			require.Equal(t, "STAKE", u.UTXOType, "%s: stake %s", st.label, id)
			require.True(t, u.Staked != nil && *u.Staked, "%s: stake %s staked", st.label, id)
			require.Equal(t, amount, u.amount(t), "%s: stake %s amount", st.label, id)
			require.Equal(t, st.id.String(), u.TxHash, "%s: stake %s made by the staking tx", st.label, id)
			require.NotNil(t, u.UTXOStartTimestamp, "%s: stake %s start", st.label, id)
			require.Equal(t, int64(st.start), *u.UTXOStartTimestamp, "%s: stake %s start (getCurrentValidators)", st.label, id)
			require.Equal(t, int64(st.end), *u.UTXOEndTimestamp, "%s: stake %s end (getCurrentValidators)", st.label, id)
		}
		for _, r := range st.rewardUTXOs {
			require.Len(t, r.Addrs, 1)
			owned := listUTXOs(t, ctx, "P", url.Values{"addresses": {s.addr(t, roleOf(s, r.Addrs[0]))}, "includeSpent": {"true"}}, 100)
			i := slices.IndexFunc(owned, func(u listedUTXO) bool { return u.UTXOID == r.ID.String() })
			require.GreaterOrEqual(t, i, 0, "%s: reward %s listed", st.label, r.ID)
			u := owned[i]
			require.Equal(t, st.reward.ID.String(), u.TxHash, "%s: reward %s made by the RewardValidatorTx", st.label, r.ID)
			require.Contains(t, []string{"VALIDATOR", "DELEGATOR", "VALIDATOR_FEE"}, u.RewardType, "%s: reward %s", st.label, r.ID)
			require.Equal(t, r.Amount, u.amount(t))
		}
	}
}

// roleOf is the staking scenario role whose key is addr.
func roleOf(s *stakingScenario, addr ids.ShortID) string {
	for role, a := range s.addrs {
		if a == addr {
			return role
		}
	}
	return ""
}
