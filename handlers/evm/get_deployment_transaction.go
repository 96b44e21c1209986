package evm

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/chains/{chainId}/contracts/{address}/transactions:getDeployment
// (getDeploymentTransaction): the transaction that deployed a contract, with
// everything the transaction endpoint shows, priced in the requested currency.
//
// 404 when the address is not a contract the index knows, or when its
// deployment was not seen (a contract created by another contract in a block
// the node could not trace).

// getDeploymentTransactionRequest is the validated input of the endpoint.
type getDeploymentTransactionRequest struct {
	evmTarget
	Currency string // lower-case, default usd
}

func (s *server) parseGetDeploymentTransactionRequest(r *http.Request, heights *api.Heights) (getDeploymentTransactionRequest, error) {
	var req getDeploymentTransactionRequest
	var err error
	if req.evmTarget, err = s.resolveEVMPath(r, heights); err != nil {
		return req, err
	}
	req.Currency, err = api.ParseCurrency(r.URL.Query())
	return req, err
}

func (s *server) serveGetDeploymentTransaction(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetDeploymentTransactionRequest(r, heights)
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, req.Currency)
	contract, err := shapes.knownContract(req.Address)
	if err != nil {
		return err
	}
	if contract.Deployment == nil && shapes.partialHistory() {
		if shapes.err != nil {
			return shapes.err
		}
		return shapes.history().Before(fmt.Sprintf("the deployment of contract %s is not in the index "+
			"(only its activity from that block on is)", req.Address.Hex()))
	}
	if contract.Deployment == nil {
		return api.NotFound("the deployment of contract %s was not seen: another contract created it in a block "+
			"the node could not trace", req.Address.Hex())
	}
	hash := contract.Deployment.TxHash
	tx, found, err := s.reader.TxByHash(r.Context(), req.Chain.Chain, hash)
	if err != nil {
		return fmt.Errorf("reading deployment transaction %s of %s: %w", hash, req.Address, err)
	}
	if !found {
		return api.NotFound("the deployment transaction %s of contract %s is not in the index", hash.Hex(), req.Address.Hex())
	}
	resp := shapes.transactionResponse(&tx)
	return shapes.write(w, resp)
}
