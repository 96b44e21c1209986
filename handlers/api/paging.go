package api

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"
)

// Every list endpoint pages the same way: pageSize within the endpoint's
// rule, an optional sortOrder, and a signed pageToken bound to the route and
// the query's filters. ParsePage reads all three at once; NextPageToken
// issues the token of the following page.

// Paging says how one list endpoint pages.
type Paging struct {
	Route    string
	Size     pageSizeRule
	Sortable bool          // the endpoint takes sortOrder (default desc)
	MaxAge   time.Duration // page token lifetime; 0 means no expiry
}

// DataPaging is the paging of a data-service list: pageSize 1..100 and
// tokens that do not expire (the spec sets a lifetime only for metrics).
func DataPaging(route string, sortable bool) Paging {
	return Paging{Route: route, Size: StandardPageSize(), Sortable: sortable}
}

// Page is the validated paging input of a list request.
type Page struct {
	Size  int
	Order sortOrder // SortDesc when the endpoint takes no sortOrder
	// Token is the decoded pageToken; zero on the first page.
	Token PageToken
	First bool

	route   string
	filters FilterHash
	// read is the request's record of the heights it reads; the next
	// page's token carries them.
	read *Heights
}

// heights is the record of the heights the page's request reads.
func (pg Page) heights() *Heights {
	if pg.read == nil { // a page not made by ParsePage
		return &Heights{}
	}
	return pg.read
}

// ParsePage reads pageSize, sortOrder (when the endpoint takes it) and
// pageToken. filters are the normalized values of every other filter of the
// query, in a fixed order, so a token only resumes the query it came from.
// A token cut on a replica ahead of this one waits for this index to get
// there (awaitHeights), so no page shows an older state than the last.
func (c *Core) ParsePage(ctx context.Context, heights *Heights, q url.Values, p Paging, filters ...string) (Page, error) {
	pg := Page{route: p.Route, Order: SortDesc, read: heights}
	var err error
	if pg.Size, err = parsePageSize(q, p.Size); err != nil {
		return Page{}, err
	}
	if p.Sortable {
		if pg.Order, err = parseSortOrder(q); err != nil {
			return Page{}, err
		}
		filters = append(filters, string(pg.Order))
	}
	pg.filters = NewFilterHash(append([]string{p.Route}, filters...)...)
	raw := q.Get(paramPageToken)
	pg.First = raw == ""
	if pg.First {
		return pg, nil
	}
	if pg.Token, err = c.decodePageToken(raw, p.Route, pg.filters, p.MaxAge); err != nil {
		return Page{}, err
	}
	if err := c.awaitHeights(ctx, heights, pg.Token.Heights); err != nil {
		return Page{}, err
	}
	return pg, nil
}

// decodePageToken decodes a client's token. A token the client got wrong is
// a 400; a failure on our side (no signing key) is not.
func (c *Core) decodePageToken(raw, route string, filters FilterHash, maxAge time.Duration) (PageToken, error) {
	token, err := DecodePageToken(c.node.PageTokenKey(), raw, route, filters, maxAge, c.now())
	switch {
	case errors.Is(err, errInvalidPageToken):
		return PageToken{}, BadRequest("%v", err)
	case err != nil:
		return PageToken{}, fmt.Errorf("decoding page token: %w", err)
	}
	return token, nil
}

// NextPageToken signs the token of the page after pg: position and extra
// are the route's position (see PageToken), the heights those the request
// read (cutHeights).
func (c *Core) NextPageToken(pg Page, position int64, extra []byte) (string, error) {
	token, err := EncodePageToken(c.node.PageTokenKey(), PageToken{
		Route:    pg.route,
		Filters:  pg.filters,
		Position: position,
		Extra:    extra,
		IssuedAt: c.now(),
		Heights:  c.cutHeights(pg.heights()),
	})
	if err != nil {
		return "", fmt.Errorf("issuing page token: %w", err)
	}
	return token, nil
}

// TrimPage cuts items, read with a limit of size+1, to the page size and
// reports whether another page exists.
func TrimPage[T any](items []T, size int) ([]T, bool) {
	if len(items) > size {
		return items[:size], true
	}
	return items, false
}

// ResumeAfter decodes the position in the token's Extra: nil on the first
// page. Tokens are signed, so a position that does not decode comes from
// another avadata version, not from a forger.
func ResumeAfter[T any](pg Page, decode func([]byte) (T, bool)) (*T, error) {
	if pg.First {
		return nil, nil
	}
	pos, ok := decode(pg.Token.Extra)
	if !ok {
		return nil, BadRequest("%v: its position is not one this version understands; start again from the first page",
			errInvalidPageToken)
	}
	return &pos, nil
}

// PinnedHeight is the height a listing may show: the chain's indexed height
// on the first page (as the request recorded it when it resolved the
// chain), the height the first page pinned on later ones. The response
// reflects exactly that height, and the next token carries it.
func (c *Core) PinnedHeight(pg Page, stream string) uint64 {
	height := uint64(pg.Token.Position)
	if pg.First {
		var seen bool
		if height, seen = pg.heights().Height(stream); !seen {
			height = c.currentHeight(stream)
		}
	}
	pg.heights().Pin(stream, height)
	return height
}
