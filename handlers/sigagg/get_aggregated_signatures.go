package sigagg

import (
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
)

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
