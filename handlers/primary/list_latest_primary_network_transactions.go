package primary

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/transactions
// (listLatestPrimaryNetworkTransactions): the latest txs of the P-, X- or
// C-chain (C: atomic txs only), optionally of some addresses, of some types,
// within a time range, or (P) of one L1 validation. Sorted by block and
// position in the block, newest first by default.
//
// Paging: the token carries the position (pdata.TxPos) of the last tx the
// page read, so a page resumes right after it whatever arrived since; no
// height is pinned (a position position never repeats nor skips a tx).
//
// Timestamps are inclusive at both ends, as on the hosted API: a tx is
// listed when startTimestamp <= its block time <= endTimestamp.

// Listing limits.
const (
	// maxPageUTXOs is the Data API's "performance threshold": a
	// page stops after the tx that brings its consumed and emitted UTXOs to
	// this many, and is then shorter than pageSize.
	maxPageUTXOs = 1000
	// maxScannedTxs bounds the txs one request reads when a filter the
	// index cannot apply (l1ValidationId) drops most of them; the page ends
	// there, possibly empty, with a token to go on.
	maxScannedTxs = 2000
	// filteredBatch is how many txs a filtered listing reads at a time.
	filteredBatch = 100
)

// l1ValidatorTxTypes are the P-chain txs that act on L1 validations.
func l1ValidatorTxTypes() []string {
	return []string{"ConvertSubnetToL1Tx", "RegisterL1ValidatorTx", "SetL1ValidatorWeightTx",
		"IncreaseL1ValidatorBalanceTx", "DisableL1ValidatorTx"}
}

// listLatestPrimaryNetworkTransactionsRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/transactions.
type listLatestPrimaryNetworkTransactionsRequest struct {
	Chain     netinfo.Chain
	Addresses []string // as given; 0x addresses only on the C-chain
	// AddressIDs are the 20 bytes of Addresses, in the same order.
	AddressIDs []ids.ShortID
	// L1ValidationID selects the L1 validator transactions of one
	// validation (P-chain only).
	L1ValidationID    ids.ID
	HasL1ValidationID bool
	TxTypes           []string // canonical PrimaryNetworkTxType names
	Time              api.TimestampRange
	Page              api.Page
}

func (s *server) parseListLatestPrimaryNetworkTransactionsRequest(r *http.Request, heights *api.Heights) (listLatestPrimaryNetworkTransactionsRequest, error) {
	var req listLatestPrimaryNetworkTransactionsRequest
	var err error
	if req.Chain, err = s.resolveChain(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, api.ParamAddresses, req.Chain == netinfo.C); err != nil {
		return req, err
	}
	if raw := q.Get(paramL1ValidationID); raw != "" {
		if req.Chain != netinfo.P {
			return req, api.BadRequest("%s is only supported on the P-chain; this request is for the %s",
				paramL1ValidationID, req.Chain.DataAPIAlias())
		}
		if req.L1ValidationID, err = api.ParseHexOrCB58ID(paramL1ValidationID, raw); err != nil {
			return req, err
		}
		req.HasL1ValidationID = true
	}
	if req.TxTypes, err = parseTxTypes(q); err != nil {
		return req, err
	}
	if req.Time, err = api.ParseTimestampRange(q); err != nil {
		return req, err
	}
	// Spec rule: txTypes and timestamps filter an address listing (or, on
	// the P-chain, an L1 validation's transactions), never the whole chain.
	if len(req.Addresses) == 0 && !req.HasL1ValidationID {
		var name string
		switch {
		case len(req.TxTypes) > 0:
			name = api.ParamTxTypes
		case req.Time.Start.Set:
			name = api.ParamStartTimestamp
		case req.Time.End.Set:
			name = api.ParamEndTimestamp
		}
		if name != "" {
			return req, api.BadRequest("%s needs an address filter: filtering by txTypes or timestamps is only supported "+
				"together with %s (or, on the P-chain, %s)", name, api.ParamAddresses, paramL1ValidationID)
		}
	}
	validation := ""
	if req.HasL1ValidationID {
		validation = req.L1ValidationID.String()
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListLatestPrimaryNetworkTransactions, true), req.Chain.String(), strings.Join(req.Addresses, ","),
		validation, strings.Join(req.TxTypes, ","), api.FormatBound(req.Time.Start), api.FormatBound(req.Time.End))
	return req, err
}

