package webhooks

import (
	"encoding/json"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// validatorSubEvents is the SDK's ValidatorActivitySubEvent.
func validatorSubEvents() []string {
	return []string{webhookdata.SubValidatorStake, webhookdata.SubDelegatorStake, webhookdata.SubValidatorRewardDistribution,
		webhookdata.SubL1ValidatorBalanceIncreased, webhookdata.SubL1ValidatorDisabled, webhookdata.SubL1ValidatorRemoved,
		webhookdata.SubL1ValidatorBalanceThreshold}
}

// parseValidatorActivity reads the members of a ValidatorActivityRequest.
// Validators live on the P-chain, which the webhook watches (the request
// names no chain; the reply's chainId is the P-chain's).
func (s *server) parseValidatorActivity(fields map[string]json.RawMessage, h *webhookdata.Webhook) error {
	var err error
	if h.Network, err = s.parseNetwork(fields); err != nil {
		return err
	}
	p, followed := s.Network().Chain(netinfo.P)
	if !followed {
		return api.BadRequest("validator_activity webhooks need the P-chain, which this node does not follow")
	}
	h.Chain, h.ChainID = netinfo.P, p.BlockchainID.String()
	meta, err := object(fields, "", fieldMetadata, true, []string{fieldEventSignatures, fieldKeyType, fieldKeys,
		fieldSubEvents, fieldNodeIDs, fieldSubnetIDs, fieldL1ValidatorFeeBalanceThreshold})
	if err != nil {
		return err
	}
	if h.Metadata.EventSignatures, err = eventSignatures(meta); err != nil {
		return err
	}
	keyTypes := []string{webhookdata.KeyTypeNodeID, webhookdata.KeyTypeSubnetID}
	keyType, err := requiredString(meta, whereMetadata, fieldKeyType, "one of "+api.QuoteList(keyTypes))
	if err != nil {
		return err
	}
	if keyType != webhookdata.KeyTypeNodeID && keyType != webhookdata.KeyTypeSubnetID {
		return api.BadRequest("invalid %s%s '%s': must be one of %s", whereMetadata, fieldKeyType, api.Truncate(keyType), api.QuoteList(keyTypes))
	}
	h.Metadata.KeyType = keyType
	keys, err := stringList(meta, whereMetadata, fieldKeys)
	if err != nil {
		return err
	}
	if len(keys) != 1 {
		return api.BadRequest("invalid %s%s: has %d keys; a validator_activity webhook takes exactly one %s", whereMetadata, fieldKeys, len(keys), keyType)
	}
	if keyType == webhookdata.KeyTypeNodeID {
		err = checkNodeIDs(keys, whereMetadata+fieldKeys)
	} else {
		err = checkSubnetIDs(keys, whereMetadata+fieldKeys)
	}
	if err != nil {
		return err
	}
	h.Metadata.Keys = keys
	if h.Metadata.ValidatorActivitySubEvents, err = subEvents(meta, fieldValidatorActivitySubEvents, validatorSubEvents()); err != nil {
		return err
	}
	if h.Metadata.NodeIDs, err = stringList(meta, whereMetadata, fieldNodeIDs); err != nil {
		return err
	}
	if err := checkNodeIDs(h.Metadata.NodeIDs, whereMetadata+fieldNodeIDs); err != nil {
		return err
	}
	if h.Metadata.SubnetIDs, err = stringList(meta, whereMetadata, fieldSubnetIDs); err != nil {
		return err
	}
	if err := checkSubnetIDs(h.Metadata.SubnetIDs, whereMetadata+fieldSubnetIDs); err != nil {
		return err
	}
	if len(h.Metadata.NodeIDs)+len(h.Metadata.SubnetIDs) > s.cfg.MaxAddresses {
		return api.BadRequest("invalid %s: %s and %s have %d entries together, at most %d are allowed (webhooks.maxAddresses)",
			fieldMetadata, fieldNodeIDs, fieldSubnetIDs, len(h.Metadata.NodeIDs)+len(h.Metadata.SubnetIDs), s.cfg.MaxAddresses)
	}
	h.Metadata.L1ValidatorFeeBalanceThreshold, err = amountField(meta, whereMetadata, fieldL1ValidatorFeeBalanceThreshold)
	return err
}

func checkNodeIDs(list []string, where string) error {
	for _, k := range list {
		if _, err := ids.NodeIDFromString(k); err != nil {
			return api.BadRequest("invalid %s entry '%s': not a node ID such as 'NodeID-...'", where, api.Truncate(k))
		}
	}
	return nil
}

func checkSubnetIDs(list []string, where string) error {
	for _, k := range list {
		if _, err := ids.FromString(k); err != nil {
			return api.BadRequest("invalid %s entry '%s': not a subnet ID (cb58)", where, api.Truncate(k))
		}
	}
	return nil
}
