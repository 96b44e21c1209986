package sigagg

import (
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"

	"github.com/avadata/avadata/aggregator"
	"github.com/avadata/avadata/handlers/api"
)

// signatureAggregationResponse is the spec's Signature aggregation response.
type signatureAggregationResponse struct {
	SignedMessage string `json:"signedMessage"`
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
