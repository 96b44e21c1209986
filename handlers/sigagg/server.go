package sigagg

import (
	"context"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/aggregator"
	"github.com/avadata/avadata/handlers/api"
)

// Serving signature aggregation (aggregateSignatures and
// getAggregatedSignatures): each operation's file validates its request,
// the Aggregator collects and verifies the signatures, reply.go maps its
// outcome to the spec's reply.

// Headers of a successful aggregation: which validator set signed, so a
// client can verify the message independently, and how much of it.
const (
	headerPChainHeight    = "X-Pchain-Height"
	headerSigningSubnetID = "X-Signing-Subnet-Id"
	headerSignedWeight    = "X-Signed-Weight"
)

// Aggregator gathers validators' signatures of warp messages
// (*aggregator.Aggregator).
type Aggregator interface {
	AggregateSignatures(ctx context.Context, req aggregator.Request) (aggregator.Result, error)
	// AggregateForTx aggregates the warp message of a committed P-chain L1
	// transaction.
	AggregateForTx(ctx context.Context, txID ids.ID) (aggregator.Result, error)
}

// server serves signature aggregation.
type server struct {
	*api.Core
	// aggregator is nil when the node runs no aggregator: the operations
	// then answer that they are not served.
	aggregator Aggregator
}

// Routes returns the routes of signature aggregation.
func Routes(core *api.Core, aggregator Aggregator) []api.Route {
	s := &server{Core: core, aggregator: aggregator}
	return s.sigAggRoutes()
}
