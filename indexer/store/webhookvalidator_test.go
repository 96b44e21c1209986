package store

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

const testPChainID = "11111111111111111111111111111111LpoYY"

var allValidatorSubEvents = []string{
	webhookdata.SubValidatorStake, webhookdata.SubDelegatorStake, webhookdata.SubValidatorRewardDistribution,
	webhookdata.SubL1ValidatorBalanceIncreased, webhookdata.SubL1ValidatorDisabled, webhookdata.SubL1ValidatorRemoved,
	webhookdata.SubL1ValidatorBalanceThreshold,
}

// validatorHook creates an active validator_activity webhook on P with
// events from height 1 on.
func validatorHook(t *testing.T, s *Store, n byte, keyType, key string, meta webhookdata.Metadata) webhookdata.Webhook {
	t.Helper()
	meta.KeyType, meta.Keys = keyType, []string{key}
	if meta.ValidatorActivitySubEvents == nil {
		meta.ValidatorActivitySubEvents = allValidatorSubEvents
	}
	h, err := s.CreateWebhook(context.Background(), webhookdata.Webhook{ID: webhookdata.ID{n}, EventType: webhookdata.ValidatorActivity,
		Chain: netinfo.P, ChainID: testPChainID, Status: webhookdata.Active, FromHeight: 1, Metadata: meta})
	require.NoError(t, err)
	return h
}

// hookEvents are the events waiting in h's outbox, decoded, in order.
func hookEvents(t *testing.T, s *Store, h webhookdata.Webhook) []map[string]any {
	t.Helper()
	out, err := s.Outbox(context.Background(), h.ID, 1000)
	require.NoError(t, err)
	events := make([]map[string]any, 0, len(out))
	for _, e := range out {
		var env struct {
			WebhookID string         `json:"webhookId"`
			EventType string         `json:"eventType"`
			MessageID string         `json:"messageId"`
			Event     map[string]any `json:"event"`
		}
		require.NoError(t, json.Unmarshal(e.Body, &env))
		require.Equal(t, h.ID.String(), env.WebhookID)
		require.Equal(t, string(h.EventType), env.EventType)
		require.Equal(t, webhookdata.MessageID(h.ID, h.ChainID, e.Height, e.Seq), env.MessageID)
		require.Equal(t, float64(e.Height), env.Event["blockHeight"])
		require.Equal(t, h.ChainID, env.Event["chainId"])
		events = append(events, env.Event)
	}
	return events
}

// summary is an event's sub-event with the members a test names.
func summary(e map[string]any, members ...string) []any {
	out := []any{e["subEvent"], e["blockHeight"]}
	for _, m := range members {
		out = append(out, e[m])
	}
	return out
}

func summaries(events []map[string]any, members ...string) [][]any {
	out := make([][]any, len(events))
	for i, e := range events {
		out[i] = summary(e, members...)
	}
	return out
}

func bech32(t *testing.T, a ids.ShortID) string {
	t.Helper()
	s, err := address.FormatBech32(constants.FallbackHRP, a[:])
	require.NoError(t, err)
	return s
}

