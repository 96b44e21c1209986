package handlertest

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/gorilla/mux"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

// Fixtures of the route tests (local network, see LocalInfo).
var (
	NodeID   = ids.BuildTestNodeID([]byte{1, 2, 3}).String()
	NodeID2  = ids.BuildTestNodeID([]byte{4, 5, 6}).String()
	TxID     = ids.ID{'t', 'x'}.String()
	EVMAddr  = "0x71C7656EC7ab88b098defB751B7401B5f6d8976F"
	EVMAddr2 = "0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e"
)

// Bech32Addr returns a bech32 X/P address with prefix hrp.
func Bech32Addr(t *testing.T, hrp string, seed byte) string {
	t.Helper()
	addr := make([]byte, 20)
	for i := range addr {
		addr[i] = seed + byte(i)
	}
	s, err := address.FormatBech32(hrp, addr)
	require.NoError(t, err)
	return s
}

// RouteCase is one request against the router and the reply it must get:
// a 400 (or other error) whose message contains every fragment; with status
// 404 and notServed set, the "not served yet" reply of template; with status
// 200, a JSON body without nulls that has bodyKey.
type RouteCase struct {
	Name      string
	Method    string // GET when empty
	Path      string
	Body      string
	Status    int
	Fragments []string
	NotServed string // the route template of a Valid request
	BodyKey   string // a member the 200 body has
}

// OK is a case for a request served with 200 and a body that has key.
func OK(name, path, key string) RouteCase {
	return RouteCase{Name: name, Path: path, Status: http.StatusOK, BodyKey: key}
}

// Failing is a case for Valid input that gets an error status.
func Failing(name, path string, status int, fragments ...string) RouteCase {
	return RouteCase{Name: name, Path: path, Status: status, Fragments: fragments}
}

// Valid is a case for Valid input of the route with template tpl.
func Valid(name, path, tpl string) RouteCase {
	return RouteCase{Name: name, Path: path, Status: http.StatusNotFound, NotServed: tpl}
}

// Invalid is a case for input rejected with a 400 naming the fragments.
func Invalid(name, path string, fragments ...string) RouteCase {
	return RouteCase{Name: name, Path: path, Status: http.StatusBadRequest, Fragments: fragments}
}

// MuxVars sets the path variables of a request built outside the router.
func MuxVars(r *http.Request, vars map[string]string) *http.Request { return mux.SetURLVars(r, vars) }

func RunRouteCases(t *testing.T, srv *API, cases []RouteCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			method := tc.Method
			if method == "" {
				method = http.MethodGet
			}
			rec := srv.Request(t, method, tc.Path, tc.Body)
			if tc.Status == http.StatusOK {
				var body map[string]any
				RequireJSON(t, rec, http.StatusOK, &body)
				RequireNoNulls(t, body)
				require.Contains(t, body, tc.BodyKey)
				return
			}
			fragments := tc.Fragments
			if tc.NotServed != "" {
				fragments = append(fragments, method+" "+tc.NotServed+" is not served by avadata v-test yet")
			}
			u, err := url.Parse(tc.Path)
			require.NoError(t, err)
			if api.IsMetricsPath(api.StripChainPrefix(u.Path)) {
				RequireMetricsError(t, rec, tc.Status, fragments...)
			} else {
				RequireDataError(t, rec, tc.Status, fragments...)
			}
		})
	}
}
