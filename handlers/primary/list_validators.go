package primary

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/validators (listValidators): every validation
// the index holds (of the primary network and of subnets, as
// getSingleValidatorDetails shows them, each in the variant of its status
// now), filtered and sorted as the query asks.
//
// The listing filters and sorts every validator row of the index in memory
// (the rows are read once per indexed P-chain height, validator_rows.go),
// and shapes only the page: a validation's live state (the
// active variant's uptime, delegations, potential rewards) is read from the
// node for the page's active primary-network validations only, as
// getSingleValidatorDetails reads it. The filters and sort keys that need
// live state of every candidate (uptime, delegation capacity) read the
// node's current validators once (cached for liveSetTTL).
//
// Filters (each optional; absent means no filter, the hosted API's
// documented defaults for fee and uptime are not applied unasked):
//   - nodeIds: substrings; a validation matches when its node ID contains
//     any of them.
//   - subnetId, validationStatus: as their names say.
//   - min/maxTimeRemaining: end time minus now in seconds (0 once ended).
//   - min/maxFeePercentage: the delegation fee; validations that take no
//     delegations (permissioned subnet validators) never match.
//   - min/maxDelegationCapacity: what an active primary-network validator
//     can still take in delegations (see delegationCapacity); others never
//     match.
//   - min/maxUptimePerformance: the node's uptime of an active
//     primary-network validator; others (and validators the node has no
//     uptime for) never match.
//
// Sorting (sortBy, sortOrder; default blockIndex, desc): blockIndex is the
// staking tx's place (block height, then tx ID); timeRemaining sorts by end
// time (the same order, and stable from page to page); delegationFee,
// delegationCapacity and uptimePerformance by their values, with the
// validations that have none last in either order. Ties break by tx ID.
// The page token carries the last item's sort key and tx ID; keys that move
// between pages (capacity, uptime) can move a validation across the cut.

// Query parameters of listValidators.
const (
	paramMinDelegationCapacity = "minDelegationCapacity"
	paramMaxDelegationCapacity = "maxDelegationCapacity"
	paramMinTimeRemaining      = "minTimeRemaining"
	paramMaxTimeRemaining      = "maxTimeRemaining"
	paramMinFeePercentage      = "minFeePercentage"
	paramMaxFeePercentage      = "maxFeePercentage"
	paramMinUptimePerformance  = "minUptimePerformance"
	paramMaxUptimePerformance  = "maxUptimePerformance"
)

// Values of sortBy (the OpenAPI's SortByOption).
const (
	sortByBlockIndex         = "blockIndex"
	sortByDelegationCapacity = "delegationCapacity"
	sortByTimeRemaining      = "timeRemaining"
	sortByDelegationFee      = "delegationFee"
	sortByUptimePerformance  = "uptimePerformance"
)

func validatorSortKeys() []string {
	return []string{sortByBlockIndex, sortByDelegationCapacity, sortByTimeRemaining, sortByDelegationFee, sortByUptimePerformance}
}

// maxDelegationCapacityParam is the largest delegation capacity the
// parameters accept (the OpenAPI's bound, in nAVAX).
const maxDelegationCapacityParam = 720_000_000_000_000_000

// listValidatorsRequest is the validated input of
// GET /v1/networks/{network}/validators.
type listValidatorsRequest struct {
	NodeIDParts        []string // substrings of node IDs
	SubnetID           *ids.ID
	ValidationStatus   string // one of validationStatuses, "" for all
	DelegationCapacity floatRange
	TimeRemaining      floatRange
	FeePercentage      floatRange
	UptimePerformance  floatRange
	SortBy             string
	Page               api.Page
}

// needsLiveSet says whether the request filters or sorts by what only the
// node's current validators tell.
func (req *listValidatorsRequest) needsLiveSet() bool {
	return req.DelegationCapacity.set() || req.UptimePerformance.set() ||
		req.SortBy == sortByDelegationCapacity || req.SortBy == sortByUptimePerformance
}

