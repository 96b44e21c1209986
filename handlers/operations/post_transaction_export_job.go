package operations

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/operations/exportjob"
	"github.com/avadata/avadata/indexer/netinfo"
)

// maxExportBodyBytes bounds the body: ten addresses and a few chains take
// under 1 KiB.
const maxExportBodyBytes = 16 << 10

// Fields of the body (CreateEvmTransactionExportRequest; startDate and
// endDate are the deprecated names of firstDate and lastDate) and of its
// options (EvmNetworkOptions).
const (
	fieldType          = "type"
	fieldFirstDate     = "firstDate"
	fieldLastDate      = "lastDate"
	fieldStartDate     = "startDate"
	fieldEndDate       = "endDate"
	fieldOptions       = "options"
	fieldAddresses     = "addresses"
	fieldIncludeChains = "includeChains"
)

// The OpenAPI's export types: the EVM one, and the primary-network ones
// (CreatePrimaryNetworkTransactionExportRequest, primary_export_request.go).
func primaryNetworkExportTypes() []string {
	return []string{"TRANSACTION_EXPORT_PRIMARY_NETWORK", "TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING",
		"TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE"}
}

func exportBodyFields() []string {
	return []string{fieldType, fieldFirstDate, fieldLastDate, fieldStartDate, fieldEndDate, fieldOptions}
}

// parsePostTransactionExportJobRequest reads the body strictly (one JSON
// object, only the fields above, null as absent) into a plan.
func (s *server) parsePostTransactionExportJobRequest(r *http.Request) (exportjob.Plan, error) {
	var p exportjob.Plan
	fields, err := api.ReadJSONObject(r, maxExportBodyBytes, exportBodyFields())
	if err != nil {
		return p, err
	}
	kind, err := api.StringField(fields, fieldType)
	if err != nil {
		return p, err
	}
	types := append([]string{operationTypeEVMExport}, primaryNetworkExportTypes()...)
	switch {
	case kind == operationTypeEVMExport:
	case slices.Contains(primaryNetworkExportTypes(), kind):
		p.Primary = primaryExportKinds()[kind]
	case kind == "":
		return p, api.BadRequest("type is required: one of %s", api.QuoteList(types))
	default:
		return p, api.BadRequest("invalid type '%s': must be one of %s", api.Truncate(kind), api.QuoteList(types))
	}
	if p.FirstDay, err = dateField(fields, fieldFirstDate, fieldStartDate); err != nil {
		return p, err
	}
	if p.LastDay, err = dateField(fields, fieldLastDate, fieldEndDate); err != nil {
		return p, err
	}
	if p.FirstDay != nil && p.LastDay != nil && p.LastDay.Before(*p.FirstDay) {
		return p, api.BadRequest("invalid %s %s: it is before %s %s", fieldLastDate, p.LastDay.Format(time.DateOnly),
			fieldFirstDate, p.FirstDay.Format(time.DateOnly))
	}
	if p.Primary != 0 {
		return p, s.parsePrimaryExportOptions(fields[fieldOptions], &p)
	}
	if p.Chains, p.Addresses, err = s.parseExportOptions(fields[fieldOptions]); err != nil {
		return p, err
	}
	return p, nil
}

// dateField reads a YYYY-MM-DD date (a UTC day) given under name or its
// deprecated alias; nil when neither is.
func dateField(fields map[string]json.RawMessage, name, alias string) (*time.Time, error) {
	s, err := api.StringField(fields, name)
	if err != nil {
		return nil, err
	}
	old, err := api.StringField(fields, alias)
	if err != nil {
		return nil, err
	}
	if s != "" && old != "" {
		return nil, api.BadRequest("give %s or its deprecated name %s, not both", name, alias)
	}
	if s == "" {
		s, name = old, alias
	}
	if s == "" {
		return nil, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return nil, api.BadRequest("invalid %s '%s': must be a date YYYY-MM-DD (a UTC day)", name, api.Truncate(s))
	}
	return &t, nil
}

