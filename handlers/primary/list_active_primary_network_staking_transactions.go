package primary

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking
// (listActivePrimaryNetworkStakingTransactions): the P-chain's staking txs
// whose staker is active now, of the given addresses, in
// listLatestPrimaryNetworkTransactions' shape, order and paging (one piece of
// code: writeTxPage).
//
// The index lists txs by address and type, and knows stakers by staking
// tx: each batch of staking txs read is checked against the stakers in one
// lookup per kind, and only the active ones are kept. Most staking txs of
// a long history have ended, so the scan is a sparse one (at most
// maxScannedTxs per request; a page may then be short or empty, with a
// token to go on).
//
// addresses is optional in the OpenAPI (unlike on
// listHistoricalPrimaryNetworkRewards, whose description requires addresses or
// nodeIds), so without it the listing is every active staking tx of the
// P-chain. txTypes and timestamps filter either listing, as on
// listLatestPrimaryNetworkTransactions (where they need addresses only because
// the spec says so for that endpoint).

// stakingTxTypes are the txs that add a validator or a delegator.
func stakingTxTypes() []string {
	return []string{"AddValidatorTx", "AddDelegatorTx", "AddSubnetValidatorTx",
		"AddPermissionlessValidatorTx", "AddPermissionlessDelegatorTx"}
}

// stakingTypesOf narrows the requested types (none: all) to staking txs.
func stakingTypesOf(requested []string) []string {
	if len(requested) == 0 {
		return stakingTxTypes()
	}
	return slices.DeleteFunc(slices.Clone(requested), func(t string) bool { return !slices.Contains(stakingTxTypes(), t) })
}

// listActivePrimaryNetworkStakingTransactionsRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking
// (P-chain only).
type listActivePrimaryNetworkStakingTransactionsRequest struct {
	Addresses []string // X/P-chain addresses as given
	// AddressIDs are the 20 bytes of Addresses, in the same order.
	AddressIDs []ids.ShortID
	TxTypes    []string // canonical PrimaryNetworkTxType names
	Time       api.TimestampRange
	Page       api.Page
}

func (s *server) parseListActivePrimaryNetworkStakingTransactionsRequest(r *http.Request, heights *api.Heights) (listActivePrimaryNetworkStakingTransactionsRequest, error) {
	var req listActivePrimaryNetworkStakingTransactionsRequest
	var err error
	if _, err = s.resolveChain(r, heights, pChainOnly()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, api.ParamAddresses, false); err != nil {
		return req, err
	}
	if req.TxTypes, err = parseTxTypes(q); err != nil {
		return req, err
	}
	if req.Time, err = api.ParseTimestampRange(q); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListActivePrimaryNetworkStakingTransactions, true), strings.Join(req.Addresses, ","),
		strings.Join(req.TxTypes, ","), api.FormatBound(req.Time.Start), api.FormatBound(req.Time.End))
	return req, err
}

func (s *server) serveListActivePrimaryNetworkStakingTransactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListActivePrimaryNetworkStakingTransactionsRequest(r, heights)
	if err != nil {
		return err
	}
	after, err := api.ResumeAfter(req.Page, decodePrimaryTxPos)
	if err != nil {
		return err
	}
	types := stakingTypesOf(req.TxTypes)
	if len(types) == 0 {
		api.WriteJSON(w, http.StatusOK, emptyTxList(r, netinfo.P))
		return nil
	}
	if _, err := s.stakingReader(); err != nil {
		return err
	}
	// One clock for the whole request: a staker ending mid-request must not
	// be active for one batch and not the next.
	now := s.Now().Unix()
	inTime := inTimeRange(req.Time)
	var active map[ids.ID]*pdata.IndexedStaker
	scan := txScan{
		q: pdata.TxQuery{
			Addresses: req.AddressIDs, Types: types, Desc: req.Page.Order == api.SortDesc, After: after,
		},
		size:   req.Page.Size,
		sparse: true,
		prepare: func(ctx context.Context, batch []pdata.IndexedTx) (err error) {
			active, err = s.stakersOf(ctx, batch, pdata.StatusActive, now)
			return err
		},
		keep: func(itx *pdata.IndexedTx) bool {
			_, ok := active[itx.Tx.ID]
			return ok && inTime(itx)
		},
	}
	return s.writeTxPage(w, r, netinfo.P, req.Page, req.Time, scan)
}
