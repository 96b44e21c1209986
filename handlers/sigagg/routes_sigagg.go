package sigagg

import (
	"math"
	"net/http"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/aggregator"
)

// Signature aggregator endpoints (spec 1 and 2).

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

// parseAggregateSignaturesRequest validates {network}, then the JSON body.
// The body is parsed strictly: it must be one JSON object with no fields but
// the documented ones (exact spelling), and numbers must be JSON numbers.
// A field set to null counts as absent.
func (s *server) parseAggregateSignaturesRequest(r *http.Request, heights *api.Heights) (aggregator.Request, error) {
	var req aggregator.Request
	if err := api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return req, err
	}
	fields, err := api.ReadJSONObject(r, maxSigAggBodyBytes, sigAggBodyFields())
	if err != nil {
		return req, err
	}
	if req.Message, err = api.HexField(fields, fieldMessage); err != nil {
		return req, err
	}
	if req.Justification, err = api.HexField(fields, fieldJustification); err != nil {
		return req, err
	}
	subnet, err := api.StringField(fields, fieldSigningSubnetID)
	if err != nil {
		return req, err
	}
	if subnet != "" {
		if req.SigningSubnetID, err = api.ParseHexOrCB58ID(fieldSigningSubnetID, subnet); err != nil {
			return req, err
		}
		req.HasSigningSubnetID = true
	}
	if req.QuorumPercentage, err = api.UintField(fields, fieldQuorumPercentage, defaultQuorumPercentage, 100); err != nil {
		return req, err
	}
	if req.QuorumPercentageBuffer, err = api.UintField(fields, fieldQuorumPercentageBuffer, defaultQuorumPercentageBuffer, 100); err != nil {
		return req, err
	}
	if req.PChainHeight, err = api.UintField(fields, fieldPChainHeight, 0, math.MaxUint64); err != nil {
		return req, err
	}
	if len(req.Message) == 0 && len(req.Justification) == 0 {
		return req, api.BadRequest("%s or %s is required: give at least one of them, hex-encoded (optional 0x prefix)",
			fieldMessage, fieldJustification)
	}
	if req.QuorumPercentage+req.QuorumPercentageBuffer > 100 {
		return req, api.BadRequest("invalid %s %d: %s (%d) + %s (%d) must be <= 100",
			fieldQuorumPercentageBuffer, req.QuorumPercentageBuffer,
			fieldQuorumPercentage, req.QuorumPercentage, fieldQuorumPercentageBuffer, req.QuorumPercentageBuffer)
	}
	return req, nil
}

// getAggregatedSignaturesRequest is the validated input of
// GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}.
type getAggregatedSignaturesRequest struct {
	// TxID is the P- or X-chain transaction whose warp message is signed.
	TxID ids.ID
}

func (s *server) parseGetAggregatedSignaturesRequest(r *http.Request, heights *api.Heights) (getAggregatedSignaturesRequest, error) {
	if err := api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return getAggregatedSignaturesRequest{}, err
	}
	txID, err := api.ParseCB58ID(api.ParamTxHash, api.PathVar(r, api.ParamTxHash))
	return getAggregatedSignaturesRequest{TxID: txID}, err
}
