package localnet

import (
	"context"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/scripts/chaincreate"
)

// createAvadataChain creates the avadata subnet and chain with the
// pre-funded EWOQ key. With sybil protection off the node creates the chain
// as soon as the CreateChainTx is accepted: no subnet validators and no
// --track-subnets are needed.
func createAvadataChain(ctx context.Context, uri string, genesisBytes []byte, logf func(string, ...any)) (subnetID, chainID ids.ID, err error) {
	return chaincreate.Create(ctx, uri, genesis.EWOQKey, genesisBytes, logf)
}
