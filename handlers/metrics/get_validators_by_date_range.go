package metrics

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/gorilla/mux"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// routeValidatorsByDateRange names getValidatorsByDateRange in page
// tokens, metrics and logs.
const routeValidatorsByDateRange = "getValidatorsByDateRange"

// pChainLookingGlassResponse is the body of getValidatorsByDateRange (the
// SDK's PChainLookingGlassResponse).
type pChainLookingGlassResponse struct {
	NextPageToken string                 `json:"nextPageToken,omitempty"`
	Addresses     []pChainAddressDetails `json:"addresses"`
}

// pChainAddressDetails is one validation: the addresses that receive its
// validation rewards (P-chain bech32) and its start time as a decimal
// string (the SDK wants a string).
type pChainAddressDetails struct {
	Addresses []string `json:"addresses"`
	SortKey   string   `json:"sortKey"`
}

func validatorsByDateRangePaging() api.Paging {
	return api.Paging{Route: routeValidatorsByDateRange, Size: api.MetricsAddressesPageSize(), MaxAge: api.MetricsPageTokenLifetime}
}

// serveValidatorsByDateRange handles GET
// {metrics_url}/v2/subnets/{subnetId}/validators:getAddresses
// (getValidatorsByDateRange): "addresses and AddValidatorTx timestamps set
// to receive awards for validation periods during the time frame". One item
// per validation of the subnet's validators whose period (start to end, or
// to its removal) overlaps startTimestamp..endTimestamp and that names
// validation reward addresses (permissioned subnet and L1 validators name
// none), in start order; sortKey is its start. network, when given, must
// name the node's network.
func (s *server) serveValidatorsByDateRange(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	subnet, err := api.ParseCB58ID(paramSubnetID, mux.Vars(r)[paramSubnetID])
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if _, ok := q[api.ParamNetwork]; ok {
		if err := api.ResolveNetwork(q.Get(api.ParamNetwork), s.Network()); err != nil {
			return err
		}
	}
	tr, err := parseMetricsRange(q)
	if err != nil {
		return err
	}
	from, to := int64(0), int64(maxMetricsTimestamp)
	if tr.Start.Set {
		from = tr.Start.Value
	}
	if tr.End.Set {
		to = tr.End.Value
	}
	s.ReadsChain(heights, netinfo.P)
	pg, err := s.ParsePage(r.Context(), heights, q, validatorsByDateRangePaging(), subnet.String(),
		strconv.FormatInt(from, 10), strconv.FormatInt(to, 10))
	if err != nil {
		return err
	}
	var after *pdata.StakerPos
	if !pg.First {
		id, err := ids.ToID(pg.Token.Extra)
		if err != nil {
			return api.BadRequest("invalid pageToken: it names no validation")
		}
		after = &pdata.StakerPos{Start: pg.Token.Position, TxID: id}
	}
	list, known, err := s.reader.ValidatorRewardAddresses(r.Context(), subnet, from, to, after, pg.Size+1)
	if err != nil {
		return fmt.Errorf("listing the validators of subnet %s: %w", subnet, err)
	}
	if !known {
		return api.NotFound("subnet %s not found", subnet)
	}
	list, hasMore := api.TrimPage(list, pg.Size)
	hrp := s.Network().HRP()
	resp := pChainLookingGlassResponse{Addresses: make([]pChainAddressDetails, len(list))}
	for i, v := range list {
		addrs := make([]string, len(v.Addresses))
		for j, a := range v.Addresses {
			if addrs[j], err = address.Format("P", hrp, a[:]); err != nil {
				return fmt.Errorf("formatting address %s: %w", a, err)
			}
		}
		resp.Addresses[i] = pChainAddressDetails{Addresses: addrs, SortKey: strconv.FormatInt(v.Start, 10)}
	}
	if hasMore {
		last := list[len(list)-1]
		if resp.NextPageToken, err = s.NextPageToken(pg, last.Start, last.TxID[:]); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