// parseExportOptions reads options: its addresses (1..MaxAddresses EVM
// addresses) and includeChains (1..MaxChains EVM chains this node follows,
// each as its EVM chain id, blockchain ID or c-chain). Repeats count once.
func (s *server) parseExportOptions(raw json.RawMessage) ([]netinfo.ChainInfo, []common.Address, error) {
	if raw == nil || string(raw) == "null" {
		return nil, nil, api.BadRequest("options is required: {\"%s\": [EVM addresses], \"%s\": [EVM chain ids]}",
			fieldAddresses, fieldIncludeChains)
	}
	var opts map[string]json.RawMessage
	if err := json.Unmarshal(raw, &opts); err != nil {
		return nil, nil, api.BadRequest("invalid options: must be an object with %s and %s", fieldAddresses, fieldIncludeChains)
	}
	for name := range opts {
		if name != fieldAddresses && name != fieldIncludeChains {
			return nil, nil, api.BadRequest("unknown field 'options.%s': allowed fields are %s",
				api.Truncate(name), api.QuoteList([]string{fieldAddresses, fieldIncludeChains}))
		}
	}
	rawAddrs, err := stringList(opts, fieldAddresses, exportjob.MaxAddresses)
	if err != nil {
		return nil, nil, err
	}
	var addrs []common.Address
	for i, a := range rawAddrs {
		addr, err := api.ParseEVMAddress(fmt.Sprintf("options.%s[%d]", fieldAddresses, i), a)
		if err != nil {
			return nil, nil, err
		}
		if !slices.Contains(addrs, addr) {
			addrs = append(addrs, addr)
		}
	}
	rawChains, err := stringList(opts, fieldIncludeChains, exportjob.MaxChains)
	if err != nil {
		return nil, nil, err
	}
	var chains []netinfo.ChainInfo
	for i, c := range rawChains {
		ci, err := api.ResolveEVMChain(c, s.Network())
		var apiErr *api.Error
		if errors.As(err, &apiErr) { // it names the value as a chainId
			return nil, nil, api.NewError(apiErr.Status, "options.%s[%d]: %s", fieldIncludeChains, i, apiErr.Message)
		}
		if err != nil {
			return nil, nil, err
		}
		if !slices.ContainsFunc(chains, func(have netinfo.ChainInfo) bool { return have.Chain == ci.Chain }) {
			chains = append(chains, ci)
		}
	}
	return chains, addrs, nil
}

// stringList reads a required array of 1..maxItems strings.
func stringList(opts map[string]json.RawMessage, name string, maxItems int) ([]string, error) {
	var list []string
	raw := opts[name]
	if raw == nil || string(raw) == "null" {
		return nil, api.BadRequest("options.%s is required: an array of 1 to %d strings", name, maxItems)
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, api.BadRequest("invalid options.%s: must be an array of strings", name)
	}
	if len(list) == 0 || len(list) > maxItems {
		return nil, api.BadRequest("invalid options.%s: has %d entries, must have 1 to %d", name, len(list), maxItems)
	}
	return list, nil
}

// servePostTransactionExportJob starts an export and answers 201 with
// its state (RUNNING). Only a client with an API key may: an export makes
// the node work for it.
func (s *server) servePostTransactionExportJob(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	if err := api.RequireAPIKey(r, routePostTransactionExportJob); err != nil {
		return err
	}
	plan, err := s.parsePostTransactionExportJobRequest(r)
	if err != nil {
		return err
	}
	if s.exports == nil || (plan.Primary != 0 && !s.exports.ServesPrimary()) {
		return s.NotServedYet(r)
	}
	for _, ci := range plan.Chains {
		s.ReadsStream(heights, api.EVMChainStream(ci))
	}
	for _, chain := range plan.PrimaryChains {
		s.ReadsChain(heights, chain)
	}
	spec, err := s.exports.Spec(r.Context(), plan)
	if err != nil {
		return err
	}
	job, err := s.exports.Create(r.Context(), spec)
	if err != nil {
		return jobError("", err)
	}
	api.WriteJSON(w, http.StatusCreated, statusResponse(r, job))
	return nil
}
