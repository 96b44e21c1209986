package webhooks

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/utils/formatting/address"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// primaryNetworkSubEvents is the SDK's
// PrimaryNetworkAddressActivitySubEventType.
func primaryNetworkSubEvents() []string {
	return []string{webhookdata.SubBalanceChange, webhookdata.SubBalanceThreshold, webhookdata.SubRewardDistribution}
}

// balanceTypes is the SDK's CommonBalanceType.
func balanceTypes() []string {
	return []string{"unlockedUnstaked", "unlockedStaked", "lockedPlatform", "lockedStakeable", "lockedStaked",
		"pendingStaked", "unlocked", "locked", "atomicMemoryUnlocked", "atomicMemoryLocked"}
}

// parsePrimaryNetworkAddressActivity reads the members of a
// PrimaryNetworkAddressActivityRequest: network, the watched chain,
// the addresses, the sub-events and the balance threshold.
func (s *server) parsePrimaryNetworkAddressActivity(fields map[string]json.RawMessage, h *webhookdata.Webhook) error {
	var err error
	if h.Network, err = s.parseNetwork(fields); err != nil {
		return err
	}
	id, err := requiredString(fields, "", fieldChainID, "the P-, X- or C-chain's blockchain ID (or P, X, C)")
	if err != nil {
		return err
	}
	ci, err := s.resolvePrimaryChain(id)
	if err != nil {
		return err
	}
	h.Chain, h.ChainID = ci.Chain, ci.BlockchainID.String()
	meta, err := object(fields, "", fieldMetadata, true, []string{fieldEventSignatures, fieldKeyType, fieldKeys,
		fieldSubEvents, fieldBalanceThresholdFilter})
	if err != nil {
		return err
	}
	if h.Metadata.EventSignatures, err = eventSignatures(meta); err != nil {
		return err
	}
	keyType, err := requiredString(meta, whereMetadata, fieldKeyType, "'"+webhookdata.KeyTypeAddresses+"'")
	if err != nil {
		return err
	}
	if keyType != webhookdata.KeyTypeAddresses {
		return api.BadRequest("invalid %s%s '%s': must be '%s'", whereMetadata, fieldKeyType, api.Truncate(keyType),
			webhookdata.KeyTypeAddresses)
	}
	h.Metadata.KeyType = keyType
	if h.Metadata.Keys, err = s.primaryAddresses(meta); err != nil {
		return err
	}
	if h.Metadata.AddressActivitySubEvents, err = subEvents(meta, fieldAddressActivitySubEvents, primaryNetworkSubEvents()); err != nil {
		return err
	}
	if h.Metadata.BalanceThresholdFilter, err = balanceThresholdFilter(meta, h.Chain); err != nil {
		return err
	}
	subs := h.Metadata.AddressActivitySubEvents
	if slices.Contains(subs, webhookdata.SubBalanceThreshold) && h.Metadata.BalanceThresholdFilter == nil {
		return api.BadRequest("%s%s is required with the sub-event '%s'", whereMetadata, fieldBalanceThresholdFilter,
			webhookdata.SubBalanceThreshold)
	}
	// Staking rewards are paid on the P-chain alone: on another chain the
	// sub-event would never fire.
	if slices.Contains(subs, webhookdata.SubRewardDistribution) && h.Chain != netinfo.P {
		return api.BadRequest("invalid %s%s entry '%s': staking rewards are paid on the P-chain only",
			whereMetadata, fieldAddressActivitySubEvents, webhookdata.SubRewardDistribution)
	}
	return nil
}

