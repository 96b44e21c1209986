package replies

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// tokenMarker stands for a live page token in a request's Target.
const tokenMarker = "${pageToken}"

// requestTimeout bounds one request. avadata answers every request within
// its own time budget (20 s by default) or says it ran out; this only keeps
// a dead node from hanging the run.
const requestTimeout = time.Minute

// Client sends the requests of a record to a running node.
type Client struct {
	// Base is the API's base URL, e.g. http://127.0.0.1:9850/ext/bc/data.
	Base string
	// Node is the node's URL, e.g. http://127.0.0.1:9850.
	Node string
	http *http.Client
}

// NewClient returns a Client for base and node. It speaks plain HTTP/1.1
// and asks for no compression, so the replies are the bytes the node sends
// and every request reaches the plugin the same way (the node passes an
// HTTP/1.1 request on without the client's address).
func NewClient(base, node string) *Client {
	transport := &http.Transport{
		DisableCompression: true,
		ForceAttemptHTTP2:  false,
		MaxIdleConns:       4,
		IdleConnTimeout:    30 * time.Second,
	}
	return &Client{
		Base: strings.TrimRight(base, "/"),
		Node: strings.TrimRight(node, "/"),
		http: &http.Client{
			Transport: transport,
			// A redirect is a reply like any other: record it, do not follow.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
}

// url is the absolute URL of a target: under the node for /ext/..., else
// under the API's base.
func (c *Client) url(target string) string {
	if strings.HasPrefix(target, "/ext/") {
		return c.Node + target
	}
	return c.Base + target
}

// Send sends req with token in place of its token marker and returns the
// raw reply: status, the recorded headers and the body as it came. A
// failure to get any reply is returned in Reply.Error, not as an error: it
// is a result to record and compare like a status.
func (c *Client) Send(ctx context.Context, req Request, token string) (Reply, []byte) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	target := strings.ReplaceAll(req.Target, tokenMarker, token)
	body := []byte(req.Body)
	if req.BodyRepeat > 1 {
		body = bytes.Repeat(body, req.BodyRepeat)
	}
	var reader io.Reader
	if len(body) > 0 {
		reader = bytes.NewReader(body)
	}
	httpReq, err := http.NewRequestWithContext(ctx, req.Method, c.url(target), reader)
	if err != nil {
		return Reply{Error: fmt.Sprintf("building the request: %v", err)}, nil
	}
	for name, value := range req.Header {
		httpReq.Header.Set(name, value)
	}
	resp, err := c.http.Do(httpReq)
	if err != nil {
		return Reply{Error: fmt.Sprintf("sending the request: %v", err)}, nil
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return Reply{Error: fmt.Sprintf("reading the reply of status %d: %v", resp.StatusCode, err)}, nil
	}
	return Reply{Status: resp.StatusCode, Header: recordedHeaders(resp.Header)}, raw
}

// nextPageToken returns the top-level nextPageToken of a JSON reply body,
// "" when it has none.
func nextPageToken(body []byte) string {
	var page struct {
		NextPageToken string `json:"nextPageToken"`
	}
	if json.Unmarshal(body, &page) != nil {
		return ""
	}
	return page.NextPageToken
}

// editToken applies a request's TokenEdit to a live token.
func editToken(token, edit string) (string, error) {
	switch edit {
	case "":
		return token, nil
	case tokenEditTamper:
		return tamperToken(token), nil
	default:
		return "", fmt.Errorf("unknown token edit %q", edit)
	}
}

// tokenEditTamper changes one character of a token.
const tokenEditTamper = "tamper"

// tamperToken changes the character in the middle of a token. The middle
// one carries six bits of the signed payload (the last character of
// unpadded base64 may carry unused bits, which decode to the same bytes),
// so the node must reject the result.
func tamperToken(token string) string {
	if token == "" {
		return token
	}
	b := []byte(token)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}
