package evm

import (
	"cmp"
	"context"
	"encoding/binary"
	"net/http"
	"net/url"
	"slices"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The listings across every followed EVM chain (the latest blocks and
// transactions of all chains) merge the chains' own newest-first listings
// by block timestamp; items of one timestamp go by EVM chain id, then in
// their chain's order. Each chain is pinned as the single-chain listings
// are (pinned_listing.go): the first page pins every chain's indexed
// height. A page's token carries, per chain, its EVM chain id, its pinned
// height and its cursor, the position of the last item of that chain shown
// so far (PageToken.Extra): the items a merged page shows of one chain are
// always the newest of that chain not shown yet, so the next page resumes
// each chain exactly where it stopped and nothing is repeated or lost while
// blocks arrive. A chain that has no EVM chain id yet, or that the node
// starts following after the first page, is not part of the listing.
//
// The token holds at most api.MaxExtraLen (255) bytes: about 11 bytes a
// chain (varints, the cursor as its distance below the pin), so about 20
// followed EVM chains; a node that follows more answers these listings
// with a 503 that says to list each chain on its own.

// allChainsListing is how one listing across chains reads and places its
// items: T the item, P its position within its chain.
type allChainsListing[T, P any] struct {
	// read lists a chain's items below after (nil: from the top), at most
	// pinned, newest first.
	read   func(ctx context.Context, chain netinfo.ChainInfo, after *P, pinned uint64, limit int) ([]T, error)
	posOf  func(T) P
	timeOf func(T) uint64
	// appendPos and readPos encode a position relative to its chain's
	// pinned height (the distance below it is small).
	appendPos func(b []byte, pinned uint64, p P) []byte
	readPos   func(b []byte, pinned uint64) (P, []byte, bool)
}

// chainCursor is one chain's state in a listing across chains.
type chainCursor[P any] struct {
	chain  netinfo.ChainInfo
	pinned uint64
	after  *P // the last item of the chain shown; nil: none yet
}

// chainItem is an item of a merged page with its chain.
type chainItem[T any] struct {
	chain netinfo.ChainInfo
	item  T
}

// allChainsRequest is the validated input of a listing across chains.
type allChainsRequest struct {
	// OtherNetwork: the network filter names another network, of which
	// this node follows no chain.
	OtherNetwork bool
	Chains       []netinfo.ChainInfo // by EVM chain id
	Page         api.Page
}

// parseAllChainsRequest reads network and the paging; filters are the
// listing's other normalized filter values.
func (s *server) parseAllChainsRequest(r *http.Request, heights *api.Heights, route string, filters ...string) (allChainsRequest, error) {
	var req allChainsRequest
	q := r.URL.Query()
	var err error
	if req.OtherNetwork, err = s.parseOtherNetwork(q); err != nil {
		return req, err
	}
	for _, chain := range s.Network().EVMChains() {
		if chain.EVMChainID != 0 {
			req.Chains = append(req.Chains, chain)
			s.ReadsStream(heights, s.EVMChainStream(chain))
			if _, err := s.history(r.Context(), chain, heights); err != nil {
				return req, err
			}
		}
	}
	slices.SortFunc(req.Chains, func(a, b netinfo.ChainInfo) int { return cmp.Compare(a.EVMChainID, b.EVMChainID) })
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(route, false), filters...)
	return req, err
}

// parseOtherNetwork reads the network filter: true when it names another
// network than the node's (of which the node follows no chain), a 400 when
// it names no network.
func (s *server) parseOtherNetwork(q url.Values) (bool, error) {
	raw := q.Get(paramNetworkFilter)
	if raw == "" {
		return false, nil
	}
	same, err := api.IsNodeNetwork(paramNetworkFilter, raw, s.Network())
	return !same, err
}

// shapeAllChainsPage reads one merged page and shapes its items, each with
// its own chain's shaper.
func shapeAllChainsPage[T, P, R any](ctx context.Context, s *server, heights *api.Heights, req allChainsRequest,
	l allChainsListing[T, P], shape func(*shaper, *T) R,
) ([]R, string, error) {
	items, next, err := readAllChainsPage(ctx, s, heights, req, l)
	if err != nil {
		return nil, "", err
	}
	shapers := map[netinfo.Chain]*shaper{}
	out := make([]R, len(items))
	for i := range items {
		chain := items[i].chain
		v, ok := shapers[chain.Chain]
		if !ok {
			v = s.newShaper(ctx, chain, defaultCurrency)
			shapers[chain.Chain] = v
		}
		out[i] = shape(v, &items[i].item)
		if v.err != nil {
			return nil, "", v.err
		}
	}
	return out, next, nil
}

// appendBelow and readBelow keep a block number as its distance below its
// chain's pinned height: a varint of a byte or two.
func appendBelow(b []byte, pinned, block uint64) []byte { return binary.AppendUvarint(b, pinned-block) }

func readBelow(b []byte, pinned uint64) (uint64, []byte, bool) {
	below, n := binary.Uvarint(b)
	if n <= 0 || below > pinned {
		return 0, nil, false
	}
	return pinned - below, b[n:], true
}

// readAllChainsPage reads one merged page and returns it with the next
// page's token ("" when none).
func readAllChainsPage[T, P any](ctx context.Context, s *server, heights *api.Heights, req allChainsRequest,
	l allChainsListing[T, P],
) ([]chainItem[T], string, error) {
	cursors, err := chainCursors(s, req, heights, l)
	if err != nil {
		return nil, "", err
	}
	// Each chain's next page-size-plus-one items: enough for the merged
	// page and to tell whether anything is left.
	read := make([][]T, len(cursors))
	for i, c := range cursors {
		if c.pinned == 0 {
			continue // nothing indexed when the listing began
		}
		if read[i], err = l.read(ctx, c.chain, c.after, c.pinned, req.Page.Size+1); err != nil {
			return nil, "", err
		}
	}
	var page []chainItem[T]
	for len(page) < req.Page.Size {
		best := -1
		for i := range read {
			if len(read[i]) > 0 && (best < 0 || l.timeOf(read[i][0]) > l.timeOf(read[best][0])) {
				best = i // ties keep the lower EVM chain id: cursors are in that order
			}
		}
		if best < 0 {
			break
		}
		item := read[best][0]
		read[best] = read[best][1:]
		pos := l.posOf(item)
		cursors[best].after = &pos
		page = append(page, chainItem[T]{chain: cursors[best].chain, item: item})
	}
	if !slices.ContainsFunc(read, func(items []T) bool { return len(items) > 0 }) {
		return page, "", nil
	}
	extra := encodeChainCursors(cursors, l)
	if len(extra) > api.MaxExtraLen {
		return nil, "", api.NewError(http.StatusServiceUnavailable,
			"this node follows too many EVM chains (%d) to page through them all in one listing; ask each chain's own listing",
			len(cursors))
	}
	token, err := s.NextPageToken(req.Page, int64(len(cursors)), extra)
	return page, token, err
}

// chainCursors starts every chain of the listing: on the first page at its
// indexed height, pinned; on later pages where the token left it.
func chainCursors[T, P any](s *server, req allChainsRequest, heights *api.Heights, l allChainsListing[T, P]) ([]chainCursor[P], error) {
	cursors := make([]chainCursor[P], 0, len(req.Chains))
	if req.Page.First {
		for _, chain := range req.Chains {
			cursors = append(cursors, chainCursor[P]{chain: chain, pinned: s.PinnedHeight(req.Page, s.EVMChainStream(chain))})
		}
		return cursors, nil
	}
	saved, ok := decodeChainCursors(req.Page.Token.Extra, l)
	if !ok {
		return nil, api.BadRequest("invalid pageToken: its position is not one this version understands; start again from the first page")
	}
	for _, chain := range req.Chains {
		c, listed := saved[chain.EVMChainID]
		if !listed {
			continue // followed (or its chain id known) only since the first page
		}
		delete(saved, chain.EVMChainID)
		c.chain = chain
		heights.Pin(s.EVMChainStream(chain), c.pinned)
		cursors = append(cursors, c)
	}
	for id := range saved {
		return nil, api.BadRequest("invalid pageToken: it pages through EVM chain %d, which this node does not follow; "+
			"start again from the first page", id)
	}
	return cursors, nil
}

// encodeChainCursors writes the cursors for a token's Extra: per chain its
// EVM chain id, pinned height, and 0, or 1 and its position.
func encodeChainCursors[T, P any](cursors []chainCursor[P], l allChainsListing[T, P]) []byte {
	var extra []byte
	for _, c := range cursors {
		extra = binary.AppendUvarint(extra, c.chain.EVMChainID)
		extra = binary.AppendUvarint(extra, c.pinned)
		if c.after == nil {
			extra = append(extra, 0)
			continue
		}
		extra = l.appendPos(append(extra, 1), c.pinned, *c.after)
	}
	return extra
}

// decodeChainCursors reads the cursors of a token's Extra, by EVM chain id.
func decodeChainCursors[T, P any](b []byte, l allChainsListing[T, P]) (map[uint64]chainCursor[P], bool) {
	out := map[uint64]chainCursor[P]{}
	for len(b) > 0 {
		id, n := binary.Uvarint(b)
		if n <= 0 {
			return nil, false
		}
		b = b[n:]
		pinned, n := binary.Uvarint(b)
		if n <= 0 || len(b) <= n {
			return nil, false
		}
		c := chainCursor[P]{pinned: pinned}
		hasPos := b[n]
		b = b[n+1:]
		if hasPos == 1 {
			pos, rest, ok := l.readPos(b, pinned)
			if !ok {
				return nil, false
			}
			c.after, b = &pos, rest
		} else if hasPos != 0 {
			return nil, false
		}
		out[id] = c
	}
	return out, true
}
