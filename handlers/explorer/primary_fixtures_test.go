package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest/fakenet"
)

// Canned replies of the primary-network API for the pages' unit tests, in
// the shapes handlers/primary writes, on fakenet's local network ({network}
// is "local").

const (
	primaryAPI  = "/v1/networks/local/blockchains/"
	hostileText = `<script>alert("x")</script>`
	escapedText = `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`
	addrA       = "local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
	txID1       = "2QouvFWUbjuySRxeX5xMbNCuAaKWfbk5FeEa2JmoF85RKLk2dD"
	txID2       = "S2mRW6hK5XXPCtpmHjPvrg7MUbtqrLmLU9yXpcJDxNF7dbC3A"
	blockID1    = "2wbGpq6SPP5UvbjWvyVbKSMpwNDXu9iYXE8p5GiMjBvRJMJrhk"
	blockID0    = "gXfCZMGQ8kNjB3yTSCPEyr7VFGRoaWE4oLYmSYaTmqxSaHG8H"
	nodeID      = "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"
	assetID     = "2nzgmhZLuVq8jc7NNu2eahkKwoJcbFWXWJCxHBVWAJEZkhquoK"
)

// The fake network's chain IDs, as the API writes them.
var (
	pChainID = "11111111111111111111111111111111LpoYY"
	xChainID = fakenet.XChainID.String()
	cChainID = fakenet.CChainID.String()
)

// pageBody GETs a page, requires its status and returns its body.
func pageBody(t *testing.T, h http.Handler, path string, status int) string {
	t.Helper()
	rec := getPage(t, h, path)
	require.Equal(t, status, rec.Code, "GET %s: %s", path, rec.Body.String())
	return rec.Body.String()
}

// explorerLink is an explorer path as the pages write it in href.
func explorerLink(path string) string { return `href="/ext/bc/data/explorer` + path + `"` }
