package store

import (
	"slices"
	"strconv"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"

	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// validator_activity events of staking txs, and reward_distribution for the
// watched addresses of primary_network_address_activity webhooks. The P
// writer calls these from the staker writes (stakerwrite.go) in the
// block's tx order; the L1 validator events are in webhookl1.go.

// validatorHooks returns the validator_activity webhooks of cw that want
// sub about a validator of node on subnet: those keyed by the node (and,
// when they list subnetIds, one of them is subnet) and those keyed by the
// subnet (and, when they list nodeIds, one of them is node). In webhook ID
// order, each once.
func validatorHooks(cw *webhookdata.ChainWatches, node ids.NodeID, subnet ids.ID, sub string) []*webhookdata.Webhook {
	var out []*webhookdata.Webhook
	add := func(h *webhookdata.Webhook, narrowedBy []string, is func(string) bool) {
		if !h.WantsSubEvent(sub) || slices.Contains(out, h) {
			return
		}
		if len(narrowedBy) > 0 && !slices.ContainsFunc(narrowedBy, is) {
			return
		}
		out = append(out, h)
	}
	for _, h := range cw.Nodes[node] {
		add(h, h.Metadata.SubnetIDs, func(s string) bool { id, err := ids.FromString(s); return err == nil && id == subnet })
	}
	for _, h := range cw.Subnets[subnet] {
		add(h, h.Metadata.NodeIDs, func(s string) bool { id, err := ids.NodeIDFromString(s); return err == nil && id == node })
	}
	slices.SortFunc(out, func(a, b *webhookdata.Webhook) int { return slices.Compare(a.ID[:], b.ID[:]) })
	return out
}

// watchesValidators returns the P-chain's watches when a validator_activity
// webhook watches it, else nil (the writers' fast path).
func (w *blockTxn) watchesValidators() *webhookdata.ChainWatches {
	cw := w.webhookWatches()
	if cw == nil || len(cw.Nodes)+len(cw.Subnets) == 0 {
		return nil
	}
	return cw
}

// validatorEventBase is the members every validator event of block at has.
func validatorEventBase(h *webhookdata.Webhook, sub string, at txPlace, node ids.NodeID, subnet ids.ID) webhookdata.ValidatorEventBase {
	return webhookdata.ValidatorEventBase{SubEvent: sub, ChainID: h.ChainID, BlockHeight: at.pos.Height,
		BlockHash: at.block.String(), BlockTimestamp: at.time, NodeID: node.String(), SubnetID: subnet.String()}
}

// emitStakeEvents sends validator_stake or delegator_stake for the staker
// tx adds.
func emitStakeEvents(txn *blockTxn, at txPlace, tx *pdata.Tx) error {
	cw := txn.watchesValidators()
	if cw == nil {
		return nil
	}
	st := tx.Staker
	sub := webhookdata.SubValidatorStake
	if st.Delegator {
		sub = webhookdata.SubDelegatorStake
	}
	for _, h := range validatorHooks(cw, st.NodeID, st.Subnet, sub) {
		e := webhookdata.StakeEvent{ValidatorEventBase: validatorEventBase(h, sub, at, st.NodeID, st.Subnet),
			StakingTxHash: tx.ID.String(), StartTimestamp: st.Start, EndTimestamp: st.End,
			AmountStaked: strconv.FormatUint(st.Weight, 10), RewardAddresses: txn.ownerAddresses(st.RewardsOwner)}
		e.TxHash, e.TxType = tx.ID.String(), tx.Type
		if !st.Delegator && st.Subnet == constants.PrimaryNetworkID {
			e.DelegationFee = strconv.FormatFloat(float64(st.DelegationShares)/10_000, 'f', -1, 64)
		}
		if err := txn.emitWebhookEvent(h, at.pos.Height, e); err != nil {
			return err
		}
	}
	return nil
}

// stakerReward is what a RewardValidatorTx paid of one reward type.
type stakerReward struct {
	rewardType string
	amount     uint64
	owners     addrSet
}

// rewardsByType totals tx's reward UTXOs by type: the staker's own type
// first (VALIDATOR or DELEGATOR, listed with 0 when the tx paid none: an
// aborted reward, or one too small), then the others as the tx lists them.
func rewardsByType(tx *pdata.Tx, delegator bool) []*stakerReward {
	own := pdata.RewardValidator
	if delegator {
		own = pdata.RewardDelegator
	}
	out := []*stakerReward{{rewardType: own}}
	for i := range tx.Produced {
		u := &tx.Produced[i]
		if u.Kind != pdata.KindReward {
			continue
		}
		j := slices.IndexFunc(out, func(r *stakerReward) bool { return r.rewardType == u.RewardType })
		if j < 0 {
			j = len(out)
			out = append(out, &stakerReward{rewardType: u.RewardType})
		}
		out[j].amount += u.Amount
		out[j].owners.add(u.Owners.Addrs...)
	}
	return out
}

// emitRewardEvents sends reward_distribution for the staker a
// RewardValidatorTx ends (s, when the index holds it: known) to the validator
// webhooks of its node and subnet, and for each reward UTXO to the
// primary-network webhooks watching one of its owners.
func emitRewardEvents(txn *blockTxn, at txPlace, tx *pdata.Tx, s *pdata.IndexedStaker, known bool) error {
	cw := txn.webhookWatches()
	if cw == nil {
		return nil
	}
	node, subnet, delegator := tx.NodeID, constants.PrimaryNetworkID, false
	if known {
		node, subnet, delegator = s.Staker.NodeID, s.Staker.Subnet, s.Staker.Delegator
	}
	sub := webhookdata.SubValidatorRewardDistribution
	if hooks := validatorHooks(cw, node, subnet, sub); len(hooks) > 0 {
		rewards := rewardsByType(tx, delegator)
		for _, h := range hooks {
			for _, r := range rewards {
				e := webhookdata.RewardEvent{ValidatorEventBase: validatorEventBase(h, sub, at, node, subnet),
					StakingTxHash: tx.RewardOf.String(), RewardType: r.rewardType, Amount: strconv.FormatUint(r.amount, 10),
					RewardAddresses: txn.addresses(r.owners.list), Committed: tx.Outcome == pdata.OutcomeCommit}
				e.TxHash, e.TxType = tx.ID.String(), tx.Type
				if err := txn.emitWebhookEvent(h, at.pos.Height, e); err != nil {
					return err
				}
			}
		}
	}
	return emitAddressRewards(txn, cw, at, tx, node)
}

// emitAddressRewards sends the primary-network reward_distribution events
// of tx's reward UTXOs: one per UTXO and watched owner.
func emitAddressRewards(txn *blockTxn, cw *webhookdata.ChainWatches, at txPlace, tx *pdata.Tx, node ids.NodeID) error {
	if len(cw.Addresses) == 0 {
		return nil
	}
	for i := range tx.Produced {
		u := &tx.Produced[i]
		if u.Kind != pdata.KindReward {
			continue
		}
		var owners addrSet
		owners.add(u.Owners.Addrs...)
		for _, addr := range owners.list {
			for _, h := range cw.Addresses[addr] {
				if !h.WantsSubEvent(webhookdata.SubRewardDistribution) {
					continue
				}
				head := primaryEventHead(h.ChainID, at, tx)
				head.SubEvent, head.Address = webhookdata.SubRewardDistribution, keyNaming(h, addr)
				e := webhookdata.PrimaryRewardEvent{PrimaryEventHead: head, RewardType: u.RewardType,
					Amount: strconv.FormatUint(u.Amount, 10), AssetID: u.Asset.String(), UTXOID: u.ID.String(),
					NodeID: node.String(), StakingTxHash: tx.RewardOf.String()}
				if err := txn.emitWebhookEvent(h, at.pos.Height, e); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ownerAddresses are o's addresses in bech32 (none: an empty list).
func (w *blockTxn) ownerAddresses(o *pdata.Owners) []string {
	if o == nil {
		return []string{}
	}
	return w.addresses(o.Addrs)
}

// addresses writes addrs in bech32 with the network's prefix and no chain
// prefix, as the Data API lists reward addresses.
func (w *blockTxn) addresses(addrs []ids.ShortID) []string {
	hrp := w.s.network().HRP
	if hrp == "" {
		hrp = constants.FallbackHRP
	}
	out := make([]string, 0, len(addrs))
	for _, a := range addrs {
		s, err := address.FormatBech32(hrp, a[:])
		if err != nil {
			s = a.String() // cannot happen for 20 bytes
		}
		out = append(out, s)
	}
	return out
}
