package sigagg

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// Signature aggregation operations.

// Route names (also the hosted API's operation IDs).
const (
	routeAggregateSignatures     = "aggregateSignatures"
	routeGetAggregatedSignatures = "getAggregatedSignatures"
)

// maxSigAggBodyBytes bounds the aggregateSignatures body. Warp messages are
// far smaller; a larger body is answered with 413.
const maxSigAggBodyBytes = 1 << 20

// Fields of the aggregateSignatures body, in the spec's order.
const (
	fieldMessage                = "message"
	fieldJustification          = "justification"
	fieldSigningSubnetID        = "signingSubnetId"
	fieldQuorumPercentage       = "quorumPercentage"
	fieldQuorumPercentageBuffer = "quorumPercentageBuffer"
	fieldPChainHeight           = "pChainHeight"
)

// Defaults of the aggregateSignatures body.
const (
	defaultQuorumPercentage       = 67
	defaultQuorumPercentageBuffer = 0
)

func sigAggBodyFields() []string {
	return []string{fieldMessage, fieldJustification, fieldSigningSubnetID,
		fieldQuorumPercentage, fieldQuorumPercentageBuffer, fieldPChainHeight}
}

func (s *server) sigAggRoutes() []api.Route {
	const base = "/v1/signatureAggregator/{network}/aggregateSignatures"
	return []api.Route{
		{Name: routeAggregateSignatures, Method: http.MethodPost, Path: base,
			Summary: "aggregate validator signatures of a warp message",
			Handler: s.Adapt(s.serveAggregateSignatures)},
		{Name: routeGetAggregatedSignatures, Method: http.MethodGet, Path: base + "/{txHash}",
			Summary: "aggregated signature of a P-chain L1 transaction's warp message",
			Handler: s.Adapt(s.serveGetAggregatedSignatures)},
	}
}