// Staking events: stakers added by node and by subnet (primary network
// narrowed to one node), rewards by type (an aborted reward pays 0), an
// aborted staking proposal gives nothing, a webhook begins at its height,
// and a primary-network webhook hears of its addresses' reward UTXOs.
func TestWebhookValidatorStakingEvents(t *testing.T) {
	sf := newStakingFixture()
	s := openStaking(t, sf)
	byNode := validatorHook(t, s, 1, webhookdata.KeyTypeNodeID, nV.String(), webhookdata.Metadata{})
	primaryG1 := validatorHook(t, s, 2, webhookdata.KeyTypeSubnetID, constants.PrimaryNetworkID.String(),
		webhookdata.Metadata{NodeIDs: []string{nG1.String()}})
	subnetStakes := validatorHook(t, s, 3, webhookdata.KeyTypeSubnetID, subnetS.String(),
		webhookdata.Metadata{ValidatorActivitySubEvents: []string{webhookdata.SubValidatorStake}})
	nodeOnS2 := validatorHook(t, s, 4, webhookdata.KeyTypeNodeID, nV.String(), webhookdata.Metadata{SubnetIDs: []string{subnetS2.String()}})
	aborted := validatorHook(t, s, 5, webhookdata.KeyTypeNodeID, nX.String(), webhookdata.Metadata{})
	rewards, err := s.CreateWebhook(context.Background(), webhookdata.Webhook{ID: webhookdata.ID{6},
		EventType: webhookdata.PrimaryNetworkAddressActivity, Chain: netinfo.P, ChainID: testPChainID,
		Status: webhookdata.Active, FromHeight: 1, Metadata: webhookdata.Metadata{KeyType: webhookdata.KeyTypeAddresses,
			Keys:                     []string{"P-" + bech32(t, addrF), bech32(t, addrDel)},
			AddressActivitySubEvents: []string{webhookdata.SubRewardDistribution}}})
	require.NoError(t, err)
	writeP(t, s, sf.before)
	late := validatorHook(t, s, 7, webhookdata.KeyTypeNodeID, nV.String(), webhookdata.Metadata{})
	require.Equal(t, uint64(7), late.FromHeight, "the next block")
	writeP(t, s, sf.after)

	ev := hookEvents(t, s, byNode)
	require.Equal(t, [][]any{
		{"validator_stake", 1.0, sf.sv0.ID.String(), nil},
		{"validator_stake", 2.0, sf.v.ID.String(), nil},
		{"delegator_stake", 4.0, sf.d1.ID.String(), nil},
		{"validator_stake", 4.0, sf.sv.ID.String(), nil},
		{"validator_stake", 4.0, sf.svo.ID.String(), nil},
		{"delegator_stake", 5.0, sf.d2.ID.String(), nil},
		{"reward_distribution", 7.0, sf.d1.ID.String(), "DELEGATOR"},
		{"reward_distribution", 7.0, sf.d1.ID.String(), "VALIDATOR_FEE"},
		{"reward_distribution", 9.0, sf.d2.ID.String(), "DELEGATOR"},
		{"reward_distribution", 10.0, sf.v.ID.String(), "VALIDATOR"},
		{"reward_distribution", 10.0, sf.v.ID.String(), "VALIDATOR_FEE"},
	}, summaries(ev, "stakingTxHash", "rewardType"))
	v := ev[1]
	require.Equal(t, map[string]any{"subEvent": "validator_stake", "chainId": testPChainID, "blockHeight": 2.0,
		"blockHash": ids.ID{'B', 2}.String(), "blockTimestamp": 1900.0, "txHash": sf.v.ID.String(),
		"txType": "AddPermissionlessValidatorTx", "nodeId": nV.String(), "subnetId": constants.PrimaryNetworkID.String(),
		"stakingTxHash": sf.v.ID.String(), "startTimestamp": 2000.0, "endTimestamp": 50000.0, "amountStaked": "3000",
		"delegationFee": "5", "rewardAddresses": []any{bech32(t, addrV)}}, v)
	require.NotContains(t, ev[2], "delegationFee", "delegators take no fee")
	require.Equal(t, []any{"30", []any{bech32(t, addrDel)}, true}, []any{ev[6]["amount"], ev[6]["rewardAddresses"], ev[6]["committed"]})
	require.Equal(t, []any{"7", []any{bech32(t, addrF)}}, []any{ev[7]["amount"], ev[7]["rewardAddresses"]})
	require.Equal(t, []any{"0", []any{}, false, sf.rD2.ID.String(), "RewardValidatorTx"},
		[]any{ev[8]["amount"], ev[8]["rewardAddresses"], ev[8]["committed"], ev[8]["txHash"], ev[8]["txType"]},
		"an aborted reward pays the delegator nothing")
	require.Equal(t, "100", ev[9]["amount"])

	require.Equal(t, [][]any{{"delegator_stake", 6.0, sf.d4.ID.String()}}, summaries(hookEvents(t, s, primaryG1), "stakingTxHash"),
		"primary-network stakers of nG1 only (no genesis: events begin at height 1; no subnet validators)")
	require.Equal(t, [][]any{{"validator_stake", 1.0, nV.String()}, {"validator_stake", 4.0, nV.String()}, {"validator_stake", 4.0, nG1.String()}},
		summaries(hookEvents(t, s, subnetStakes), "nodeId"))
	require.Equal(t, [][]any{{"validator_stake", 4.0, sf.svo.ID.String()}}, summaries(hookEvents(t, s, nodeOnS2), "stakingTxHash"))
	require.Empty(t, hookEvents(t, s, aborted), "an aborted staking proposal adds no staker")
	require.Equal(t, [][]any{{"reward_distribution", 7.0, "DELEGATOR"}, {"reward_distribution", 7.0, "VALIDATOR_FEE"},
		{"reward_distribution", 9.0, "DELEGATOR"}, {"reward_distribution", 10.0, "VALIDATOR"},
		{"reward_distribution", 10.0, "VALIDATOR_FEE"}}, summaries(hookEvents(t, s, late), "rewardType"),
		"a webhook created after block 6 hears of nothing before block 7")

	pn := hookEvents(t, s, rewards)
	require.Equal(t, [][]any{
		{"reward_distribution", 7.0, bech32(t, addrDel), sf.d1Reward.ID.String(), "DELEGATOR", "30"},
		{"reward_distribution", 7.0, "P-" + bech32(t, addrF), sf.d1Fee.ID.String(), "VALIDATOR_FEE", "7"},
		{"reward_distribution", 10.0, "P-" + bech32(t, addrF), sf.vFee.ID.String(), "VALIDATOR_FEE", "12"},
	}, summaries(pn, "address", "utxoId", "rewardType", "amount"))
	require.Equal(t, map[string]any{"subEvent": "reward_distribution", "chainId": testPChainID, "blockHeight": 7.0,
		"blockHash": ids.ID{'B', 7}.String(), "blockTimestamp": 20000.0, "txHash": sf.rD1.ID.String(), "txType": "RewardValidatorTx",
		"address": bech32(t, addrDel), "rewardType": "DELEGATOR", "amount": "30", "assetId": avax.String(),
		"utxoId": sf.d1Reward.ID.String(), "nodeId": nV.String(), "stakingTxHash": sf.d1.ID.String()}, pn[0])
}

