// Package nodeapi is avadata's typed client for the host node's own APIs,
// reached over loopback: the index API (P/X/C blocks as consensus accepted
// them), the platform and avm JSON-RPC services, and the C-chain's Ethereum
// JSON-RPC. It wraps avalanchego's own clients and adds only what they lack
// (batched eth calls).
package nodeapi

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/indexer"
	"github.com/ava-labs/avalanchego/vms/avm"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/libevm/rpc"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Client reaches one node. Its methods are safe for concurrent use.
type Client struct {
	uri      string
	Info     *info.Client
	Platform *platformvm.Client
	AVM      *avm.Client
	eth      *rpc.Client
	blocks   map[netinfo.Chain]*indexer.Client
}

// requestTimeout bounds any single call so that a wedged node never hangs a
// follower forever (contexts from callers may carry no deadline).
const requestTimeout = 30 * time.Second

// New returns a client for the node at uri (e.g. http://127.0.0.1:9650).
func New(uri string) (*Client, error) {
	uri = strings.TrimRight(uri, "/")
	eth, err := rpc.DialHTTPWithClient(uri+"/ext/bc/C/rpc", &http.Client{Timeout: requestTimeout})
	if err != nil {
		return nil, fmt.Errorf("dialing C-chain JSON-RPC at %s: %w", uri, err)
	}
	c := &Client{
		uri:      uri,
		Info:     info.NewClient(uri),
		Platform: platformvm.NewClient(uri),
		AVM:      avm.NewClient(uri, "X"),
		eth:      eth,
		blocks:   map[netinfo.Chain]*indexer.Client{},
	}
	for _, chain := range netinfo.Chains {
		c.blocks[chain] = indexer.NewClient(fmt.Sprintf("%s/ext/index/%s/block", uri, chain))
	}
	return c, nil
}

// URI is the node's base URI.
func (c *Client) URI() string { return c.uri }

// BlockIndex is the node's index of accepted blocks of chain.
func (c *Client) BlockIndex(chain netinfo.Chain) *indexer.Client { return c.blocks[chain] }

// Close releases the eth client's connections.
func (c *Client) Close() { c.eth.Close() }

// withTimeout gives a call the request timeout unless ctx is shorter.
func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, requestTimeout)
}
