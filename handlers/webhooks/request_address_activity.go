package webhooks

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// parseAddressActivity reads the members of an EVMAddressActivityRequest:
// the EVM chain (any form the EVM routes take; kept as its EVM chain ID),
// the addresses and event signatures, and what a payload includes.
func (s *server) parseAddressActivity(fields map[string]json.RawMessage, h *webhookdata.Webhook) error {
	chain, err := requiredString(fields, "", fieldChainID, "the EVM chain ID of a chain this node follows")
	if err != nil {
		return err
	}
	ci, err := api.ResolveEVMChain(chain, s.Network())
	if err != nil {
		return err
	}
	h.Chain, h.ChainID = ci.Chain, strconv.FormatUint(ci.EVMChainID, 10)
	if h.IncludeLogs, _, err = boolField(fields, fieldIncludeLogs); err != nil {
		return err
	}
	if h.IncludeInternalTxs, _, err = boolField(fields, fieldIncludeInternalTxs); err != nil {
		return err
	}
	meta, err := object(fields, "", fieldMetadata, true, []string{fieldEventSignatures, fieldAddresses})
	if err != nil {
		return err
	}
	if h.Metadata.EventSignatures, err = eventSignatures(meta); err != nil {
		return err
	}
	list, err := stringList(meta, whereMetadata, fieldAddresses)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return api.BadRequest("%s%s is required: 1 to %d EVM addresses (0x and 40 hex digits)", whereMetadata, fieldAddresses, s.cfg.MaxAddresses)
	}
	if h.Metadata.Addresses, err = s.evmAddresses(nil, list, whereMetadata+fieldAddresses); err != nil {
		return err
	}
	return nil
}

// evmAddresses adds list's addresses to have, lower case and each once,
// and checks the total against maxAddresses.
func (s *server) evmAddresses(have, list []string, where string) ([]string, error) {
	seen := make(map[string]bool, len(have)+len(list))
	for _, a := range have {
		seen[a] = true
	}
	out := have
	for _, a := range list {
		if !isEVMAddress(a) {
			return nil, api.BadRequest("invalid %s entry '%s': an EVM address is 0x and 40 hex digits", where, api.Truncate(a))
		}
		a = strings.ToLower(a)
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	if len(out) > s.cfg.MaxAddresses {
		return nil, api.BadRequest("invalid %s: the webhook would watch %d addresses, at most %d are allowed (webhooks.maxAddresses)",
			where, len(out), s.cfg.MaxAddresses)
	}
	return out, nil
}

// isEVMAddress reports whether a is 0x and 40 hex digits (either case;
// the checksum of mixed case is not checked: a watch list only compares).
func isEVMAddress(a string) bool {
	if len(a) != 42 || (a[:2] != "0x" && a[:2] != "0X") {
		return false
	}
	for _, c := range a[2:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
