package primary

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions
// (listAssetTransactions, X-chain only): the X-chain txs that touch an
// asset (create it, or consume or emit UTXOs of it), optionally of some
// types and within a time range, newest first, shaped as
// listLatestPrimaryNetworkTransactions shows them. Paging as there: the
// token carries the position of the last tx read. An asset the index does
// not describe (no 0x13 row) is a 404.

// listAssetTransactionsRequest is the validated input of
// listAssetTransactions.
type listAssetTransactionsRequest struct {
	AssetID ids.ID
	TxTypes []string // canonical PrimaryNetworkTxType names
	Time    api.TimestampRange
	Page    api.Page
}

func (s *server) parseListAssetTransactionsRequest(r *http.Request, heights *api.Heights) (listAssetTransactionsRequest, error) {
	var req listAssetTransactionsRequest
	var err error
	if req.AssetID, err = s.parseAssetPath(r, heights); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.TxTypes, err = parseTxTypes(q); err != nil {
		return req, err
	}
	if req.Time, err = api.ParseTimestampRange(q); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListAssetTransactions, false), req.AssetID.String(),
		strings.Join(req.TxTypes, ","), api.FormatBound(req.Time.Start), api.FormatBound(req.Time.End))
	return req, err
}

func (s *server) serveListAssetTransactions(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListAssetTransactionsRequest(r, heights)
	if err != nil {
		return err
	}
	known, err := s.reader.Assets(r.Context(), []ids.ID{req.AssetID})
	if err != nil {
		return fmt.Errorf("reading asset %s: %w", req.AssetID, err)
	}
	if _, ok := known[req.AssetID]; !ok {
		return api.NotFound("asset %s not found on the %s", req.AssetID, netinfo.X.DataAPIAlias())
	}
	after, err := api.ResumeAfter(req.Page, decodePrimaryTxPos)
	if err != nil {
		return err
	}
	scan := txScan{
		q:    pdata.TxQuery{Asset: &req.AssetID, Types: req.TxTypes, Desc: true, After: after},
		size: req.Page.Size,
		keep: inTimeRange(req.Time),
	}
	return s.writeTxPage(w, r, netinfo.X, req.Page, req.Time, scan)
}
