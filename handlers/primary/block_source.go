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
