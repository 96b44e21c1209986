package primary

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/utxos
// (getUtxosByAddresses): the UTXOs a chain holds for some addresses, in
// its own UTXO set and in its atomic memory (exported to it and not
// imported yet: what avm.getUTXOs / platform.getUTXOs / avax.getUTXOs list
// with sourceChain). The P-chain's also hold the stake of its validations
// (utxoType STAKE) from the staking tx until the stake returns. Unspent
// ones only unless includeSpent; optionally of one asset (assetId) and of
// at least minUtxoAmount; by creation time (default) or amount
// (sortBy), newest / largest first by default (sortOrder). Ties go by UTXO
// ID. A request without addresses gets an empty list.
//
// P-chain replies are ListPChainUtxosResponse (PChainUtxo, with the
// staking and lock fields), X- and C-chain replies ListUtxosResponse (Utxo).
//
// Paging: the token carries the last UTXO's place (its sort key and ID),
// so a page resumes right after it: a UTXO's place never changes, so no
// UTXO repeats nor is skipped while blocks arrive (one spent meanwhile
// leaves a listing of unspent UTXOs). A page may be short, even empty, with
// a token to go on, when the asset and amount filters drop many UTXOs in a
// row (maxScannedUTXOs).

// Parameters of the UTXO listings.
const (
	paramMinUtxoAmount = "minUtxoAmount"
	paramIncludeSpent  = "includeSpent"
)

// UTXO listing limits.
const (
	// maxScannedUTXOs bounds the index rows one page reads when filters
	// drop them; the page ends there with a token to go on.
	maxScannedUTXOs = 5000
	// maxUTXOAddressesV2 is how many addresses getUtxosByAddressesV2 and
	// getLastActivityTimestampByAddressesV2 take in their bodies (the GET
	// operations take api.MaxListEntries).
	maxUTXOAddressesV2 = 256
	// maxUTXOPageSizeV2 is getUtxosByAddressesV2's largest pageSize.
	maxUTXOPageSizeV2 = 1024
)

// utxoSortByOptions are the OpenAPI's UtxosSortByOption.
func utxoSortByOptions() []string { return []string{"timestamp", "amount"} }

// getUtxosByAddressesRequest is the validated input of the UTXO listings
// (GET and the POST V2).
type getUtxosByAddressesRequest struct {
	Chain     netinfo.Chain
	Addresses []string // as given
	// AddressIDs are the 20 bytes of Addresses, in the same order.
	AddressIDs   []ids.ShortID
	Asset        *ids.ID
	MinAmount    uint64
	IncludeSpent bool
	SortBy       string // timestamp or amount
	Page         api.Page
}

// utxoListing says how one UTXO operation takes its addresses and pages.
type utxoListing struct {
	route        string
	maxAddresses int
	maxPageSize  int
}

func (s *server) parseGetUtxosByAddressesRequest(r *http.Request, heights *api.Heights) (getUtxosByAddressesRequest, error) {
	listing := utxoListing{route: routeGetUtxosByAddresses, maxAddresses: api.MaxListEntries, maxPageSize: api.StandardPageSize().Max}
	return s.parseUTXOListing(r, heights, listing, queryAddresses(r))
}

// addressSource gives the addresses of a request: its query's addresses
// parameter, or (V2) the addresses of its body, read once the path is
// known to be good.
type addressSource func() (url.Values, error)

func queryAddresses(r *http.Request) addressSource {
	return func() (url.Values, error) { return r.URL.Query(), nil }
}