func (s *server) serveListLatestPrimaryNetworkTransactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListLatestPrimaryNetworkTransactionsRequest(r, heights)
	if err != nil {
		return err
	}
	after, err := api.ResumeAfter(req.Page, decodePrimaryTxPos)
	if err != nil {
		return err
	}
	scan := txScan{
		q: pdata.TxQuery{
			Addresses: req.AddressIDs, Types: req.TxTypes, Desc: req.Page.Order == api.SortDesc, After: after,
		},
		size: req.Page.Size,
		keep: inTimeRange(req.Time),
	}
	if req.HasL1ValidationID {
		// The index lists txs by chain, address and type, not by
		// validation: read the L1 validator txs and keep the validation's.
		scan.q.Types = l1TypesOf(req.TxTypes)
		if len(scan.q.Types) == 0 {
			api.WriteJSON(w, http.StatusOK, emptyTxList(r, req.Chain))
			return nil
		}
		inTime := scan.keep
		scan.keep = func(itx *pdata.IndexedTx) bool { return inTime(itx) && actsOnValidation(itx.Tx, req.L1ValidationID) }
		scan.sparse = true
	}
	return s.writeTxPage(w, r, req.Chain, req.Page, req.Time, scan)
}

// emptyTxList is the reply of a tx listing that cannot hold any tx.
func emptyTxList(r *http.Request, chain netinfo.Chain) listPrimaryTxsResponse {
	return listPrimaryTxsResponse{Transactions: []any{}, ChainInfo: newPrimaryChainInfo(r, chain)}
}