func (s *server) parseListValidatorsRequest(r *http.Request, heights *api.Heights) (listValidatorsRequest, error) {
	var req listValidatorsRequest
	var err error
	if err = api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return req, err
	}
	s.ReadsChain(heights, netinfo.P) // staking data is the P-chain's
	q := r.URL.Query()
	if req.NodeIDParts, err = api.ParseList(q, api.ParamNodeIDs, api.MaxListEntries, validateNodeIDPart); err != nil {
		return req, err
	}
	if raw := q.Get(paramSubnetID); raw != "" {
		id, err := api.ParseCB58ID(paramSubnetID, raw)
		if err != nil {
			return req, err
		}
		req.SubnetID = &id
	}
	if req.ValidationStatus, err = api.ParseEnum(q, api.ParamValidationStatus, validationStatuses()); err != nil {
		return req, err
	}
	if req.SortBy, err = api.ParseEnum(q, paramSortBy, validatorSortKeys()); err != nil {
		return req, err
	}
	if req.SortBy == "" {
		req.SortBy = sortByBlockIndex
	}
	for _, f := range []struct {
		r          *floatRange
		min, max   string
		lo, hi     float64
		integer    bool
		what, unit string
	}{
		{&req.DelegationCapacity, paramMinDelegationCapacity, paramMaxDelegationCapacity, 0, maxDelegationCapacityParam, true, "an integer", " nAVAX"},
		{&req.TimeRemaining, paramMinTimeRemaining, paramMaxTimeRemaining, 0, math.MaxInt32, false, "a number", " seconds"},
		{&req.FeePercentage, paramMinFeePercentage, paramMaxFeePercentage, 2, 100, false, "a number", " (percent)"},
		{&req.UptimePerformance, paramMinUptimePerformance, paramMaxUptimePerformance, 0, 100, false, "a number", " (percent)"},
	} {
		if *f.r, err = parseFloatRange(q, f.min, f.max, f.lo, f.hi, f.integer, f.what+f.unit); err != nil {
			return req, err
		}
	}
	subnet := ""
	if req.SubnetID != nil {
		subnet = req.SubnetID.String()
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListValidators, true),
		strings.Join(req.NodeIDParts, ","), subnet, req.ValidationStatus, req.SortBy,
		req.DelegationCapacity.String(), req.TimeRemaining.String(), req.FeePercentage.String(), req.UptimePerformance.String())
	return req, err
}

// validateNodeIDPart accepts a node ID or a part of one: cb58 characters,
// with "NodeID-" or a part of it in front.
func validateNodeIDPart(s string) error {
	const maxLen = 60 // longer than any node ID
	if len(s) > maxLen {
		return fmt.Errorf("is too long: want a node ID or a part of one, e.g. NodeID-111111111111111111116DBWJs or 6DBWJs")
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-') {
			return fmt.Errorf("has %q: want a node ID or a part of one (letters, digits and '-'), e.g. 6DBWJs", c)
		}
	}
	return nil
}

