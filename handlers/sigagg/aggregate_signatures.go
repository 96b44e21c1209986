package sigagg

import (
	"math"
	"net/http"

	"github.com/avadata/avadata/aggregator"
	"github.com/avadata/avadata/handlers/api"
)

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

// serveAggregateSignatures answers POST aggregateSignatures with 200 (the
// spec's status; the hosted API's OpenAPI document says 201).
func (s *server) serveAggregateSignatures(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseAggregateSignaturesRequest(r, heights)
	if err != nil {
		return err
	}
	if s.aggregator == nil {
		return s.NotServedYet(r)
	}
	res, err := s.aggregator.AggregateSignatures(r.Context(), req)
	if err != nil {
		return aggregationError(w, err)
	}
	writeAggregation(w, res)
	return nil
}
