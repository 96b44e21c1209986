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