// L1 validator events against the fee state (price 3 nAVAX a second, from
// genesis time G): top-ups, a threshold of 600 crossed twice (a top-up
// lifts it back above in between) and never by a validator registered below
// it, implicit deactivations at a time advance and after the txs (no tx),
// a disable and a removal; webhooks by node, by subnet narrowed to nodes,
// and by node narrowed to another subnet. The outboxes do not depend on how
// the blocks were batched into commits.
func TestWebhookValidatorL1Events(t *testing.T) {
	const g = l1Day0 + 100
	sL, sOther := ids.ID{'s', 'L'}, ids.ID{'s', 'O'}
	nA, nB, nC, nD := ids.NodeID{0xA}, ids.NodeID{0xB}, ids.NodeID{0xC}, ids.NodeID{0xD}
	vA, vB, vC, vD := ids.ID{'v', 'A'}, ids.ID{'v', 'B'}, ids.ID{'v', 'C'}, ids.ID{'v', 'D'}
	blocks := [][]*pdata.Tx{
		// 1 (G+10): A 1000, B 2 (below a second's fee: out after the txs).
		{l1Tx(1, "ConvertSubnetToL1Tx",
			pdata.L1Validator{ValidationID: vA, NodeID: nA, Subnet: sL, Weight: 5, Balance: 1000},
			pdata.L1Validator{ValidationID: vB, NodeID: nB, Subnet: sL, Weight: 6, Balance: 2})},
		// 2 (G+110): A 1000-300+50 = 750; C 10000; D 30 (10 s).
		{l1Tx(2, "IncreaseL1ValidatorBalanceTx", pdata.L1Validator{ValidationID: vA, BalanceChange: 50}),
			l1Tx(3, "RegisterL1ValidatorTx", pdata.L1Validator{ValidationID: vC, NodeID: nC, Subnet: sL, Weight: 7, Balance: 10000}),
			l1Tx(4, "RegisterL1ValidatorTx", pdata.L1Validator{ValidationID: vD, NodeID: nD, Subnet: sL, Weight: 8, Balance: 30})},
		// 3 (G+160): A 600, not below; D ran out at the advance.
		nil,
		// 4 (G+161): A 597, crossed.
		nil,
		// 5 (G+170): A 570, still below.
		nil,
		// 6 (G+171): A 567+100 = 667.
		{l1Tx(5, "IncreaseL1ValidatorBalanceTx", pdata.L1Validator{ValidationID: vA, BalanceChange: 100})},
		// 7 (G+200): A 580, crossed again.
		nil,
		// 8 (G+210): A disabled with 550; C removed with 10000-300.
		{l1Tx(6, "DisableL1ValidatorTx", pdata.L1Validator{ValidationID: vA}),
			l1Tx(7, "SetL1ValidatorWeightTx", pdata.L1Validator{ValidationID: vC, Weight: 0})},
	}
	times := []int64{10, 110, 160, 161, 170, 171, 200, 210}
	var pblocks []*pdata.Block
	for i, txs := range blocks {
		pblocks = append(pblocks, &pdata.Block{Number: uint64(i + 1), ID: ids.ID{'B', byte(i + 1)}, Timestamp: g + times[i],
			Type: "BanffStandardBlock", AdvancesTime: true, Durango: true, Txs: txs})
	}
	type hooks struct{ byNode, narrowed, otherSubnet, removed, pn webhookdata.Webhook }
	open := func() (*Store, hooks) {
		s, _ := openL1Store(t)
		var hs hooks
		hs.byNode = validatorHook(t, s, 1, webhookdata.KeyTypeNodeID, nA.String(),
			webhookdata.Metadata{L1ValidatorFeeBalanceThreshold: "600"})
		hs.narrowed = validatorHook(t, s, 2, webhookdata.KeyTypeSubnetID, sL.String(), webhookdata.Metadata{
			NodeIDs: []string{nB.String(), nD.String()}, L1ValidatorFeeBalanceThreshold: "600"})
		hs.otherSubnet = validatorHook(t, s, 3, webhookdata.KeyTypeNodeID, nC.String(), webhookdata.Metadata{SubnetIDs: []string{sOther.String()}})
		hs.removed = validatorHook(t, s, 4, webhookdata.KeyTypeNodeID, nC.String(),
			webhookdata.Metadata{ValidatorActivitySubEvents: []string{webhookdata.SubL1ValidatorRemoved}})
		return s, hs
	}
	s, hs := open()
	for _, b := range pblocks {
		writeP(t, s, []*pdata.Block{b})
	}
	batched, bhs := open()
	writeP(t, batched, pblocks)

	members := []string{"validationId", "balance", "amount", "weight", "txType"}
	require.Equal(t, [][]any{
		{"l1_validator_balance_increased", 2.0, vA.String(), "750", "50", "5", "IncreaseL1ValidatorBalanceTx"},
		{"l1_validator_balance_threshold", 4.0, vA.String(), "597", nil, "5", nil},
		{"l1_validator_balance_increased", 6.0, vA.String(), "667", "100", "5", "IncreaseL1ValidatorBalanceTx"},
		{"l1_validator_balance_threshold", 7.0, vA.String(), "580", nil, "5", nil},
		{"l1_validator_disabled", 8.0, vA.String(), "550", nil, "5", "DisableL1ValidatorTx"},
	}, summaries(hookEvents(t, s, hs.byNode), members...))
	require.Equal(t, [][]any{
		{"l1_validator_disabled", 1.0, vB.String(), "2", nil, "6", nil},
		{"l1_validator_disabled", 3.0, vD.String(), "0", nil, "8", nil},
	}, summaries(hookEvents(t, s, hs.narrowed), members...), "implicit deactivations, none of A or C, no threshold for D")
	require.Empty(t, hookEvents(t, s, hs.otherSubnet))
	removed := hookEvents(t, s, hs.removed)
	require.Equal(t, [][]any{{"l1_validator_removed", 8.0, vC.String(), "9700", nil, "0", "SetL1ValidatorWeightTx"}},
		summaries(removed, members...))
	require.Equal(t, map[string]any{"subEvent": "l1_validator_removed", "chainId": testPChainID, "blockHeight": 8.0,
		"blockHash": ids.ID{'B', 8}.String(), "blockTimestamp": float64(g + 210), "txHash": ids.ID{'L', 7}.String(),
		"txType": "SetL1ValidatorWeightTx", "nodeId": nC.String(), "subnetId": sL.String(), "validationId": vC.String(),
		"balance": "9700", "weight": "0"}, removed[0])
	implicit := hookEvents(t, s, hs.narrowed)[0]
	require.NotContains(t, implicit, "txHash")
	require.NotContains(t, implicit, "txType")

	for _, pair := range [][2]webhookdata.Webhook{{hs.byNode, bhs.byNode}, {hs.narrowed, bhs.narrowed}, {hs.removed, bhs.removed}} {
		one, err := s.Outbox(context.Background(), pair[0].ID, 100)
		require.NoError(t, err)
		all, err := batched.Outbox(context.Background(), pair[1].ID, 100)
		require.NoError(t, err)
		require.Equal(t, one, all, "webhook %s", pair[0].ID)
	}
}
