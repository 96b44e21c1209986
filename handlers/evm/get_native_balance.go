package evm

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/chains/{chainId}/addresses/{address}/balances:getNative
// (referenced by the spec; the OpenAPI's getNativeBalance): an address's
// native balance, read from the node, priced in the requested currency when
// a price source knows the token. Without blockNumber it is the balance now;
// with it, the balance at that block (token_balances.go: a block above the
// indexed height, or one whose state the node has pruned, is a 400).

const paramBlockNumber = "blockNumber"

// getNativeBalanceRequest is the validated input of the endpoint.
type getNativeBalanceRequest struct {
	evmTarget
	Block    balanceBlock
	Currency string // lower-case, default usd
}

func (s *server) parseGetNativeBalanceRequest(r *http.Request, heights *api.Heights) (getNativeBalanceRequest, error) {
	var req getNativeBalanceRequest
	var err error
	if req.evmTarget, err = s.resolveEVMPath(r, heights); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Block, err = parseBalanceBlock(q); err != nil {
		return req, err
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
	if !req.Block.Asked.Set {
		resp := getNativeBalanceResponse{NativeTokenBalance: shapes.nativeTokenBalance(req.Address)}
		return shapes.write(w, resp)
	}
	indexed, _ := heights.Height(req.Stream)
	at, err := req.Block.at(req.evmTarget, indexed)
	if err != nil {
		return err
	}
	resp := getNativeBalanceResponse{NativeTokenBalance: shapes.nativeTokenBalanceAt(req.Address, at)}
	if shapes.err != nil {
		return stateError(req.evmTarget, req.Block, at, shapes.err)
	}
	return shapes.write(w, resp)
}
