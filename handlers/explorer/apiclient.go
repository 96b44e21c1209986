package explorer

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/handlers/api"
)

// The explorer reads through the API: a page asks the API's own routes, in
// process, for the reply a client would get. No HTTP connection is made:
// the request goes straight to the API's router under the page request's
// context (its deadline and cancellation), past the rate limiter and the
// time budget, which the page request itself already went through.

// apiCall is one GET of the API: path below the base URL, made of segments
// joined with "/".
type apiCall struct {
	Path  string
	Query url.Values
	// err, when set, is why the call is not made: a 400 (call).
	err error
}

// call makes an apiCall from path segments. A segment is one element of
// the path, usually a value from the page's URL: one that is empty, "." or
// ".." or holds a "/" would make the joined path name another route (or be
// cleaned into another path), so the call is refused with a 400 naming the
// segment instead of being made.
func call(query url.Values, segments ...string) apiCall {
	c := apiCall{Path: "/" + strings.Join(segments, "/"), Query: query}
	for _, seg := range segments {
		if seg == "" || seg == "." || seg == ".." || strings.Contains(seg, "/") {
			c.err = api.BadRequest("invalid value '%s': a value in an API path is never empty, '.' or '..' and holds no '/'",
				api.Truncate(seg))
			break
		}
	}
	return c
}

// object is a JSON object of an API reply, decoded with json.Number for
// numbers, so amounts and heights keep every digit.
type object = map[string]any

// get makes one call and returns its reply's JSON object. A reply that is
// not a 2xx becomes an *api.Error with the reply's status and message.
func (s *server) get(ctx context.Context, c apiCall) (object, error) {
	reply, err := s.getJSON(ctx, c)
	if err != nil {
		return nil, err
	}
	obj, ok := reply.(object)
	if !ok {
		return nil, fmt.Errorf("reading %s: the reply is no JSON object", c.Path)
	}
	return obj, nil
}

// getJSON makes one call and returns its decoded reply, whatever its shape.
func (s *server) getJSON(ctx context.Context, c apiCall) (any, error) {
	status, reply, err := s.getReply(ctx, c)
	if err != nil {
		return nil, err
	}
	if status < 200 || status > 299 {
		return nil, &api.Error{Status: status, Message: replyMessage(reply, status)}
	}
	return reply, nil
}

// getReply makes one call and returns its status and decoded body,
// whatever the status: for the replies whose body says more than an
// error's message (a health check's 503 says which chain is down and why).
func (s *server) getReply(ctx context.Context, c apiCall) (int, any, error) {
	if c.err != nil {
		return 0, nil, c.err
	}
	u := &url.URL{Path: c.Path, RawQuery: c.Query.Encode()}
	r, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return 0, nil, fmt.Errorf("making the request for %s: %w", c.Path, err)
	}
	r.URL.Path, r.URL.RawPath = c.Path, ""
	r.RequestURI = ""
	info := &api.RequestInfo{MetricsService: api.IsMetricsPath(c.Path)}
	if outer := api.RequestInfoFrom(ctx); outer != nil {
		info.APIKey = outer.APIKey
	}
	r = r.WithContext(api.WithRequestInfo(ctx, info))

	rec := &replyRecorder{header: http.Header{}, status: http.StatusOK}
	s.apiRoutes.ServeHTTP(rec, r)

	dec := json.NewDecoder(bytes.NewReader(rec.body.Bytes()))
	dec.UseNumber()
	var reply any
	decodeErr := dec.Decode(&reply)
	if decodeErr != nil && rec.status >= 200 && rec.status <= 299 {
		return 0, nil, fmt.Errorf("decoding the reply of %s: %w", c.Path, decodeErr)
	}
	return rec.status, reply, nil
}

// replyMessage is the message of an API error body (a string, or the
// metrics service's array of strings).
func replyMessage(reply any, status int) string {
	body, _ := reply.(object)
	switch m := body["message"].(type) {
	case string:
		return m
	case []any:
		var parts []string
		for _, p := range m {
			parts = append(parts, fmt.Sprint(p))
		}
		return strings.Join(parts, "; ")
	}
	return http.StatusText(status)
}

// reply is one answer of getAll.
type reply struct {
	Body object
	Err  error
}

// getAll makes the calls concurrently (runAll) and returns their replies
// in order.
func (s *server) getAll(ctx context.Context, calls ...apiCall) []reply {
	replies := make([]reply, len(calls))
	tasks := make([]func() error, len(calls))
	for i, c := range calls {
		tasks[i] = func() error {
			replies[i].Body, replies[i].Err = s.get(ctx, c)
			return nil
		}
	}
	for i, err := range runAll(ctx, tasks...) {
		if err != nil { // a panic, or ctx ended before the call's turn
			replies[i] = reply{Err: fmt.Errorf("reading %s: %w", calls[i].Path, err)}
		}
	}
	return replies
}

// apiParallel bounds the in-process API calls one page makes at once: the
// home page makes two per EVM chain and eight more, a search a dozen, and
// a page is one request among the node's other work.
const apiParallel = 8

// runAll runs the tasks concurrently, at most apiParallel at a time, and
// returns their errors in order once all have ended. A task that panics
// fails with the panic (a panic that escaped would crash the node); a task
// still waiting for its turn when ctx ends fails with ctx's error.
func runAll(ctx context.Context, tasks ...func() error) []error {
	errs := make([]error, len(tasks))
	turns := make(chan struct{}, apiParallel)
	var wg sync.WaitGroup
	for i, task := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					errs[i] = fmt.Errorf("panic: %v", p)
				}
			}()
			select {
			case turns <- struct{}{}:
				defer func() { <-turns }()
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			errs[i] = task()
		}()
	}
	wg.Wait()
	return errs
}

// firstError is the first error among replies, or nil.
func firstError(replies []reply) error {
	for _, r := range replies {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// replyRecorder keeps an in-process reply.
type replyRecorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (w *replyRecorder) Header() http.Header { return w.header }

func (w *replyRecorder) WriteHeader(status int) {
	if !w.wrote {
		w.status, w.wrote = status, true
	}
}

func (w *replyRecorder) Write(b []byte) (int, error) {
	w.wrote = true
	return w.body.Write(b)
}

// NetworkSegment is the API's {network} path segment for the node's
// network: "mainnet", "fuji", "local", or "testnet", which names any other
// network on a node of it (api.IsNodeNetwork).
func NetworkSegment(networkID uint32) string {
	switch networkID {
	case constants.MainnetID:
		return "mainnet"
	case constants.FujiID:
		return "fuji"
	case constants.LocalID:
		return "local"
	}
	return "testnet"
}

// listPageSize is the length of every list a page shows, a page at a time
// (the validator page's validations excepted: validationsPageSize).
const listPageSize = 25

// pageQuery is the query of a list call: the page size, and the page the
// explorer URL's "page" names (the API's nextPageToken of the page before).
func pageQuery(req *request, pageSize int) url.Values {
	q := url.Values{}
	q.Set("pageSize", fmt.Sprint(pageSize))
	if token := req.Query.Get("page"); token != "" {
		q.Set("pageToken", token)
	}
	return q
}