// writeTxPage reads and writes one page of a tx listing of chain, bounded by
// the time range tr: the listing of listLatestPrimaryNetworkTransactions, and
// of listActivePrimaryNetworkStakingTransactions (its active staking txs),
// which only differ in the scan.
func (s *server) writeTxPage(w http.ResponseWriter, r *http.Request, chain netinfo.Chain, pg api.Page, tr api.TimestampRange, scan txScan) error {
	ctx := r.Context()
	resp := emptyTxList(r, chain)
	var empty bool
	var err error
	if scan.q.FromHeight, scan.q.ToHeight, empty, err = s.heightRange(ctx, chain, tr); err != nil {
		return err
	}
	if tr.Start.Set {
		scan.q.FromTime = &tr.Start.Value
	}
	if tr.End.Set {
		scan.q.ToTime = &tr.End.Value
	}
	// The X-chain's DAG txs sit at height 0 with times of their own (the
	// index reaches them by the time bounds): a range no block falls in may
	// still hold some.
	if empty && chain != netinfo.X {
		api.WriteJSON(w, http.StatusOK, resp)
		return nil
	}
	txs, next, err := s.scanTxs(ctx, chain, scan)
	if err != nil {
		return err
	}
	if next != nil {
		s.PageReaches(pg, chain, next.Height)
		if resp.NextPageToken, err = s.NextPageToken(pg, int64(next.Height), encodePrimaryTxPos(*next)); err != nil {
			return err
		}
	}
	shaped, err := s.shapeTxs(ctx, chain, txs)
	if err != nil {
		return err
	}
	resp.Transactions = append(resp.Transactions, shaped...)
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// shapeTxs shapes txs of chain as every tx reply shows them (a listing's
// page, or one tx by its hash).
func (s *server) shapeTxs(ctx context.Context, chain netinfo.Chain, txs []pdata.IndexedTx) ([]any, error) {
	shapes, err := s.newShaper(ctx, chain, txAssets(txs, s.Network().AVAXAssetID))
	if err != nil {
		return nil, err
	}
	if chain == netinfo.P {
		if shapes.stakers, err = s.pageStakersOf(ctx, txs); err != nil {
			return nil, err
		}
	}
	out := make([]any, len(txs))
	for i := range txs {
		out[i] = shapes.primaryTx(&txs[i])
	}
	return out, nil
}

// l1TypesOf narrows the requested types (none: all) to the L1 validator
// txs, the only ones an L1 validation has.
func l1TypesOf(requested []string) []string {
	if len(requested) == 0 {
		return l1ValidatorTxTypes()
	}
	return slices.DeleteFunc(slices.Clone(requested), func(t string) bool { return !slices.Contains(l1ValidatorTxTypes(), t) })
}

// actsOnValidation reports whether tx acts on the L1 validation v.
func actsOnValidation(tx *pdata.Tx, v ids.ID) bool {
	if tx.ValidationID == v {
		return true
	}
	for _, l1 := range tx.L1Validators {
		if l1.ValidationID == v {
			return true
		}
	}
	return false
}

// inTimeRange keeps txs whose block time lies within tr (inclusive). The
// index applies the same bounds (TxQuery.FromTime, ToTime); this keeps a
// reader that applies only the heights exact too.
func inTimeRange(tr api.TimestampRange) func(*pdata.IndexedTx) bool {
	return func(itx *pdata.IndexedTx) bool {
		return (!tr.Start.Set || itx.BlockTime >= tr.Start.Value) && (!tr.End.Set || itx.BlockTime <= tr.End.Value)
	}
}

// heightRange turns a timestamp range (inclusive) into the heights of the
// blocks it covers: FromHeight inclusive, ToHeight exclusive, 0 for no
// bound. empty reports a range no block falls in.
func (s *server) heightRange(ctx context.Context, chain netinfo.Chain, tr api.TimestampRange) (from, to uint64, empty bool, err error) {
	if err := s.checkCTimeRange(ctx, chain, tr); err != nil {
		return 0, 0, false, err
	}
	if tr.Start.Set && tr.Start.Value > 0 {
		// The first block at or after start follows the last one before it.
		h, err := s.reader.HeightAtTime(ctx, chain, tr.Start.Value-1)
		if err != nil {
			return 0, 0, false, fmt.Errorf("finding the %s block before time %d: %w", chain, tr.Start.Value, err)
		}
		if h > 0 {
			from = h + 1
		}
	}
	if tr.End.Set {
		h, err := s.reader.HeightAtTime(ctx, chain, tr.End.Value)
		if err != nil {
			return 0, 0, false, fmt.Errorf("finding the %s block at time %d: %w", chain, tr.End.Value, err)
		}
		to = h + 1
	}
	return from, to, to != 0 && from >= to, nil
}

// txScan is one page's read of a tx listing.
type txScan struct {
	q    pdata.TxQuery // the listing; Limit and MaxUTXOs are scanTxs'
	size int
	// keep drops txs the index cannot filter out itself (nil: keep all).
	keep func(*pdata.IndexedTx) bool
	// prepare, when set, sees each batch the reader returns before keep
	// does, so keep can rest on one lookup per batch instead of one per tx.
	prepare func(ctx context.Context, batch []pdata.IndexedTx) error
	// sparse says keep drops most txs: read in larger batches, and no more
	// than maxScannedTxs per request.
	sparse bool
}

// scanTxs reads one page: up to size txs that keep accepts, fewer when
// their UTXOs reach maxPageUTXOs or (sparse) maxScannedTxs were read. next
// is the position of the last tx read when the listing may go on, nil when
// it is exhausted.
//
// The reader applies the UTXO budget itself (TxQuery.MaxUTXOs: it stops
// before the tx that would exceed it), so a dense page is one read. A sparse
// scan reads without a budget (filtered-out txs must not spend it) and the
// page counts the UTXOs of the txs it keeps.
func (s *server) scanTxs(ctx context.Context, chain netinfo.Chain, sc txScan) (page []pdata.IndexedTx, next *pdata.TxPos, err error) {
	q := sc.q
	var utxos, scanned int
	full := func() bool {
		return len(page) == sc.size || utxos >= maxPageUTXOs || (sc.sparse && scanned >= maxScannedTxs)
	}
	for {
		// One more than the page needs tells whether another page exists.
		q.Limit = sc.size + 1 - len(page)
		q.MaxUTXOs = maxPageUTXOs - utxos
		if sc.sparse {
			q.Limit, q.MaxUTXOs = max(q.Limit, filteredBatch), 0
		}
		items, err := s.reader.Txs(ctx, chain, q)
		if err != nil {
			return nil, nil, fmt.Errorf("listing %s transactions: %w", chain, err)
		}
		if sc.prepare != nil {
			if err := sc.prepare(ctx, items); err != nil {
				return nil, nil, err
			}
		}
		for i := range items {
			itx := &items[i]
			if full() {
				return page, q.After, nil // itx exists: the next page starts with it
			}
			scanned++
			pos := itx.Pos
			q.After = &pos
			if sc.keep == nil || sc.keep(itx) {
				page = append(page, *itx)
				utxos += len(itx.Consumed) + len(itx.Produced)
			}
		}
		switch {
		case len(items) == 0 || (len(items) < q.Limit && q.MaxUTXOs == 0):
			return page, nil, nil // the listing ends here
		case len(items) < q.Limit:
			// The reader stopped at the end of the listing or before a tx
			// past the UTXO budget; the page ends either way, and one more
			// read tells whether a next one exists.
			more, err := s.hasTxAfter(ctx, chain, q)
			if err != nil || !more {
				return page, nil, err
			}
			return page, q.After, nil
		case full():
			return page, q.After, nil
		}
	}
}

// hasTxAfter reports whether the listing q has a tx after q.After.
func (s *server) hasTxAfter(ctx context.Context, chain netinfo.Chain, q pdata.TxQuery) (bool, error) {
	q.Limit, q.MaxUTXOs = 1, 0
	items, err := s.reader.Txs(ctx, chain, q)
	if err != nil {
		return false, fmt.Errorf("listing %s transactions: %w", chain, err)
	}
	return len(items) > 0, nil
}

// The position of the tx listing (PageToken.Extra): height and index.
const primaryTxPosLen = 8 + 4

func encodePrimaryTxPos(p pdata.TxPos) []byte {
	b := binary.BigEndian.AppendUint64(nil, p.Height)
	return binary.BigEndian.AppendUint32(b, p.Index)
}

func decodePrimaryTxPos(b []byte) (pdata.TxPos, bool) {
	if len(b) != primaryTxPosLen {
		return pdata.TxPos{}, false
	}
	return pdata.TxPos{Height: binary.BigEndian.Uint64(b), Index: binary.BigEndian.Uint32(b[8:])}, true
}
