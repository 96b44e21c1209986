package primary

import (
	"context"
	"crypto/rand"
	"net/url"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/signer"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	pwallet "github.com/ava-labs/avalanchego/wallet/chain/p/wallet"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// The staking tests share one scenario, run
// once per package by whichever test asks first. Fresh keys stake on the
// primary network with the e2e node's short staking flags (harness.NodeFlags):
// S adds a validator for a fresh node ID with a BLS key (validation reward
// to S, delegation fee to F), D1 and D2 delegate to it (rewards to
// themselves), and G delegates to a genesis validator. The scenario waits
// until the node has rewarded all four (RewardValidatorTx, committed: the
// uptime requirement is 0) and records what the node said while they were
// active and after.

const (
	stakingScenarioTimeout = 4 * time.Minute
	// The staking periods, from just before the validator tx. The node's
	// --min-stake-duration is 20s; the delegators end before the validator.
	validatorPeriod   = 60 * time.Second
	delegator1Period  = 40 * time.Second
	delegator2Period  = 45 * time.Second
	genesisDelegation = 35 * time.Second
	// delegationShares is the validator's fee, 20%, so the VALIDATOR_FEE
	// reward is well above zero.
	delegationShares = 200_000
)

// stakerTx is one staking tx of the scenario as the node knows it.
type stakerTx struct {
	label  string
	txType string // AddPermissionlessValidatorTx or AddPermissionlessDelegatorTx
	id     ids.ID
	nodeID ids.NodeID
	weight uint64
	// staker is the key that paid and staked; rewardTo the reward owner
	// (for the validator: the validation reward owner).
	staker, rewardTo ids.ShortID
	// Tx is the node's platform.getTx, parsed: outputs and stake outputs.
	tx                *txs.Tx
	height, blockTime int64
	// active is the node's getCurrentValidators entry while it was active
	// (start, end, potentialReward, and for the validator its delegators).
	start, end      uint64
	potentialReward uint64
	// rewardUTXOs is platform.getRewardUTXOs after it ended; reward its
	// RewardValidatorTx.
	rewardUTXOs []truth.UTXO
	reward      truth.RewardTx
}

// outsAndStake returns the tx's outputs and stake outputs.
func (s *stakerTx) outsAndStake() (outs, stake []*avax.TransferableOutput) {
	switch u := s.tx.Unsigned.(type) {
	case *txs.AddPermissionlessValidatorTx:
		return u.Outs, u.StakeOuts
	case *txs.AddPermissionlessDelegatorTx:
		return u.Outs, u.StakeOuts
	}
	return nil, nil
}

// stakeReturns are the UTXO IDs the RewardValidatorTx returns the stake
// under, with their amounts.
func (s *stakerTx) stakeReturns() map[ids.ID]uint64 {
	outs, stake := s.outsAndStake()
	m := map[ids.ID]uint64{}
	for i, o := range stake {
		m[s.id.Prefix(uint64(len(outs)+i))] = o.Out.Amount()
	}
	return m
}

// addrBalances is what the node said an address held at a moment.
type addrBalances struct {
	p     truth.PBalance
	stake uint64
}

type stakingScenario struct {
	hrp                 string
	avax                ids.ID
	nodeID, genesisNode ids.NodeID
	pop                 *signer.ProofOfPossession
	// keys by role: S (validator), F (delegation fee), D1, D2, G.
	addrs map[string]ids.ShortID
	// validator, d1, d2 and g are the four staking txs.
	validator, d1, d2, g *stakerTx
	fromHeight           uint64 // the P height before the scenario

	// activeTime is the block time of the last staking tx: every staker is
	// active then and no reward tx has come yet; activeBalances what the
	// node said each role held then.
	activeTime int64
	// activeValidators is getCurrentValidators of the two validators then.
	activeValidators []nodeValidator
	activeBalances   map[string]addrBalances
	// activeReplies are avadata's answers while the stakers were active,
	// by label (endpoint URL), captured once: the tests check them later.
	activeReplies map[string]harness.Reply
	activeURLs    map[string]string
	// final balances after every reward.
	finalBalances map[string]addrBalances
	took          time.Duration
	rewardedAfter time.Duration
}

func (s *stakingScenario) stakers() []*stakerTx { return []*stakerTx{s.validator, s.d1, s.d2, s.g} }

// addr is role's address without chain prefix ("local1...").
func (s *stakingScenario) addr(t *testing.T, role string) string {
	t.Helper()
	a, err := address.FormatBech32(s.hrp, s.addrs[role].Bytes())
	require.NoError(t, err)
	return a
}

func (s *stakingScenario) pAddr(t *testing.T, role string) string { return "P-" + s.addr(t, role) }

// stakingScenarioFixture returns the shared scenario, running it on first use.
func stakingScenarioFixture(t *testing.T) *stakingScenario {
	t.Helper()
	return env.staking.Get(t, "the staking scenario", func() *stakingScenario { return runStakingScenario(t) })
}

type stakingRun struct {
	*stakingScenario
	t    *testing.T
	ctx  context.Context
	keys map[string]*secp256k1.PrivateKey
}

func runStakingScenario(t *testing.T) *stakingScenario {
	t.Helper()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), stakingScenarioTimeout)
	defer cancel()
	s := &stakingScenario{hrp: constants.GetHRP(constants.LocalID), addrs: map[string]ids.ShortID{}}
	r := &stakingRun{stakingScenario: s, t: t, ctx: ctx, keys: map[string]*secp256k1.PrivateKey{}}
	for _, role := range []string{"S", "F", "D1", "D2", "G"} {
		k, err := secp256k1.NewPrivateKey()
		require.NoError(t, err)
		r.keys[role], s.addrs[role] = k, k.Address()
	}
	var raw [ids.NodeIDLen]byte
	_, err := rand.Read(raw[:])
	require.NoError(t, err)
	s.nodeID = ids.NodeID(raw)
	sk, err := localsigner.New()
	require.NoError(t, err)
	s.pop, err = signer.NewProofOfPossession(sk)
	require.NoError(t, err)
	s.fromHeight = truth.Height(t, ctx, env.URI(t), "P")
	s.genesisNode = r.pickGenesisValidator()

	r.fund()
	wallets := map[string]walletP{}
	for _, role := range []string{"S", "D1", "D2", "G"} {
		kc := secp256k1fx.NewKeychain(r.keys[role])
		w, err := primary.MakePWallet(ctx, env.URI(t), kc, primary.WalletConfig{})
		require.NoError(t, err, "%s's P wallet", role)
		wallets[role] = w
	}
	t0 := time.Now()
	s.validator = r.stake(wallets["S"], "validator", "S", "S", s.nodeID, 2000*units.Avax, t0.Add(validatorPeriod))
	s.d1 = r.stake(wallets["D1"], "delegator 1", "D1", "D1", s.nodeID, 100*units.Avax, t0.Add(delegator1Period))
	s.d2 = r.stake(wallets["D2"], "delegator 2", "D2", "D2", s.nodeID, 250*units.Avax, t0.Add(delegator2Period))
	s.g = r.stake(wallets["G"], "genesis delegator", "G", "G", s.genesisNode, 25*units.Avax, t0.Add(genesisDelegation))
	s.activeTime = s.g.blockTime
	r.captureActive()
	r.waitRewarded(t0)
	s.rewardedAfter = time.Since(t0)
	s.finalBalances = r.balances()
	s.took = time.Since(start)
	t.Logf("staking scenario took %v", s.took.Round(time.Millisecond))
	return s
}

