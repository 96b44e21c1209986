package primary

import (
	"context"
	"fmt"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// A node started without --index-enabled gives avadata the P- and X-chain
// blocks only through the VMs' getBlockByHeight (the store records it per
// chain, Reader.ChainSource): no proposervm headers, and on a network whose
// X-chain had a DAG era (Mainnet, Fuji) none of its vertices. Block shapes
// then omit the proposer fields (optional in the spec); the operations
// below, whose answers would be empty or short rather than wrong-looking,
// are refused with a 400 naming the flag.

// chainSource reads how chain's index was built; C-chain and L1 chains are
// never built from getBlockByHeight.
func (s *server) chainSource(ctx context.Context, chain netinfo.Chain) (pdata.ChainSource, error) {
	if chain != netinfo.P && chain != netinfo.X {
		return pdata.ChainSource{}, nil
	}
	src, err := s.reader.ChainSource(ctx, chain)
	if err != nil {
		return src, fmt.Errorf("reading how the %s-chain index was built: %w", chain, err)
	}
	return src, nil
}

// refuseWithoutProposers refuses an operation about block proposers on a
// chain whose index holds none.
func (s *server) refuseWithoutProposers(ctx context.Context, chain netinfo.Chain, what string) error {
	src, err := s.chainSource(ctx, chain)
	if err != nil || !src.ByHeight {
		return err
	}
	return api.BadRequest("%s cannot be known on this node: its %s-chain index was built without the node's "+
		"index API, which alone holds the proposervm headers of blocks; %s", what, chain, pdata.IndexEnabledHint)
}

// refuseWithoutVertices refuses a vertex operation on an X-chain index
// built without the node's index API, which alone serves the DAG vertices.
func (s *server) refuseWithoutVertices(ctx context.Context) error {
	src, err := s.chainSource(ctx, netinfo.X)
	if err != nil || !src.ByHeight {
		return err
	}
	return api.BadRequest("X-chain vertices cannot be known on this node: its X-chain index was built without "+
		"the node's index API, which alone serves the DAG vertices; %s", pdata.IndexEnabledHint)
}

// refuseMissingDAG refuses an X-chain balance or UTXO answer on an index
// that misses the chain's DAG era: DAG-era UTXOs would be missing from it.
func (s *server) refuseMissingDAG(ctx context.Context, chain netinfo.Chain) error {
	if chain != netinfo.X {
		return nil
	}
	src, err := s.chainSource(ctx, chain)
	if err != nil || !src.MissingDAG {
		return err
	}
	return api.BadRequest("X-chain balances and UTXOs cannot be known on this node: its X-chain index was built "+
		"without the node's index API, and misses the DAG-era txs (before Cortina) that made or spent UTXOs; %s",
		pdata.IndexEnabledHint)
}

// What a 404 adds on an index that could not hold the resource.
const (
	hintBlockID = iota // a block looked up by ID
	hintDAG            // an X-chain tx or asset
)

// notFoundHint is the sentence a 404 about chain adds when the index was
// built from getBlockByHeight: blocks named by the VM's own IDs (a
// proposervm ID is not found), or an X-chain missing its DAG era. It is ""
// otherwise, and when the source cannot be read (the 404 stands alone).
func (s *server) notFoundHint(ctx context.Context, chain netinfo.Chain, kind int) string {
	src, err := s.chainSource(ctx, chain)
	if err != nil || !src.ByHeight {
		return ""
	}
	switch {
	case kind == hintBlockID:
		return fmt.Sprintf(" (this node's %s-chain index was built without the node's index API and names blocks by "+
			"the VM's own block IDs, as %s.getBlock takes them, not by their proposervm IDs)", chain,
			pdata.VMAPI(chain))
	case kind == hintDAG && src.MissingDAG:
		return " (this node's X-chain index was built without the node's index API and misses the DAG-era txs " +
			"before Cortina; " + pdata.IndexEnabledHint + ")"
	}
	return ""
}
