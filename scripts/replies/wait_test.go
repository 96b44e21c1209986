package replies

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// settlingNode answers /v1/status with a follower that catches up on the
// third call, and the P-chain's proposed height with one that reaches its
// height on the second call after that.
type settlingNode struct {
	statusCalls, proposedCalls atomic.Int64
}

func (n *settlingNode) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/ext/bc/data/v1/status":
		caughtUp := n.statusCalls.Add(1) >= 3
		fmt.Fprintf(w, `{"chains":[{"chain":"P","indexedHeight":6,"nodeHeight":6,"lag":0,"caughtUp":%t,"running":true}]}`, caughtUp)
	case "/ext/bc/P":
		var req struct {
			Method string `json:"method"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		height := "6"
		if req.Method == "platform.getProposedHeight" && n.proposedCalls.Add(1) < 2 {
			height = "4"
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":{"height":%q}}`, height)
	default:
		http.NotFound(w, r)
	}
}

func TestWaitCaughtUp(t *testing.T) {
	node := &settlingNode{}
	srv := httptest.NewServer(node)
	defer srv.Close()
	c := NewClient(srv.URL+"/ext/bc/data", srv.URL)
	require.NoError(t, WaitCaughtUp(context.Background(), c, time.Minute))
	require.Equal(t, int64(4), node.statusCalls.Load())
	require.Equal(t, int64(2), node.proposedCalls.Load())
}

func TestWaitCaughtUpTimesOut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"chains":[{"chain":"C","indexedHeight":1,"nodeHeight":9,"lag":8,"running":true}]}`)
	}))
	defer srv.Close()
	err := WaitCaughtUp(context.Background(), NewClient(srv.URL+"/ext/bc/data", srv.URL), 100*time.Millisecond)
	require.ErrorContains(t, err, "follower C: indexed 1 of 9")
}