// walletP is the P wallet of one key.
type walletP = pwallet.Wallet

func (r *stakingRun) opts() []common.Option {
	return []common.Option{common.WithContext(r.ctx), common.WithPollFrequency(20 * time.Millisecond)}
}

func (r *stakingRun) owner(role string) *secp256k1fx.OutputOwners {
	return &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{r.addrs[role]}}
}

// pickGenesisValidator returns a current validator that ends long after
// the scenario (a genesis validator of the local network).
func (r *stakingRun) pickGenesisValidator() ids.NodeID {
	for _, v := range nodeCurrentValidators(r.t, r.ctx, env.URI(r.t)) {
		if time.Unix(int64(v.EndTime), 0).After(time.Now().Add(time.Hour)) {
			return v.NodeID
		}
	}
	r.t.Fatal("no validator lasting an hour on the local network")
	return ids.EmptyNodeID
}

// fund sends each staking key AVAX on P from EWOQ, in one BaseTx.
func (r *stakingRun) fund() {
	t := r.t
	ewoqKC := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakePWallet(r.ctx, env.URI(r.t), ewoqKC, primary.WalletConfig{})
	require.NoError(t, err, "EWOQ P wallet")
	r.avax = w.Builder().Context().AVAXAssetID
	amounts := map[string]uint64{"S": 2001 * units.Avax, "D1": 101 * units.Avax, "D2": 251 * units.Avax, "G": 26 * units.Avax}
	var outs []*avax.TransferableOutput
	for _, role := range []string{"S", "D1", "D2", "G"} {
		outs = append(outs, &avax.TransferableOutput{Asset: avax.Asset{ID: r.avax},
			Out: &secp256k1fx.TransferOutput{Amt: amounts[role], OutputOwners: *r.owner(role)}})
	}
	_, err = w.IssueBaseTx(outs, r.opts()...)
	require.NoError(t, err, "funding the stakers")
}

