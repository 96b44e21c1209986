package webhooks

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestWebhooksValidatorStaking: a fresh validator (key S, its delegation
// fee to F) and a delegator to it (key D) stake on the primary network
// with the node's short staking flags (harness.NodeFlags), end and are
// rewarded. Three webhooks watch it from before: validator_activity by the
// node ID, by the primary network's subnet ID narrowed to that node, and
// primary_network_address_activity reward_distribution on the three
// reward addresses. Each gets exactly the events the node's data gives
// (platform.getTx, getCurrentValidators, the P blocks, getRewardUTXOs),
// each once, in chain order, signed as the SDK verifies.
func TestWebhooksValidatorStaking(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	uri, base := env.URI(t), env.Base(t)
	pChainID := blockchainID(t, ctx, uri, "P")
	s, f, d := newPKey(t), newPKey(t), newPKey(t)
	vdr := harness.NewBLSValidator(t)
	node := vdr.NodeID.String()
	primaryNet := constants.PrimaryNetworkID.String()

	stakeSubs := []string{"validator_stake", "delegator_stake", "reward_distribution"}
	byNode, bySubnet, byAddr := harness.NewWebhookReceiver(t), harness.NewWebhookReceiver(t), harness.NewWebhookReceiver(t)
	nodeHook := harness.CreateWebhook(t, ctx, base, validatorHookRequest(byNode.URL, "nodeId", node, stakeSubs, nil))
	subnetHook := harness.CreateWebhook(t, ctx, base, validatorHookRequest(bySubnet.URL, "subnetId", primaryNet, stakeSubs,
		map[string]any{"nodeIds": []string{node}}))
	// The keys as listed: with and without the chain prefix.
	keyOf := map[ids.ShortID]string{s.addr: "P-" + s.bech32, f.addr: f.bech32, d.addr: "P-" + d.bech32}
	addrHook := harness.CreateWebhook(t, ctx, base, map[string]any{"eventType": "primary_network_address_activity",
		"url": byAddr.URL, "network": "fuji", "chainId": "P", "metadata": map[string]any{"keyType": "addresses",
			"keys":      []string{keyOf[s.addr], keyOf[f.addr], keyOf[d.addr]},
			"subEvents": map[string]any{"addressActivitySubEvents": []string{"reward_distribution"}}}})

	from := truth.Height(t, ctx, uri, "P")
	avaxID := fundOnP(t, ctx, uri, map[*pKey]uint64{s: 2001 * units.Avax, d: 26 * units.Avax})
	t0 := time.Now()
	vtx, err := s.wallet(t, ctx, uri).IssueAddPermissionlessValidatorTx(&txs.SubnetValidator{Validator: txs.Validator{
		NodeID: vdr.NodeID, End: uint64(t0.Add(45 * time.Second).Unix()), Wght: 2000 * units.Avax},
		Subnet: constants.PrimaryNetworkID}, vdr.PoP, avaxID, s.owner(), f.owner(), 200_000, pOpts(ctx)...)
	require.NoError(t, err, "AddPermissionlessValidatorTx")
	dtx, err := d.wallet(t, ctx, uri).IssueAddPermissionlessDelegatorTx(&txs.SubnetValidator{Validator: txs.Validator{
		NodeID: vdr.NodeID, End: uint64(t0.Add(35 * time.Second).Unix()), Wght: 25 * units.Avax},
		Subnet: constants.PrimaryNetworkID}, avaxID, d.owner(), pOpts(ctx)...)
	require.NoError(t, err, "AddPermissionlessDelegatorTx")
	starts := currentStakerStarts(t, ctx, uri, vdr.NodeID)

	// Both end and are rewarded: the node issues a RewardValidatorTx for
	// each at its end.
	var rewards map[ids.ID]truth.RewardTx
	for {
		rewards = truth.RewardTxs(t, ctx, uri, from+1)
		if _, ok := rewards[vtx.ID()]; ok {
			if _, ok := rewards[dtx.ID()]; ok {
				break
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the node did not reward both stakers: %v", ctx.Err())
		case <-time.After(2 * time.Second):
		}
	}
	t.Logf("rewarded %v after the validator tx", time.Since(t0).Round(time.Second))

	// The expected events, from the node's data.
	stakeEvent := func(sub string, id ids.ID, txType string) map[string]any {
		h, _ := truth.LocatePTx(t, ctx, uri, from+1, id)
		tx := truth.ParsedPTx(t, ctx, uri, id)
		e := pBlockEvent(t, ctx, uri, pChainID, sub, h)
		members := map[string]any{"txHash": id.String(), "txType": txType, "nodeId": node, "subnetId": primaryNet,
			"stakingTxHash": id.String(), "startTimestamp": float64(starts[id])}
		switch u := tx.Unsigned.(type) {
		case *txs.AddPermissionlessValidatorTx:
			members["endTimestamp"], members["amountStaked"] = float64(u.Validator.End), strconv.FormatUint(u.Validator.Wght, 10)
			members["delegationFee"] = strconv.FormatFloat(float64(u.DelegationShares)/10_000, 'f', -1, 64)
			members["rewardAddresses"] = []any{s.bech32}
		case *txs.AddPermissionlessDelegatorTx:
			members["endTimestamp"], members["amountStaked"] = float64(u.Validator.End), strconv.FormatUint(u.Validator.Wght, 10)
			members["rewardAddresses"] = []any{d.bech32}
		default:
			t.Fatalf("staking tx %s is a %T", id, u)
		}
		return withMembers(e, members)
	}
	// typeOf is a reward UTXO's type, by its owner.
	typeOf := map[ids.ShortID]string{s.addr: "VALIDATOR", f.addr: "VALIDATOR_FEE", d.addr: "DELEGATOR"}
	// The stakers in the order they were rewarded.
	ended := []ids.ID{dtx.ID(), vtx.ID()}
	slices.SortFunc(ended, func(a, b ids.ID) int { return int(rewards[a].Height) - int(rewards[b].Height) })
	var rewardEvents, addrEvents []map[string]any
	for _, staking := range ended {
		rtx := rewards[staking]
		require.True(t, rtx.Committed, "the reward of %s (uptime requirement 0)", staking)
		own := "VALIDATOR"
		if staking == dtx.ID() {
			own = "DELEGATOR"
		}
		utxos := truth.RewardUTXOs(t, ctx, uri, staking)
		slices.SortFunc(utxos, func(a, b truth.UTXO) int { return int(a.Index) - int(b.Index) })
		amounts := map[string]uint64{own: 0}
		order := []string{own}
		owners := map[string][]any{own: {}}
		for _, u := range utxos {
			require.Len(t, u.Addrs, 1, "reward UTXO %s", u.ID)
			typ := typeOf[u.Addrs[0]]
			if _, ok := amounts[typ]; !ok {
				order = append(order, typ)
			}
			amounts[typ] += u.Amount
			owners[typ] = []any{map[ids.ShortID]string{s.addr: s.bech32, f.addr: f.bech32, d.addr: d.bech32}[u.Addrs[0]]}
			addrEvents = append(addrEvents, withMembers(pBlockEvent(t, ctx, uri, pChainID, "reward_distribution", rtx.Height),
				map[string]any{"txHash": rtx.ID.String(), "txType": "RewardValidatorTx", "address": keyOf[u.Addrs[0]],
					"rewardType": typ, "amount": strconv.FormatUint(u.Amount, 10), "assetId": avaxID.String(),
					"utxoId": u.ID.String(), "nodeId": node, "stakingTxHash": staking.String()}))
		}
		for _, typ := range order {
			rewardEvents = append(rewardEvents, withMembers(pBlockEvent(t, ctx, uri, pChainID, "reward_distribution", rtx.Height),
				map[string]any{"txHash": rtx.ID.String(), "txType": "RewardValidatorTx", "nodeId": node, "subnetId": primaryNet,
					"stakingTxHash": staking.String(), "rewardType": typ, "amount": strconv.FormatUint(amounts[typ], 10),
					"rewardAddresses": owners[typ], "committed": true}))
		}
	}
	want := append([]map[string]any{
		stakeEvent("validator_stake", vtx.ID(), "AddPermissionlessValidatorTx"),
		stakeEvent("delegator_stake", dtx.ID(), "AddPermissionlessDelegatorTx"),
	}, rewardEvents...)
	require.Len(t, want, 5, "two stakes, the delegator's reward, the validator's reward and fee")
	require.Len(t, addrEvents, 3, "three reward UTXOs, one per watched address")

	expectDeliveries(t, ctx, base, byNode, nodeHook["id"].(string), "validator_activity", want)
	expectDeliveries(t, ctx, base, bySubnet, subnetHook["id"].(string), "validator_activity", want)
	expectDeliveries(t, ctx, base, byAddr, addrHook["id"].(string), "primary_network_address_activity", addrEvents)
}

// currentStakerStarts is platform.getCurrentValidators of node: the start
// time of the validator and each delegator, by staking tx.
func currentStakerStarts(t *testing.T, ctx context.Context, uri string, node ids.NodeID) map[ids.ID]uint64 {
	t.Helper()
	type staker struct {
		TxID      ids.ID         `json:"txID"`
		StartTime avajson.Uint64 `json:"startTime"`
	}
	var reply struct {
		Validators []struct {
			staker
			Delegators []staker `json:"delegators"`
		} `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators",
		map[string]any{"nodeIDs": []ids.NodeID{node}}, &reply))
	out := map[ids.ID]uint64{}
	for _, v := range reply.Validators {
		out[v.TxID] = uint64(v.StartTime)
		for _, d := range v.Delegators {
			out[d.TxID] = uint64(d.StartTime)
		}
	}
	require.Len(t, out, 2, "getCurrentValidators(%s): the validator and its delegator", node)
	return out
}
