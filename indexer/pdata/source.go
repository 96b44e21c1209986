package pdata

import "github.com/avadata/avadata/indexer/netinfo"

// ChainSource says where a P- or X-chain index read its blocks from, and so
// what it cannot hold. The zero value is the node's index API: every index
// built before the choice existed, and every node started with
// --index-enabled.
type ChainSource struct {
	// ByHeight: the blocks came from the VM's getBlockByHeight (a node
	// without --index-enabled). They carry no proposer, and their IDs are
	// the VM's own block IDs.
	ByHeight bool
	// MissingDAG: the chain is the X-chain of a network that had a DAG era
	// before Cortina (Mainnet, Fuji), which getBlockByHeight cannot
	// enumerate: its vertices, their txs and the UTXOs they made or spent
	// are not in the index.
	MissingDAG bool
}

// IndexEnabledHint is what the node flag would give, for messages and
// status: the proposervm headers, and the DAG-era vertices, come only from
// the node's index API, which is complete only on a node that had the flag
// from its first start.
const IndexEnabledHint = "start the node with --index-enabled=true (from its first start: on a node that ran " +
	"without it the index API is incomplete, so re-bootstrap it with the flag), then delete avadata's index so " +
	"it is rebuilt from the index API"

// VMAPI is the namespace of chain's (P or X) own API, "platform" or "avm":
// where a node without the index API serves its blocks (getBlockByHeight)
// and looks them up by the VM's own block IDs (getBlock).
func VMAPI(chain netinfo.Chain) string {
	if chain == netinfo.P {
		return "platform"
	}
	return "avm"
}
