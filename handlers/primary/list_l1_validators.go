package primary

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/l1Validators (listL1Validators): the L1
// validations (added by ConvertSubnetToL1Tx or RegisterL1ValidatorTx) as
// they stand, in validation ID order; by default only the active ones (a
// balance left to pay the continuous fee), with
// includeInactiveL1Validators also those disabled, run dry or removed
// (weight 0). Filters: l1ValidationId, nodeId, subnetId.
//
// Where the values come from:
//   - node, subnet, creation time, BLS key and owners: the creating tx;
//   - weight: the last tx that set it (the creating tx, then each
//     SetL1ValidatorWeightTx; 0 once removed);
//   - remainingBalance and whether it is active: the index's L1 fee state
//     after its last P-chain block, as platformvm computes a balance
//     (EndAccumulatedFee less the accrued fees); blockHeight is that
//     block. An index that does not know the fee state (it did not follow
//     the P-chain from genesis) reads the balances from the node instead
//     (platform.getCurrentValidators of each subnet involved, which lists
//     every L1 validator with a weight; one it does not list is removed),
//     and answers 503 when the node cannot tell.
//
// Paging: the token carries the last validation ID. The listing shows the
// state when each page is read: a validation that changes between pages
// shows its new state on the page that holds it.

// Query parameters of listL1Validators (l1ValidationId: paramL1ValidationID).
const (
	paramIncludeInactiveL1Validators = "includeInactiveL1Validators"
	paramNodeIDSingle                = api.ParamNodeID
)

// l1ValidatorDetailsFull is the OpenAPI's L1ValidatorDetailsFull; its
// blsCredentials is an object of unspecified members (required here).
type l1ValidatorDetailsFull struct {
	ValidationID          string       `json:"validationId"`
	ValidationIDHex       string       `json:"validationIdHex"`
	NodeID                string       `json:"nodeId"`
	SubnetID              string       `json:"subnetId"`
	Weight                uint64       `json:"weight"`
	RemainingBalance      uint64       `json:"remainingBalance"`
	CreationTimestamp     int64        `json:"creationTimestamp"`
	BLSCredentials        any          `json:"blsCredentials"` // *blsCredentials or emptyBLSCredentials
	RemainingBalanceOwner balanceOwner `json:"remainingBalanceOwner"`
	DeactivationOwner     balanceOwner `json:"deactivationOwner"`
}

// emptyBLSCredentials stands for the required blsCredentials object of a
// validation whose key the index does not hold: its members are optional.
type emptyBLSCredentials struct{}

// balanceOwner is the OpenAPI's BalanceOwner.
type balanceOwner struct {
	Addresses []string `json:"addresses"`
	Threshold uint32   `json:"threshold"`
}

// listL1ValidatorsResponse is the OpenAPI's ListL1ValidatorsResponse.
type listL1ValidatorsResponse struct {
	Validators    []l1ValidatorDetailsFull `json:"validators"`
	BlockHeight   string                   `json:"blockHeight"`
	NextPageToken string                   `json:"nextPageToken,omitempty"`
}

// listL1ValidatorsRequest is the validated input of
// GET /v1/networks/{network}/l1Validators.
type listL1ValidatorsRequest struct {
	ValidationID    *ids.ID
	IncludeInactive bool
	NodeID          *ids.NodeID
	SubnetID        *ids.ID
	Page            api.Page
}

func (s *server) parseListL1ValidatorsRequest(r *http.Request, heights *api.Heights) (listL1ValidatorsRequest, error) {
	var req listL1ValidatorsRequest
	var err error
	if err = api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return req, err
	}
	s.ReadsChain(heights, netinfo.P) // L1 validations are the P-chain's
	q := r.URL.Query()
	filters := make([]string, 4)
	if raw := q.Get(paramL1ValidationID); raw != "" {
		id, err := api.ParseHexOrCB58ID(paramL1ValidationID, raw)
		if err != nil {
			return req, err
		}
		req.ValidationID, filters[0] = &id, id.String()
	}
	if req.IncludeInactive, err = api.ParseBool(q, paramIncludeInactiveL1Validators, false); err != nil {
		return req, err
	}
	filters[1] = fmt.Sprint(req.IncludeInactive)
	if raw := q.Get(paramNodeIDSingle); raw != "" {
		node, err := api.ParseNodeID(paramNodeIDSingle, raw)
		if err != nil {
			return req, err
		}
		req.NodeID, filters[2] = &node, node.String()
	}
	if raw := q.Get(paramSubnetID); raw != "" {
		id, err := api.ParseCB58ID(paramSubnetID, raw)
		if err != nil {
			return req, err
		}
		req.SubnetID, filters[3] = &id, id.String()
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListL1Validators, false), filters...)
	return req, err
}