// stake issues a validator (nodeID == the scenario's node) or delegator tx
// from role's wallet, then reads it back from the node and waits for the
// next second.
func (r *stakingRun) stake(w walletP, label, role, rewardTo string, nodeID ids.NodeID, weight uint64, end time.Time) *stakerTx {
	t := r.t
	vdr := &txs.SubnetValidator{Validator: txs.Validator{NodeID: nodeID, End: uint64(end.Unix()), Wght: weight},
		Subnet: constants.PrimaryNetworkID}
	var (
		tx     *txs.Tx
		err    error
		txType string
	)
	if label == "validator" {
		txType = "AddPermissionlessValidatorTx"
		tx, err = w.IssueAddPermissionlessValidatorTx(vdr, r.pop, r.avax, r.owner(rewardTo), r.owner("F"), delegationShares, r.opts()...)
	} else {
		txType = "AddPermissionlessDelegatorTx"
		tx, err = w.IssueAddPermissionlessDelegatorTx(vdr, r.avax, r.owner(rewardTo), r.opts()...)
	}
	require.NoError(t, err, "%s: %s", label, txType)
	st := &stakerTx{label: label, txType: txType, id: tx.ID(), nodeID: nodeID, weight: weight,
		staker: r.addrs[role], rewardTo: r.addrs[rewardTo], end: uint64(end.Unix())}
	st.tx = truth.ParsedPTx(t, r.ctx, env.URI(r.t), st.id)
	h, bt := truth.LocatePTx(t, r.ctx, env.URI(r.t), r.fromHeight+1, st.id)
	st.height, st.blockTime = int64(h), bt
	waitPastSecond(r.ctx, t, bt)
	return st
}

