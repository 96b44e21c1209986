package evm

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/chains/{chainId}/addresses/{address}/balances:getNative
// (referenced by the spec; the OpenAPI's getNativeBalance): an address's
// current native balance, read from the node, priced in the requested
// currency when a price source knows the token.
//
// The node keeps only current state, so blockNumber (a historical balance)
// is a 400 that says so rather than a current balance labelled historical.

const paramBlockNumber = "blockNumber"

// getNativeBalanceRequest is the validated input of the endpoint.
type getNativeBalanceRequest struct {
	evmTarget
	Currency string // lower-case, default usd
}

func (s *server) parseGetNativeBalanceRequest(r *http.Request, heights *api.Heights) (getNativeBalanceRequest, error) {
	var req getNativeBalanceRequest
	var err error
	if req.evmTarget, err = s.resolveEVMPath(r, heights); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if raw := q.Get(paramBlockNumber); raw != "" {
		return req, api.BadRequest("%s is not supported: avadata reads balances from the node's current state; "+
			"omit %s for the current balance", paramBlockNumber, paramBlockNumber)
	}
	req.Currency, err = api.ParseCurrency(q)
	return req, err
}

// getNativeBalanceResponse is the OpenAPI's GetNativeBalanceResponse.
type getNativeBalanceResponse struct {
	NativeTokenBalance nativeTokenBalance `json:"nativeTokenBalance"`
}

func (s *server) serveGetNativeBalance(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetNativeBalanceRequest(r, heights)
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, req.Currency)
	resp := getNativeBalanceResponse{NativeTokenBalance: shapes.nativeTokenBalance(req.Address)}
	return shapes.write(w, resp)
}