// primaryAddresses reads metadata.keys: bech32 addresses of the node's
// network, with or without a chain prefix, each once (by its 20 bytes).
func (s *server) primaryAddresses(meta map[string]json.RawMessage) ([]string, error) {
	where := whereMetadata + fieldKeys
	list, err := stringList(meta, whereMetadata, fieldKeys)
	if err != nil {
		return nil, err
	}
	hrp := s.Network().HRP()
	if len(list) == 0 {
		return nil, api.BadRequest("%s is required: 1 to %d addresses such as 'P-%s1...' or '%s1...'", where, s.cfg.MaxAddresses, hrp, hrp)
	}
	if len(list) > s.cfg.MaxAddresses {
		return nil, api.BadRequest("invalid %s: has %d addresses, at most %d are allowed (webhooks.maxAddresses)", where, len(list), s.cfg.MaxAddresses)
	}
	seen := make(map[[20]byte]bool, len(list))
	var out []string
	for _, key := range list {
		bare := key
		if i := strings.IndexByte(key, '-'); i >= 0 {
			if prefix := key[:i]; !slices.Contains([]string{"P", "X", "C"}, prefix) {
				return nil, api.BadRequest("invalid %s entry '%s': the chain prefix must be P-, X- or C-", where, api.Truncate(key))
			}
			bare = key[i+1:]
		}
		got, raw, err := address.ParseBech32(bare)
		if err != nil || len(raw) != 20 {
			return nil, api.BadRequest("invalid %s entry '%s': not a bech32 address such as '%s1...'", where, api.Truncate(key), hrp)
		}
		if got != hrp {
			return nil, api.BadRequest("invalid %s entry '%s': it is an address of '%s', this node's network uses '%s'",
				where, api.Truncate(key), got, hrp)
		}
		short := [20]byte(raw)
		if !seen[short] {
			seen[short] = true
			out = append(out, key)
		}
	}
	return out, nil
}

// subEvents reads metadata.subEvents.<name>: a non-empty list from valid.
func subEvents(meta map[string]json.RawMessage, name string, valid []string) ([]string, error) {
	sub, err := object(meta, whereMetadata, fieldSubEvents, true, []string{name})
	if err != nil {
		return nil, err
	}
	where := whereMetadata + fieldSubEvents + "."
	list, err := stringList(sub, where, name)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, api.BadRequest("%s is required: one or more of %s", where+name, api.QuoteList(valid))
	}
	var out []string
	for _, e := range list {
		if !slices.Contains(valid, e) {
			return nil, api.BadRequest("invalid %s entry '%s': must be one of %s", where+name, api.Truncate(e), api.QuoteList(valid))
		}
		out = appendOnce(out, e)
	}
	return out, nil
}

// balanceThresholdFilter reads metadata.balanceThresholdFilter, nil when
// absent. Its balance type must be one chain's own txs move both ways.
func balanceThresholdFilter(meta map[string]json.RawMessage, chain netinfo.Chain) (*webhookdata.BalanceThresholdFilter, error) {
	obj, err := object(meta, whereMetadata, fieldBalanceThresholdFilter, false, []string{fieldBalanceType, fieldBalanceThreshold})
	if err != nil || obj == nil {
		return nil, err
	}
	where := whereMetadata + fieldBalanceThresholdFilter + "."
	kind, err := requiredString(obj, where, fieldBalanceType, "one of "+api.QuoteList(balanceTypes()))
	if err != nil {
		return nil, err
	}
	if !slices.Contains(balanceTypes(), kind) {
		return nil, api.BadRequest("invalid %s '%s': must be one of %s", where+fieldBalanceType, api.Truncate(kind), api.QuoteList(balanceTypes()))
	}
	if _, ok := webhookdata.ThresholdCategory(chain, kind); !ok {
		var watchable []string
		for _, t := range balanceTypes() {
			if _, ok := webhookdata.ThresholdCategory(chain, t); ok {
				watchable = append(watchable, t)
			}
		}
		if len(watchable) == 0 {
			return nil, api.BadRequest("invalid %s '%s': no balance of the %s-chain can be watched with a threshold "+
				"(its atomic memory only grows by another chain's export)", where+fieldBalanceType, kind, chain)
		}
		return nil, api.BadRequest("invalid %s '%s': on the %s-chain it must be one of %s", where+fieldBalanceType, kind,
			chain, api.QuoteList(watchable))
	}
	threshold, err := amountField(obj, where, fieldBalanceThreshold)
	if err == nil && threshold == "" {
		err = api.BadRequest("%s is required: an amount in nAVAX, as a decimal string", where+fieldBalanceThreshold)
	}
	if err != nil {
		return nil, err
	}
	return &webhookdata.BalanceThresholdFilter{BalanceType: kind, BalanceThreshold: threshold}, nil
}
