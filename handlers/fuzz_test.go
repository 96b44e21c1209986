package handlers

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/avadata/avadata/handlers/handlertest"
)

// FuzzRouter sends arbitrary requests to the whole HTTP layer and checks the
// promises every reply keeps: no panic and no 5xx; every non-2xx reply is
// application/json in the spec's error body, but for a GET of the explorer's
// pages (below /explorer), which are for people: there it is a text/html
// page; every JSON-RPC reply is valid JSON-RPC 2.0. The peer address and X-Forwarded-For are fuzzed too, since
// the rate limiter parses them before anything else. `make test` runs it
// for a bounded time.
func FuzzRouter(f *testing.F) {
	type seed struct{ method, path, query, body string }
	seeds := []seed{
		{"GET", "v1/chains/43112/addresses/0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC/transactions", "pageSize=3&sortOrder=asc", ""},
		{"GET", "v1/chains/43112/addresses/\n/transactions", "", ""},
		{"GET", "v1/chains/c-chain/tokens/0x0000000000000000000000000000000000000001/transfers", "pageToken=%00", ""},
		{"GET", "v1/networks/local/blockchains/p-chain/transactions", "addresses=P-local1x&txTypes=AddValidatorTx", ""},
		{"GET", "v1/networks/local/blockchains/p-chain/transactions", "l1ValidationId=" + handlertest.Validation.String() + "&pageSize=1", ""},
		{"GET", "v1/networks/local/blockchains/x-chain/transactions", "addresses=local15x328f9956n632d24wk2mt40kzcm9va5zj40z6&startTimestamp=1600000000", ""},
		{"GET", "v1/networks/local/blockchains/c-chain/balances", "addresses=" + handlertest.EVMAddr + "&blockTimestamp=1", ""},
		{"GET", "v1/networks/local/blockchains/p-chain/nodes/" + handlertest.NodeID + "/blocks", "pageSize=2&endTimestamp=1600000030", ""},
		{"GET", "v1/networks/local/blockchains/p-chain/transactions:listStaking", "txTypes=AddDelegatorTx&sortOrder=asc&pageSize=1", ""},
		{"GET", "v1/networks/local/rewards", "nodeIds=" + handlertest.NodeID + "&pageSize=2", ""},
		{"GET", "v1/networks/local/validators/" + handlertest.NodeID, "validationStatus=active", ""},
		{"GET", "v1/networks/local/delegators", "rewardAddresses=local1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjhn9zv&pageToken=x", ""},
		{"GET", "metrics/v2/chains/43112/contracts/0x0000000000000000000000000000000000000001/nfts:listHolders", "pageSize=5001", ""},
		{"GET", "metrics/v1/avg_tps/p-chain", "pageSize=-1", ""},
		{"POST", "rpc", "", `{"jsonrpc":"2.0","method":"avadata.status","params":{},"id":1}`},
		{"POST", "rpc", "", `null`},
		{"POST", "rpc", "", `[{"jsonrpc":"2.0"}]`},
		{"POST", "v1/signatureAggregator/local/aggregateSignatures", "", `{"message":"0xzz"}`},
		{"DELETE", "v1/status", "", ""},
		{"GET", "v1/chains/%zz", "a=%", ""},
		{"GET", "explorer", "", ""},
		{"GET", "explorer/", "chart=%00&interval=week", ""},
		{"GET", "explorer/search", "q=0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", ""},
		{"GET", "explorer/search", "q=" + handlertest.NodeID, ""},
		{"GET", "explorer/search", "q=%3Cscript%3E", ""},
		{"GET", "explorer/status", "", ""},
		{"GET", "explorer/no/such/page", "", ""},
	}
	// Control characters in path segments (the node passes them on decoded,
	// e.g. %0A as a newline) and in queries.
	for _, c := range []string{"\n", "\r", "\t", "\x00", "\x7f", "\r\n", " "} {
		seeds = append(seeds,
			seed{"GET", "v1/chains/43112/addresses/" + c + "/transactions", "", ""},
			seed{"GET", "v1/" + c + "nothing", "", ""},
			seed{"GET", "metrics/v1/avg_tps/" + c, "pageToken=" + c, ""},
			seed{"POST", "rpc" + c, "", `{"jsonrpc":"2.0","method":"avadata.status","id":1}`},
		)
	}
	// JSON-RPC bodies that are no request object.
	for _, body := range []string{`null`, `{}`, `{"jsonrpc":"2.0","id":1}`, `{"jsonrpc":"2.0","method":null,"id":1}`,
		`[]`, `[1]`, `42`, `-1.5e3`, `"avadata.status"`, `true`, `{"jsonrpc":"2.0","method":"avadata.status","id":{}}`,
		`{"jsonrpc":"2.0","method":"avadata.status"}`, ` `, "\x00"} {
		seeds = append(seeds, seed{"POST", "rpc", "", body})
	}
	peers := []struct{ remoteAddr, forwardedFor string }{
		{"", ""}, {"127.0.0.1:4000", "198.51.100.7"}, {"[::1]:1", "garbage, 2001:db8::1"}, {"192.0.2.1:80", "10.0.0.1"},
	}
	for i, sd := range seeds {
		p := peers[i%len(peers)]
		f.Add(sd.method, sd.path, sd.query, sd.body, p.remoteAddr, p.forwardedFor)
	}
	srv := newTestAPI(&testing.T{}, handlertest.Config(), handlertest.WithFixtures(&testing.T{}, handlertest.NewFakes()), &handlertest.Controller{})
	f.Fuzz(func(t *testing.T, method, path, query, body, remoteAddr, forwardedFor string) {
		if !validMethod(method) {
			method = http.MethodGet
		}
		req := httptest.NewRequest(http.MethodGet, "http://node/", strings.NewReader(body))
		req.Method = method
		req.URL.Path, req.URL.RawPath, req.URL.RawQuery = "/ext/bc/data/"+path, "", query
		req.RemoteAddr, req.Host = remoteAddr, ""
		if forwardedFor != "" {
			req.Header.Set("X-Forwarded-For", forwardedFor)
		}
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			defer close(done)
			srv.Handler.ServeHTTP(rec, req)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s %q?%q hung", method, path, query)
		}
		checkReply(t, req, rec, body)
	})
}

func validMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodHead, http.MethodOptions, http.MethodPatch:
		return true
	}
	return false
}

func checkReply(t *testing.T, req *http.Request, rec *httptest.ResponseRecorder, body string) {
	t.Helper()
	res := rec.Result()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode >= 500 {
		t.Fatalf("%s %q?%q: %d %s", req.Method, req.URL.Path, req.URL.RawQuery, res.StatusCode, raw)
	}
	if res.StatusCode == http.StatusTooManyRequests && res.Header.Get("Retry-After") == "" {
		t.Fatalf("%s %q: 429 without Retry-After", req.Method, req.URL.Path)
	}
	if req.Method == http.MethodPost && req.URL.Path == "/ext/bc/data/rpc" && res.StatusCode < 300 {
		checkJSONRPC(t, body, raw)
		return
	}
	if res.StatusCode < 300 || req.Method == http.MethodHead {
		return
	}
	if req.Method == http.MethodGet && isExplorerPath(req.URL.Path) {
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("GET %q: %d with Content-Type %q; want an HTML page", req.URL.Path, res.StatusCode, ct)
		}
		return
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s %q: %d with Content-Type %q", req.Method, req.URL.Path, res.StatusCode, ct)
	}
	var e struct {
		Message    json.RawMessage `json:"message"`
		Error      *string         `json:"error"`
		StatusCode *int            `json:"statusCode"`
	}
	if err := json.Unmarshal(raw, &e); err != nil || e.Message == nil || e.Error == nil || e.StatusCode == nil ||
		*e.StatusCode != res.StatusCode {
		t.Fatalf("%s %q: %d without the spec's error body: %s", req.Method, req.URL.Path, res.StatusCode, raw)
	}
}

// isExplorerPath says whether path is the explorer's, below the base URL.
func isExplorerPath(path string) bool {
	rest := strings.TrimPrefix(path, "/ext/bc/data/explorer")
	return rest != path && (rest == "" || strings.HasPrefix(rest, "/"))
}

// checkJSONRPC requires a JSON-RPC 2.0 response, or no body for a valid
// notification (a request object with a method and no id).
func checkJSONRPC(t *testing.T, request string, raw []byte) {
	t.Helper()
	if len(strings.TrimSpace(string(raw))) == 0 {
		var req map[string]json.RawMessage
		if json.Unmarshal([]byte(request), &req) != nil || req["method"] == nil || req["id"] != nil {
			t.Fatalf("empty JSON-RPC reply to %q", request)
		}
		return
	}
	var reply struct {
		JSONRPC string          `json:"jsonrpc"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil || reply.JSONRPC != "2.0" || (reply.Result == nil) == (reply.Error == nil) {
		t.Fatalf("invalid JSON-RPC reply to %q: %s", request, raw)
	}
}
