package replies

import (
	"context"
	"fmt"
	"strings"
)

// RecordReplies sends the request set, filled in with ids, and returns the
// record of every exchange. A request with follow=N is followed by up to N
// more pages, each sent with the live token of the page before and
// recorded as "page P after request K".
func RecordReplies(ctx context.Context, client *Client, set []requestTemplate, ids map[string]string) (*Record, error) {
	rec := &Record{Format: recordFormat, Base: client.Base, Node: client.Node, IDs: ids}
	s := newSession(client)
	labels := make(map[string]int)
	add := func(route string, req Request) int {
		i := len(rec.Exchanges)
		rec.Exchanges = append(rec.Exchanges, Exchange{Index: i, Route: route, Request: req, Reply: s.send(ctx, req)})
		return i
	}
	for _, t := range set {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("recording: %w", err)
		}
		req, err := t.request(ids)
		if err != nil {
			return nil, err
		}
		if t.tokenFrom != "" {
			from := labels[t.tokenFrom]
			req.TokenFrom = &from
		}
		first := add(t.route, req)
		if t.label != "" {
			labels[t.label] = first
		}
		prev := first
		for page := 2; page <= t.follow+1 && s.tokens[prev] != ""; page++ {
			prev = add(t.route, followPage(req, first, page, prev))
		}
	}
	return rec, nil
}

// followPage is the request of page `page` of the listing that request
// first started with req, taking its token from exchange prev.
func followPage(req Request, first, page, prev int) Request {
	sep := "?"
	if strings.Contains(req.Target, "?") {
		sep = "&"
	}
	next := req
	next.Target = req.Target + sep + "pageToken=" + tokenMarker
	next.TokenFrom = &prev
	next.TokenEdit = ""
	next.PageOf = &PageRef{Request: first, Page: page}
	return next
}

// RouteCounts returns how many exchanges the record holds per route, in
// the order the routes first appear.
func RouteCounts(rec *Record) ([]string, map[string]int) {
	var order []string
	counts := make(map[string]int)
	for _, e := range rec.Exchanges {
		if counts[e.Route] == 0 {
			order = append(order, e.Route)
		}
		counts[e.Route]++
	}
	return order, counts
}