func (s *server) serveListL1Validators(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListL1ValidatorsRequest(r, heights)
	if err != nil {
		return err
	}
	reader, err := s.stakingReader()
	if err != nil {
		return err
	}
	after, err := api.ResumeAfter(req.Page, decodeValidationID)
	if err != nil {
		return err
	}
	ctx := r.Context()
	q := pdata.L1ValidationQuery{Subnet: req.SubnetID, NodeID: req.NodeID}
	if req.ValidationID != nil {
		q.IDs = []ids.ID{*req.ValidationID}
	}
	set, err := reader.L1Validations(ctx, q)
	if err != nil {
		return fmt.Errorf("listing L1 validations: %w", err)
	}
	if !set.FeesKnown {
		if err := s.liveL1Balances(ctx, set.Validations); err != nil {
			return err
		}
	}
	var page []ids.ID
	for i := range set.Validations {
		v := &set.Validations[i]
		if (req.IncludeInactive || v.Active) && (after == nil || v.ValidationID.Compare(*after) > 0) {
			page = append(page, v.ValidationID)
		}
	}
	page, more := api.TrimPage(page, req.Page.Size)
	state := make(map[ids.ID]*pdata.IndexedL1Validation, len(page))
	for i := range set.Validations {
		state[set.Validations[i].ValidationID] = &set.Validations[i]
	}
	resp := listL1ValidatorsResponse{Validators: make([]l1ValidatorDetailsFull, 0, len(page)), BlockHeight: api.FormatUint(set.Height)}
	if more {
		last := page[len(page)-1]
		if resp.NextPageToken, err = s.NextPageToken(req.Page, 0, last[:]); err != nil {
			return err
		}
	}
	if len(page) == 0 {
		api.WriteJSON(w, http.StatusOK, resp)
		return nil
	}
	details, err := reader.L1Validations(ctx, pdata.L1ValidationQuery{IDs: page, WithTx: true})
	if err != nil {
		return fmt.Errorf("reading the page's L1 validations: %w", err)
	}
	shapes := &shaper{node: s.Network(), chain: netinfo.P}
	for i := range details.Validations {
		d := &details.Validations[i]
		// Weight and balance as the listing decided them.
		if st, ok := state[d.ValidationID]; ok {
			d.Weight, d.Active, d.Balance = st.Weight, st.Active, st.Balance
		}
		resp.Validators = append(resp.Validators, shapes.l1ValidatorFull(d))
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

func decodeValidationID(b []byte) (ids.ID, bool) {
	id, err := ids.ToID(b)
	return id, err == nil
}

// liveL1Balances sets the weight, balance and activity of validations from
// the node's current validators of their subnets.
func (s *server) liveL1Balances(ctx context.Context, validations []pdata.IndexedL1Validation) error {
	if s.platform == nil {
		return api.NewError(http.StatusServiceUnavailable, "L1 validator balances are not known: the index lacks the L1 fee state and %v", errNoPlatform)
	}
	var subnets []ids.ID
	for i := range validations {
		if !slices.Contains(subnets, validations[i].Subnet) {
			subnets = append(subnets, validations[i].Subnet)
		}
	}
	type liveL1 struct{ weight, balance uint64 }
	live := map[ids.ID]liveL1{}
	for _, subnet := range subnets {
		vals, err := s.platform.SubnetValidators(ctx, subnet)
		if err != nil {
			return api.NewError(http.StatusServiceUnavailable,
				"L1 validator balances are not known: the index lacks the L1 fee state and the node's validators of subnet %s cannot be read: %v", subnet, err)
		}
		for _, v := range vals {
			if v.ValidationID != nil {
				l := liveL1{weight: v.Weight}
				if v.Balance != nil {
					l.balance = *v.Balance
				}
				live[*v.ValidationID] = l
			}
		}
	}
	for i := range validations {
		v := &validations[i]
		l := live[v.ValidationID] // not listed: removed
		v.Weight, v.WeightKnown, v.Balance, v.Active = l.weight, true, l.balance, l.balance > 0
	}
	return nil
}

// l1ValidatorFull shapes one L1 validation.
func (v *shaper) l1ValidatorFull(d *pdata.IndexedL1Validation) l1ValidatorDetailsFull {
	out := l1ValidatorDetailsFull{
		ValidationID:          d.ValidationID.String(),
		ValidationIDHex:       hexID(d.ValidationID),
		NodeID:                d.NodeID.String(),
		SubnetID:              d.Subnet.String(),
		Weight:                d.Weight,
		RemainingBalance:      d.Balance,
		CreationTimestamp:     d.CreationTime,
		BLSCredentials:        emptyBLSCredentials{},
		RemainingBalanceOwner: balanceOwner{Addresses: []string{}},
		DeactivationOwner:     balanceOwner{Addresses: []string{}},
	}
	if c := d.Creation; c != nil {
		if len(c.BLSPublicKey) > 0 {
			out.BLSCredentials = &blsCredentials{PublicKey: hexBytes(c.BLSPublicKey), ProofOfPossession: hexBytes(c.BLSProofOfPossession)}
		}
		out.RemainingBalanceOwner = v.balanceOwner(c.RemainingBalanceOwner)
		out.DeactivationOwner = v.balanceOwner(c.DeactivationOwner)
	}
	return out
}

func (v *shaper) balanceOwner(o *pdata.Owners) balanceOwner {
	if o == nil {
		return balanceOwner{Addresses: []string{}}
	}
	return balanceOwner{Addresses: v.addresses(o.Addrs), Threshold: o.Threshold}
}