// captureActive records, while every staker is active, the node's view
// (getCurrentValidators with delegators, balances and stake of each role)
// and avadata's answers, once avadata has indexed the staking txs.
func (r *stakingRun) captureActive() {
	t := r.t
	s := r.stakingScenario
	// The node lists a validator's delegators only when asked for that one
	// validator alone.
	var vdrs []nodeValidator
	for _, n := range []ids.NodeID{s.nodeID, s.genesisNode} {
		vdrs = append(vdrs, nodeCurrentValidators(t, r.ctx, env.URI(r.t), n)...)
	}
	s.activeValidators = vdrs
	for _, v := range vdrs {
		if v.TxID == s.validator.id {
			r.fromNode(s.validator, v.StartTime, v.EndTime, v.PotentialReward)
		}
		require.NotNil(t, v.Delegators, "getCurrentValidators(%s): no delegators list", v.NodeID)
		for _, d := range *v.Delegators {
			for _, st := range []*stakerTx{s.d1, s.d2, s.g} {
				if d.TxID == st.id {
					r.fromNode(st, d.StartTime, d.EndTime, d.PotentialReward)
				}
			}
		}
	}
	for _, st := range s.stakers() {
		require.NotZero(t, st.start, "%s: not in getCurrentValidators while active", st.label)
	}
	s.activeBalances = r.balances()
	// avadata, once it has the staking txs.
	ctx, cancel := context.WithTimeout(r.ctx, 15*time.Second)
	defer cancel()
	harness.WaitIndexed(t, ctx, env.Base(r.t), map[string]uint64{"P": uint64(s.g.height)})
	s.activeURLs = map[string]string{
		"validator":         networkURL(t, "validators/"+s.nodeID.String(), nil),
		"validator active":  networkURL(t, "validators/"+s.nodeID.String(), url.Values{"validationStatus": {"active"}}),
		"delegators":        networkURL(t, "delegators", url.Values{"nodeIds": {s.nodeID.String()}}),
		"delegators active": networkURL(t, "delegators", url.Values{"nodeIds": {s.nodeID.String()}, "delegationStatus": {"active"}}),
		"staking S":         primaryURL(t, "p-chain", "transactions:listStaking", url.Values{"addresses": {s.pAddr(t, "S")}}),
		"staking D1":        primaryURL(t, "p-chain", "transactions:listStaking", url.Values{"addresses": {s.pAddr(t, "D1")}}),
	}
	s.activeReplies = map[string]harness.Reply{}
	for label, u := range s.activeURLs {
		s.activeReplies[label] = harness.Get(t, r.ctx, u)
	}
	require.Less(t, time.Now().Unix(), int64(s.g.end), "captures took past the first staker's end")
}

func (r *stakingRun) fromNode(st *stakerTx, start, end avajson.Uint64, potential *avajson.Uint64) {
	st.start = uint64(start)
	require.Equal(r.t, st.end, uint64(end), "%s: end time", st.label)
	require.NotNil(r.t, potential, "%s: potentialReward", st.label)
	st.potentialReward = uint64(*potential)
}

// balances reads getBalance and getStake of every role now.
func (r *stakingRun) balances() map[string]addrBalances {
	out := map[string]addrBalances{}
	for role := range r.addrs {
		a := r.pAddr(r.t, role)
		out[role] = addrBalances{p: truth.BalanceOnP(r.t, r.ctx, env.URI(r.t), a), stake: nodeStake(r.t, r.ctx, env.URI(r.t), a)}
	}
	return out
}

// waitRewarded waits until the node has accepted a RewardValidatorTx for
// each staking tx, then records those and the reward UTXOs.
func (r *stakingRun) waitRewarded(t0 time.Time) {
	t := r.t
	s := r.stakingScenario
	wait := time.Until(t0.Add(validatorPeriod))
	t.Logf("staking: every staker active; waiting %v for the validator's end", wait.Round(time.Second))
	for {
		rewards := truth.RewardTxs(t, r.ctx, env.URI(r.t), r.fromHeight+1)
		done := true
		for _, st := range s.stakers() {
			if _, ok := rewards[st.id]; !ok {
				done = false
			}
		}
		if done {
			for _, st := range s.stakers() {
				st.reward = rewards[st.id]
				st.rewardUTXOs = truth.RewardUTXOs(t, r.ctx, env.URI(r.t), st.id)
			}
			return
		}
		select {
		case <-r.ctx.Done():
			t.Fatalf("staking: the node did not reward every staker: %v (rewarded: %v)", r.ctx.Err(), rewards)
		case <-time.After(time.Second):
		}
	}
}

// networkURL builds /v1/networks/local/{rest}?{q} on the shared network.
func networkURL(t testing.TB, rest string, q url.Values) string {
	u := env.Base(t) + "/v1/networks/" + primaryNetwork + "/" + rest
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// waitPastSecond returns once the wall clock is past second ts.
func waitPastSecond(ctx context.Context, t *testing.T, ts int64) {
	d := time.Until(time.Unix(ts+1, 0))
	if d <= 0 {
		return
	}
	select {
	case <-ctx.Done():
		t.Fatalf("waiting for second %d: %v", ts+1, ctx.Err())
	case <-time.After(d):
	}
}
