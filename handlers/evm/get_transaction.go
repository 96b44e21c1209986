package evm

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/chains/{chainId}/transactions/{txHash} (referenced by the spec;
// the OpenAPI's getTransaction): one transaction with all its token
// transfers and internal transactions.

// getTransactionRequest is the validated input of the endpoint.
type getTransactionRequest struct {
	Chain  netinfo.ChainInfo
	TxHash common.Hash
}

func (s *server) parseGetTransactionRequest(r *http.Request, heights *api.Heights) (getTransactionRequest, error) {
	var req getTransactionRequest
	var err error
	if req.Chain, err = api.ResolveEVMChain(api.PathVar(r, api.ParamChainID), s.Network()); err != nil {
		return req, err
	}
	s.ReadsStream(heights, s.EVMChainStream(req.Chain))
	if _, err := s.history(r.Context(), req.Chain, heights); err != nil {
		return req, err
	}
	req.TxHash, err = parseTxHash(api.ParamTxHash, api.PathVar(r, api.ParamTxHash))
	return req, err
}

// parseTxHash checks a 0x-prefixed 32-byte hex hash, any case.
func parseTxHash(param, s string) (common.Hash, error) {
	hexPart, ok := strings.CutPrefix(s, "0x")
	if !ok {
		hexPart, ok = strings.CutPrefix(s, "0X")
	}
	valid := ok && len(hexPart) == 2*common.HashLength
	for _, r := range hexPart {
		valid = valid && api.IsHexDigit(r)
	}
	if !valid {
		return common.Hash{}, api.BadRequest("invalid %s '%s': want 0x followed by 64 hex digits", param, api.Truncate(s))
	}
	return common.HexToHash(s), nil
}

func (s *server) serveGetTransaction(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetTransactionRequest(r, heights)
	if err != nil {
		return err
	}
	chain := req.Chain
	tx, found, err := s.reader.TxByHash(r.Context(), chain.Chain, req.TxHash)
	if err != nil {
		return fmt.Errorf("reading transaction %s: %w", req.TxHash, err)
	}
	if !found {
		history, err := s.history(r.Context(), chain, heights)
		if err != nil {
			return err
		}
		if history.Partial() {
			return history.Before(fmt.Sprintf("transaction %s is not in the index", req.TxHash.Hex()))
		}
		return api.NotFound("transaction %s is not in the index of chain %d ('%s'): it does not exist there, "+
			"or it is in a block avadata has not indexed yet", req.TxHash.Hex(), chain.EVMChainID, api.ChainLabel(chain))
	}
	shapes := s.newShaper(r.Context(), chain, defaultCurrency)
	resp := shapes.transactionResponse(&tx)
	return shapes.write(w, resp)
}
