package primary

import (
	"net/url"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
)

// primaryNetworkTxTypes is the PrimaryNetworkTxType enum of the hosted API,
// in its order.
func primaryNetworkTxTypes() []string {
	return []string{
		"AddValidatorTx", "AddSubnetValidatorTx", "AddDelegatorTx", "CreateChainTx", "CreateSubnetTx",
		"ImportTx", "ExportTx", "AdvanceTimeTx", "RewardValidatorTx", "RemoveSubnetValidatorTx",
		"TransformSubnetTx", "AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx", "BaseTx",
		"TransferSubnetOwnershipTx", "ConvertSubnetToL1Tx", "RegisterL1ValidatorTx", "SetL1ValidatorWeightTx",
		"DisableL1ValidatorTx", "IncreaseL1ValidatorBalanceTx", "UNKNOWN", "CreateAssetTx", "OperationTx",
	}
}

// parseTxTypes reads txTypes, given as repeated keys (the SDK's form),
// comma-separated, or both. Names match case-insensitively and come back in
// their canonical spelling, without duplicates, in the order given.
func parseTxTypes(q url.Values) ([]string, error) {
	var out []string
	for _, raw := range q[api.ParamTxTypes] {
		for item := range strings.SplitSeq(raw, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			i := slices.IndexFunc(primaryNetworkTxTypes(), func(t string) bool { return strings.EqualFold(t, item) })
			if i < 0 {
				return nil, api.BadRequest("invalid %s '%s': each must be one of %s",
					api.ParamTxTypes, api.Truncate(item), api.QuoteList(primaryNetworkTxTypes()))
			}
			if canonical := primaryNetworkTxTypes()[i]; !slices.Contains(out, canonical) {
				out = append(out, canonical)
			}
		}
	}
	return out, nil
}

// joinNodeIDs renders node IDs for a filter hash.
func joinNodeIDs(nodeIDs []ids.NodeID) string {
	parts := make([]string, len(nodeIDs))
	for i, id := range nodeIDs {
		parts[i] = id.String()
	}
	return strings.Join(parts, ",")
}
