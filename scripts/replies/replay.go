package replies

import (
	"context"
	"fmt"
	"io"
)

// ReplayResult is what a replay found.
type ReplayResult struct {
	// Identical and Differ count replies.
	Identical, Differ int
	// Differences lists every differing field, in request order.
	Differences []Difference
	// Live is the replay's own record, in the record's format.
	Live *Record
}

// Replay sends exactly the requests of rec again, in order, each page token
// taken from the live reply its request names, and compares every reply
// with the recorded one.
func Replay(ctx context.Context, client *Client, rec *Record) (*ReplayResult, error) {
	res := &ReplayResult{Live: &Record{Format: recordFormat, Base: client.Base, Node: client.Node, IDs: rec.IDs}}
	s := newSession(client)
	for _, e := range rec.Exchanges {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("replaying: %w", err)
		}
		live := s.send(ctx, e.Request)
		res.Live.Exchanges = append(res.Live.Exchanges, Exchange{Index: e.Index, Route: e.Route, Request: e.Request, Reply: live})
		diffs := compareReplies(e, e.Reply, live)
		if len(diffs) == 0 {
			res.Identical++
			continue
		}
		res.Differ++
		res.Differences = append(res.Differences, diffs...)
	}
	return res, nil
}

// Report prints the summary line, then every difference.
func (r *ReplayResult) Report(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "%d replies identical, %d differ\n", r.Identical, r.Differ); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	for _, d := range r.Differences {
		if _, err := fmt.Fprint(w, "\n"+d.String()); err != nil {
			return fmt.Errorf("writing the report: %w", err)
		}
	}
	return nil
}
