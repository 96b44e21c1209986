package sigagg

import (
	"context"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/avadata/avadata/handlers/api"

	"github.com/avadata/avadata/aggregator"
)

// Serving the signature aggregator endpoints (spec 1 and 2): routes_sigagg.go
// validates the request, the aggregator (Backend.SigAgg) collects and
// verifies the signatures, this maps its outcome to the spec's reply.

// Headers of a successful aggregation: which validator set signed, so a
// client can verify the message independently, and how much of it.
const (
	headerPChainHeight    = "X-Pchain-Height"
	headerSigningSubnetID = "X-Signing-Subnet-Id"
	headerSignedWeight    = "X-Signed-Weight"
)

// signatureAggregationResponse is the spec's Signature aggregation response.
type signatureAggregationResponse struct {
	SignedMessage string `json:"signedMessage"`
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

// serveGetAggregatedSignatures answers GET aggregateSignatures/{txHash}:
// the warp message the P-chain signs for a committed L1 transaction,
// aggregated with the default quorum at the proposed height.
func (s *server) serveGetAggregatedSignatures(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetAggregatedSignaturesRequest(r, heights)
	if err != nil {
		return err
	}
	if s.aggregator == nil {
		return s.NotServedYet(r)
	}
	res, err := s.aggregator.AggregateForTx(r.Context(), req.TxID)
	if err != nil {
		return aggregationError(w, err)
	}
	writeAggregation(w, res)
	return nil
}

// writeAggregation writes a successful aggregation: 200, the signed
// message, and headers naming the validator set that signed.
func writeAggregation(w http.ResponseWriter, res aggregator.Result) {
	h := w.Header()
	h.Set(headerPChainHeight, strconv.FormatUint(res.PChainHeight, 10))
	h.Set(headerSigningSubnetID, res.SigningSubnetID.String())
	h.Set(headerSignedWeight, strconv.FormatUint(res.SignedWeight, 10)+"/"+strconv.FormatUint(res.TotalWeight, 10))
	api.WriteJSON(w, http.StatusOK, signatureAggregationResponse{SignedMessage: hex.EncodeToString(res.SignedMessage)})
}

// aggregationError maps the aggregator's error kinds to statuses; any
// other error is internal (500, details in the log).
func aggregationError(w http.ResponseWriter, err error) error {
	var aggErr *aggregator.Error
	if !errors.As(err, &aggErr) {
		return err
	}
	status := http.StatusInternalServerError
	switch aggErr.Kind {
	case aggregator.KindInvalidRequest, aggregator.KindRefused:
		status = http.StatusBadRequest
	case aggregator.KindNotFound:
		status = http.StatusNotFound
	case aggregator.KindUnavailable:
		status = http.StatusServiceUnavailable
	case aggregator.KindBusy:
		status = http.StatusTooManyRequests
		w.Header().Set("Retry-After", "1")
	}
	return api.NewError(status, "%s", aggErr.Message)
}

// SignatureAggregator gathers validators' signatures of warp messages
// (*aggregator.Aggregator).
type Aggregator interface {
	AggregateSignatures(ctx context.Context, req aggregator.Request) (aggregator.Result, error)
	// AggregateForTx aggregates the warp message of a committed P-chain L1
	// transaction.
	AggregateForTx(ctx context.Context, txID ids.ID) (aggregator.Result, error)
}

// sigAggServer serves signature aggregation.
type server struct {
	*api.Core
	// aggregator is nil when the node runs no aggregator: the operations
	// then answer that they are not served.
	aggregator Aggregator
}

// newSigAggRoutes returns the routes of signature aggregation.
func Routes(core *api.Core, aggregator Aggregator) []api.Route {
	s := &server{Core: core, aggregator: aggregator}
	return s.sigAggRoutes()
}