// parseUTXOListing reads a UTXO listing's parameters from the query and its
// addresses from addrs.
func (s *server) parseUTXOListing(r *http.Request, heights *api.Heights, listing utxoListing, source addressSource) (getUtxosByAddressesRequest, error) {
	var req getUtxosByAddressesRequest
	var err error
	if req.Chain, err = s.resolveChain(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	addrs, err := source()
	if err != nil {
		return req, err
	}
	if req.Addresses, req.AddressIDs, err = s.parsePrimaryAddressList(addrs, api.ParamAddresses, listing.maxAddresses, req.Chain == netinfo.C); err != nil {
		return req, err
	}
	if raw := q.Get(paramAssetID); raw != "" {
		asset, err := api.ParseCB58ID(paramAssetID, raw)
		if err != nil {
			return req, err
		}
		req.Asset = &asset
	}
	if req.MinAmount, err = parseMinUTXOAmount(q); err != nil {
		return req, err
	}
	if req.IncludeSpent, err = api.ParseBool(q, paramIncludeSpent, false); err != nil {
		return req, err
	}
	if req.SortBy, err = api.ParseEnum(q, paramSortBy, utxoSortByOptions()); err != nil {
		return req, err
	}
	if req.SortBy == "" {
		req.SortBy = "timestamp"
	}
	paging := api.DataPaging(listing.route, true)
	paging.Size.Max = listing.maxPageSize
	asset := ""
	if req.Asset != nil {
		asset = req.Asset.String()
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, paging, req.Chain.String(), strings.Join(req.Addresses, ","),
		asset, api.FormatUint(req.MinAmount), strconv.FormatBool(req.IncludeSpent), req.SortBy)
	return req, err
}

// parseMinUTXOAmount reads minUtxoAmount: a whole amount in the asset's
// smallest unit (nAVAX), default 0.
func parseMinUTXOAmount(q url.Values) (uint64, error) {
	raw := q.Get(paramMinUtxoAmount)
	if raw == "" {
		return 0, nil
	}
	v, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return 0, api.BadRequest("invalid %s '%s': must be a whole amount >= 0 in the asset's smallest unit (nAVAX), "+
			"at most %d", paramMinUtxoAmount, api.Truncate(raw), uint64(1<<64-1))
	}
	return v, nil
}

func (s *server) serveGetUtxosByAddresses(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetUtxosByAddressesRequest(r, heights)
	if err != nil {
		return err
	}
	return s.writeUTXOPage(w, r, &req)
}

// writeUTXOPage reads and writes one page of a UTXO listing.
func (s *server) writeUTXOPage(w http.ResponseWriter, r *http.Request, req *getUtxosByAddressesRequest) error {
	ctx := r.Context()
	if err := s.refuseMissingDAG(ctx, req.Chain); err != nil {
		return err
	}
	if err := s.checkCAtomicHistory(ctx, req.Chain, "its UTXOs"); err != nil {
		return err
	}
	after, err := api.ResumeAfter(req.Page, decodeUTXOPos)
	if err != nil {
		return err
	}
	var page pdata.UTXOPage
	if len(req.AddressIDs) > 0 {
		page, err = s.reader.UTXOs(ctx, req.Chain, pdata.UTXOQuery{
			Addresses: req.AddressIDs, Asset: req.Asset, MinAmount: req.MinAmount, IncludeSpent: req.IncludeSpent,
			ByAmount: req.SortBy == "amount", Desc: req.Page.Order == api.SortDesc, After: after,
			Limit: req.Page.Size, MaxScanned: maxScannedUTXOs,
		})
		if err != nil {
			return fmt.Errorf("listing %s utxos of %d addresses: %w", req.Chain, len(req.AddressIDs), err)
		}
	}
	var next string
	if page.Next != nil {
		if next, err = s.NextPageToken(req.Page, 0, encodeTimeID(int64(page.Next.Key), page.Next.UTXO)); err != nil {
			return err
		}
	}
	assets := make([]ids.ID, len(page.UTXOs))
	for i, u := range page.UTXOs {
		assets[i] = u.Asset
	}
	shapes, err := s.newShaper(ctx, req.Chain, assets)
	if err != nil {
		return err
	}
	chainInfo := newPrimaryChainInfo(r, req.Chain)
	if req.Chain == netinfo.P {
		resp := listPChainUTXOsResponse{NextPageToken: next, UTXOs: make([]pChainUTXO, len(page.UTXOs)), ChainInfo: chainInfo}
		for i := range page.UTXOs {
			resp.UTXOs[i] = shapes.pChainUTXO(&page.UTXOs[i])
		}
		api.WriteJSON(w, http.StatusOK, resp)
		return nil
	}
	api.WriteJSON(w, http.StatusOK, listUTXOsResponse{NextPageToken: next, UTXOs: shapes.utxos(page.UTXOs), ChainInfo: chainInfo})
	return nil
}

func decodeUTXOPos(b []byte) (pdata.UTXOPos, bool) {
	key, id, ok := decodeTimeID(b)
	return pdata.UTXOPos{Key: uint64(key), UTXO: id}, ok
}
