package replies

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"
)

// recordFormat is the version of the record file's layout; replay refuses
// other versions instead of misreading them.
const recordFormat = 1

// Record is the file record writes and replay reads.
type Record struct {
	Format int `json:"format"`
	// Base and Node are the URLs the record was made against, for the
	// reader; replay sends to the URLs it is given.
	Base string `json:"base"`
	Node string `json:"node"`
	// IDs are the values discovered on the network that the request set's
	// placeholders were filled with, for the reader.
	IDs map[string]string `json:"ids"`
	// Exchanges are the requests in the order they were sent, each with its
	// reply.
	Exchanges []Exchange `json:"exchanges"`
}

// Exchange is one request and its reply.
type Exchange struct {
	Index int `json:"index"`
	// Route is the route the request set files the request under (a route
	// name of the routing table, or a pseudo route such as notFound).
	Route   string  `json:"route"`
	Request Request `json:"request"`
	Reply   Reply   `json:"reply"`
}

// Request is one request as it is sent, but for the page token, which is
// taken from a live reply when the request is sent (see TokenFrom).
type Request struct {
	Method string `json:"method"`
	// Target is the path and query, relative to the API's base URL, or to
	// the node's URL when it starts with /ext/. The text ${pageToken}, when
	// TokenFrom is set, stands for a live page token.
	Target string            `json:"target"`
	Header map[string]string `json:"header,omitempty"`
	Body   string            `json:"body,omitempty"`
	// BodyRepeat, when above 1, sends Body that many times over: bodies
	// past a size limit stay short in the record.
	BodyRepeat int `json:"bodyRepeat,omitempty"`
	// TokenFrom is the index of the exchange whose live reply's
	// nextPageToken replaces ${pageToken} in Target.
	TokenFrom *int `json:"tokenFrom,omitempty"`
	// TokenEdit changes the live token before it is sent: "tamper" changes
	// one of its characters (a token whose signature does not match).
	TokenEdit string `json:"tokenEdit,omitempty"`
	// PageOf is set on a followed page: page Page (2 for the second) of the
	// listing that request Request started.
	PageOf *PageRef `json:"pageOf,omitempty"`
	// Normalise names the normalisers applied to the reply on top of the
	// page tokens' (normalise.go).
	Normalise []string `json:"normalise,omitempty"`
}

// PageRef names a followed page: "page Page after request Request".
type PageRef struct {
	Request int `json:"request"`
	Page    int `json:"page"`
}

// Reply is what came back, normalised (normalise.go).
type Reply struct {
	// Error is set when no reply came (the connection failed); the other
	// fields are then empty.
	Error  string              `json:"error,omitempty"`
	Status int                 `json:"status"`
	Header map[string][]string `json:"header"`
	// Body holds the body when it is valid UTF-8 (JSON strings cannot
	// carry other bytes), else BodyBase64 does.
	Body       string `json:"body"`
	BodyBase64 string `json:"bodyBase64,omitempty"`
}

// setBody stores b in the field that keeps its bytes exactly.
func (r *Reply) setBody(b []byte) {
	if utf8.Valid(b) {
		r.Body, r.BodyBase64 = string(b), ""
		return
	}
	r.Body, r.BodyBase64 = "", base64.StdEncoding.EncodeToString(b)
}

// body returns the stored body bytes.
func (r Reply) body() ([]byte, error) {
	if r.BodyBase64 == "" {
		return []byte(r.Body), nil
	}
	b, err := base64.StdEncoding.DecodeString(r.BodyBase64)
	if err != nil {
		return nil, fmt.Errorf("decoding a base64 body: %w", err)
	}
	return b, nil
}

// describe names a request in reports: "#12 GET /v1/chains (page 3 after
// #11)".
func (e Exchange) describe() string {
	s := fmt.Sprintf("#%d %s %s", e.Index, e.Request.Method, e.Request.Target)
	if e.Request.BodyRepeat > 1 {
		s += fmt.Sprintf(" (body of %d bytes)", len(e.Request.Body)*e.Request.BodyRepeat)
	} else if e.Request.Body != "" {
		s += " body " + strings.TrimSpace(e.Request.Body)
	}
	if p := e.Request.PageOf; p != nil {
		s += fmt.Sprintf(" (page %d after #%d)", p.Page, p.Request)
	}
	return s
}

// WriteRecord writes rec to path, indented so that a reader can look up a
// request; bodies stay strings, so their bytes are kept exactly.
func WriteRecord(path string, rec *Record) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rec); err != nil {
		return fmt.Errorf("encoding the record: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing the record: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing the record: %w", err)
	}
	return nil
}

// ReadRecord reads a record written by WriteRecord.
func ReadRecord(path string) (*Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the record: %w", err)
	}
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("parsing the record %s: %w", path, err)
	}
	if rec.Format != recordFormat {
		return nil, fmt.Errorf("the record %s has format %d; this tool reads format %d", path, rec.Format, recordFormat)
	}
	for i, e := range rec.Exchanges {
		if e.Index != i {
			return nil, fmt.Errorf("the record %s: exchange %d carries index %d", path, i, e.Index)
		}
		if t := e.Request.TokenFrom; t != nil && (*t < 0 || *t >= i) {
			return nil, fmt.Errorf("the record %s: exchange %d takes its page token from #%d, which is not an earlier exchange", path, i, *t)
		}
	}
	return &rec, nil
}
