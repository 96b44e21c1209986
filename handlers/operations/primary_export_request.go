package operations

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/operations/exportjob"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The primary-network kinds of postTransactionExportJob
// (CreatePrimaryNetworkTransactionExportRequest): options are
// PrimaryNetworkOptions, addresses (X/P-chain, this network's) and
// cChainEvmAddresses (0x, the C-chain side of atomic txs) together 1 to
// exportjob.MaxAddresses, and includeChains (p-chain, x-chain, c-chain or
// their blockchain IDs). The export holds the txs of those chains that
// involve any of the addresses (exportjob/primary.go).

// Field of PrimaryNetworkOptions beyond addresses and includeChains.
const fieldCChainEVMAddresses = "cChainEvmAddresses"

// primaryExportKinds maps the OpenAPI's primary-network types to the
// runner's kinds.
func primaryExportKinds() map[string]exportjob.PrimaryKind {
	return map[string]exportjob.PrimaryKind{
		"TRANSACTION_EXPORT_PRIMARY_NETWORK":         exportjob.PrimaryAll,
		"TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING": exportjob.PrimaryStaking,
		"TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE":  exportjob.PrimarySimple,
	}
}

// operationTypeOf is the OperationType of an export.
func operationTypeOf(spec exportjob.Spec) string {
	for name, kind := range primaryExportKinds() {
		if kind == spec.Primary && kind != 0 {
			return name
		}
	}
	return operationTypeEVMExport
}

// parsePrimaryExportOptions reads PrimaryNetworkOptions into p.
func (s *server) parsePrimaryExportOptions(raw json.RawMessage, p *exportjob.Plan) error {
	allowed := []string{fieldAddresses, fieldCChainEVMAddresses, fieldIncludeChains}
	if raw == nil || string(raw) == "null" {
		return api.BadRequest("options is required: {\"%s\": [X/P-chain addresses], \"%s\": [0x addresses], \"%s\": [p-chain, x-chain, c-chain]}",
			fieldAddresses, fieldCChainEVMAddresses, fieldIncludeChains)
	}
	var opts map[string]json.RawMessage
	if err := json.Unmarshal(raw, &opts); err != nil {
		return api.BadRequest("invalid options: must be an object with %s", api.QuoteList(allowed))
	}
	for name := range opts {
		if !slices.Contains(allowed, name) {
			return api.BadRequest("unknown field 'options.%s': allowed fields are %s", api.Truncate(name), api.QuoteList(allowed))
		}
	}
	node := s.Network()
	var bech, evm []string
	var err error
	if opts[fieldAddresses] != nil && string(opts[fieldAddresses]) != "null" {
		if bech, err = stringList(opts, fieldAddresses, exportjob.MaxAddresses); err != nil {
			return err
		}
	}
	if opts[fieldCChainEVMAddresses] != nil && string(opts[fieldCChainEVMAddresses]) != "null" {
		if evm, err = stringList(opts, fieldCChainEVMAddresses, exportjob.MaxAddresses); err != nil {
			return err
		}
	}
	for i, a := range bech {
		b, err := api.ParsePrimaryAddress(a, node.HRP())
		if err != nil {
			return api.BadRequest("invalid options.%s[%d] '%s': %s", fieldAddresses, i, api.Truncate(a), err)
		}
		addPrimaryAddress(p, ids.ShortID(b))
	}
	for i, a := range evm {
		addr, err := api.ParseEVMAddress(fmt.Sprintf("options.%s[%d]", fieldCChainEVMAddresses, i), a)
		if err != nil {
			return err
		}
		addPrimaryAddress(p, ids.ShortID(common.Address(addr)))
	}
	if n := len(p.PrimaryAddresses); n == 0 || n > exportjob.MaxAddresses {
		return api.BadRequest("options.%s and options.%s together must hold 1 to %d addresses; they hold %d",
			fieldAddresses, fieldCChainEVMAddresses, exportjob.MaxAddresses, n)
	}
	chains, err := stringList(opts, fieldIncludeChains, 3)
	if err != nil {
		return err
	}
	primary := []netinfo.Chain{netinfo.P, netinfo.X, netinfo.C}
	for i, c := range chains {
		chain, err := api.ResolvePrimaryBlockchain(c, node, primary)
		var apiErr *api.Error
		if errors.As(err, &apiErr) { // it names the value as a blockchainId
			return api.NewError(apiErr.Status, "options.%s[%d]: %s", fieldIncludeChains, i, apiErr.Message)
		}
		if err != nil {
			return err
		}
		if !slices.Contains(p.PrimaryChains, chain) {
			p.PrimaryChains = append(p.PrimaryChains, chain)
		}
	}
	return nil
}

func addPrimaryAddress(p *exportjob.Plan, a ids.ShortID) {
	if !slices.Contains(p.PrimaryAddresses, a) {
		p.PrimaryAddresses = append(p.PrimaryAddresses, a)
	}
}