func (s *server) serveListValidators(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListValidatorsRequest(r, heights)
	if err != nil {
		return err
	}
	ctx := r.Context()
	now := s.Now().Unix()
	page, token, err := s.listValidatorPage(ctx, &req, heights, now)
	if err != nil {
		return err
	}
	// The page's stakers again, now with what the index derives for each
	// (delegations, fees), which the filters did not need.
	filled, err := s.fillStakers(ctx, page)
	if err != nil {
		return err
	}
	live := s.liveValidations(ctx, filled, now)
	shapes := &shaper{node: s.Network(), chain: netinfo.P}
	resp := listValidatorsResponse{Validators: make([]any, 0, len(filled)), NextPageToken: token}
	for i := range filled {
		resp.Validators = append(resp.Validators, shapes.validatorDetails(&filled[i], now, live))
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// listValidatorPage selects, sorts and cuts one page of req; it returns
// the page's stakers as the listing read them and the next page's token.
func (s *server) listValidatorPage(ctx context.Context, req *listValidatorsRequest, heights *api.Heights, now int64) ([]pdata.IndexedStaker, string, error) {
	after, err := api.ResumeAfter(req.Page, decodeValidatorPos)
	if err != nil {
		return nil, "", err
	}
	stakers, err := s.validatorRows.get(ctx, s, heights)
	if err != nil {
		return nil, "", err
	}
	var liveSet map[ids.ID]platformvm.ClientPermissionlessValidator
	if req.needsLiveSet() {
		if liveSet, err = s.liveSet.get(ctx, s); err != nil {
			return nil, "", api.NewError(http.StatusServiceUnavailable,
				"the node's current validators cannot be read, and the uptime and delegation capacity filters and sorts need them: %v", err)
		}
	}
	cands := make([]validatorCandidate, 0, len(stakers))
	for i := range stakers {
		c := validatorCandidate{st: &stakers[i]}
		if !req.keeps(&c, liveSet, s.Network().NetworkID, now) {
			continue
		}
		cands = append(cands, c)
	}
	desc := req.Page.Order == api.SortDesc
	slices.SortFunc(cands, func(a, b validatorCandidate) int { return a.pos.compare(b.pos, desc) })
	start := 0
	if after != nil {
		start, _ = slices.BinarySearchFunc(cands, *after, func(c validatorCandidate, p validatorPos) int {
			if c.pos.compare(p, desc) <= 0 {
				return -1
			}
			return 1
		})
	}
	cands, more := api.TrimPage(cands[start:], req.Page.Size)
	out := make([]pdata.IndexedStaker, len(cands))
	for i := range cands {
		out[i] = *cands[i].st
	}
	if !more {
		return out, "", nil
	}
	last := cands[len(cands)-1].pos
	token, err := s.NextPageToken(req.Page, int64(last.key), last.encode())
	return out, token, err
}

// validatorCandidate is a validation the listing met, with its sort
// position once the filters kept it.
type validatorCandidate struct {
	st  *pdata.IndexedStaker
	pos validatorPos
}

// keeps checks c against every filter of req, and sets its sort position.
func (req *listValidatorsRequest) keeps(c *validatorCandidate, liveSet map[ids.ID]platformvm.ClientPermissionlessValidator, networkID uint32, now int64) bool {
	st := c.st
	if req.ValidationStatus != "" && st.Status(now) != req.ValidationStatus {
		return false
	}
	if req.SubnetID != nil && st.Staker.Subnet != *req.SubnetID {
		return false
	}
	if len(req.NodeIDParts) > 0 {
		node := st.Staker.NodeID.String()
		if !slices.ContainsFunc(req.NodeIDParts, func(part string) bool { return strings.Contains(node, part) }) {
			return false
		}
	}
	if req.TimeRemaining.set() && !req.TimeRemaining.holds(float64(max(st.Staker.End-now, 0))) {
		return false
	}
	fee, hasFee := float64(st.Staker.DelegationShares)/10_000, takesDelegations(st.Type, &st.Staker)
	if req.FeePercentage.set() && !(hasFee && req.FeePercentage.holds(fee)) {
		return false
	}
	lv, isLive := liveSet[st.TxID]
	isLive = isLive && st.Staker.Subnet == ids.Empty && st.Status(now) == pdata.StatusActive
	var capacity uint64
	if isLive {
		capacity = delegationCapacity(networkID, lv)
	}
	if req.DelegationCapacity.set() && !(isLive && req.DelegationCapacity.holds(float64(capacity))) {
		return false
	}
	var uptime float64
	hasUptime := isLive && lv.Uptime != nil
	if hasUptime {
		uptime = shortFloat(*lv.Uptime)
	}
	if req.UptimePerformance.set() && !(hasUptime && req.UptimePerformance.holds(uptime)) {
		return false
	}
	c.pos = validatorPos{known: true, txID: st.TxID}
	switch req.SortBy {
	case sortByTimeRemaining:
		c.pos.key = uint64(max(st.Staker.End, 0))
	case sortByDelegationFee:
		c.pos.known, c.pos.key = hasFee, uint64(st.Staker.DelegationShares)
	case sortByDelegationCapacity:
		c.pos.known, c.pos.key = isLive, capacity
	case sortByUptimePerformance:
		c.pos.known, c.pos.key = hasUptime, math.Float64bits(uptime) // order-preserving for floats >= 0
	default:
		c.pos.key = st.Height
	}
	return true
}

// fillStakers reads page's validators again with what the index derives
// for them (delegations and fees), keeping the page's order.
func (s *server) fillStakers(ctx context.Context, page []pdata.IndexedStaker) ([]pdata.IndexedStaker, error) {
	if len(page) == 0 {
		return page, nil
	}
	txIDs := make([]ids.ID, len(page))
	for i := range page {
		txIDs[i] = page[i].TxID
	}
	filled, err := s.staking.Stakers(ctx, pdata.StakerQuery{TxIDs: txIDs, Limit: len(txIDs)})
	if err != nil {
		return nil, fmt.Errorf("reading the page's %d validators: %w", len(txIDs), err)
	}
	byTx := make(map[ids.ID]*pdata.IndexedStaker, len(filled))
	for i := range filled {
		byTx[filled[i].TxID] = &filled[i]
	}
	out := make([]pdata.IndexedStaker, len(page))
	for i := range page {
		if f, ok := byTx[page[i].TxID]; ok {
			out[i] = *f
		} else {
			out[i] = page[i]
		}
	}
	return out, nil
}

// liveValidations reads the node's current entry, with delegators, of
// every active primary-network validation among stakers, and the total
// stake (getSingleValidatorDetails, listValidators). What the node cannot
// answer degrades the reply (see getSingleValidatorDetails).
func (s *server) liveValidations(ctx context.Context, stakers []pdata.IndexedStaker, now int64) liveValidators {
	live := liveValidators{byTx: s.currentOfNodes(ctx, activeNodesOf(stakers, now))}
	if len(live.byTx) == 0 {
		return live
	}
	var err error
	if live.totalStake, err = s.totalStake.get(ctx, s); err != nil {
		s.Log().Debug("reading the total stake; answering without stakePercentage", zap.Error(err))
	}
	return live
}

// activeNodesOf lists the nodes of stakers' active primary-network stakers
// (validators and delegators), each once.
func activeNodesOf(stakers []pdata.IndexedStaker, now int64) []ids.NodeID {
	var nodes []ids.NodeID
	for i := range stakers {
		st := &stakers[i]
		if st.Staker.Subnet == ids.Empty && st.Status(now) == pdata.StatusActive && !slices.Contains(nodes, st.Staker.NodeID) {
			nodes = append(nodes, st.Staker.NodeID)
		}
	}
	return nodes
}

// currentOfNodes reads the node's current primary-network validator entry
// of each of nodes, with its delegators (one read per node, a few at a
// time), by staking tx. Nodes the node cannot answer for are left out.
func (s *server) currentOfNodes(ctx context.Context, nodes []ids.NodeID) map[ids.ID]platformvm.ClientPermissionlessValidator {
	out := map[ids.ID]platformvm.ClientPermissionlessValidator{}
	if s.platform == nil || len(nodes) == 0 {
		return out
	}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		sema = make(chan struct{}, maxLiveReads)
	)
	for _, node := range nodes {
		wg.Add(1)
		sema <- struct{}{}
		go func() {
			defer func() {
				if p := recover(); p != nil {
					s.Log().Error("reading a current validator panicked", zap.Any("panic", p))
				}
				<-sema
				wg.Done()
			}()
			vals, err := s.platform.CurrentValidators(ctx, []ids.NodeID{node})
			if err != nil {
				s.Log().Debug("reading a current validator; answering without live data",
					zap.Stringer("nodeID", node), zap.Error(err))
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for _, v := range vals {
				out[v.TxID] = v
			}
		}()
	}
	wg.Wait()
	return out
}
