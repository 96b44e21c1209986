// Package nodeapi is avadata's typed client for the host node's own APIs,
// reached over loopback: the index API (P/X blocks as consensus accepted
// them), the platform, avm and info JSON-RPC services, and each EVM chain's
// Ethereum JSON-RPC (EVMClient). It wraps avalanchego's own clients and adds
// only what they lack (batched eth calls within the node's limits).
package nodeapi

import (
	"fmt"
	"strings"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/indexer"
	"github.com/ava-labs/avalanchego/vms/avm"
	"github.com/ava-labs/avalanchego/vms/platformvm"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Client reaches one node. Its methods are safe for concurrent use.
type Client struct {
	uri      string
	Info     *info.Client
	Platform *platformvm.Client
	AVM      *avm.Client
	blocks   map[netinfo.Chain]*indexer.Client
}

// New returns a client for the node at uri (e.g. http://127.0.0.1:9650).
func New(uri string) *Client {
	uri = strings.TrimRight(uri, "/")
	c := &Client{
		uri:      uri,
		Info:     info.NewClient(uri),
		Platform: platformvm.NewClient(uri),
		AVM:      avm.NewClient(uri, "X"),
		blocks:   map[netinfo.Chain]*indexer.Client{},
	}
	for _, chain := range []netinfo.Chain{netinfo.P, netinfo.X} {
		c.blocks[chain] = indexer.NewClient(fmt.Sprintf("%s/ext/index/%s/block", uri, chain))
	}
	return c
}

// URI is the node's base URI.
func (c *Client) URI() string { return c.uri }

// BlockIndex is the node's index of accepted blocks of P or X.
func (c *Client) BlockIndex(chain netinfo.Chain) *indexer.Client { return c.blocks[chain] }
