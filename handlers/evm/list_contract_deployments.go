package evm

import (
	"fmt"
	"net/http"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/contracts/{address}/deployments
// (listContractDeployments): the contracts an address deployed, newest
// first: the creations it sent (top-level, and those a factory made in its
// transactions) and, for a contract, those it made itself as a factory.
// Each is shown as getContractMetadata shows it (its standard, name,
// symbol, decimals, deployment and any curated fields).
//
// Pages are pinned to the indexed height of the first page, so contracts
// deployed while a client pages are not shown and none is repeated or
// skipped.

// listContractDeploymentsRequest is the validated input of the endpoint.
type listContractDeploymentsRequest struct {
	evmTarget // Address is the deployer
	Page      api.Page
}

func (s *server) parseListContractDeploymentsRequest(r *http.Request, heights *api.Heights) (listContractDeploymentsRequest, error) {
	var req listContractDeploymentsRequest
	var err error
	if req.evmTarget, err = s.resolveEVMPath(r, heights); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, r.URL.Query(), api.DataPaging(routeListContractDeployments, false),
		req.filterValues()...)
	return req, err
}

// listContractsResponse is the OpenAPI's ListContractsResponse.
type listContractsResponse struct {
	NextPageToken string             `json:"nextPageToken,omitempty"`
	Contracts     []contractMetadata `json:"contracts"`
}

func (s *server) serveListContractDeployments(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListContractDeploymentsRequest(r, heights)
	if err != nil {
		return err
	}
	after, err := api.ResumeAfter(req.Page, decodeDeploymentPos)
	if err != nil {
		return err
	}
	pinned := s.PinnedHeight(req.Page, s.EVMChainStream(req.Chain))
	deployed, err := s.reader.DeployedBy(r.Context(), req.Chain.Chain, req.Address, after, req.Page.Size+1, pinned)
	if err != nil {
		return fmt.Errorf("listing the contracts deployed by %s: %w", req.Address, err)
	}
	deployed, hasMore := api.TrimPage(deployed, req.Page.Size)
	resp := listContractsResponse{Contracts: make([]contractMetadata, len(deployed))}
	for i, d := range deployed {
		curated, _ := s.cfg.CuratedContracts.lookup(req.Chain.EVMChainID, d.Contract.Address)
		resp.Contracts[i] = describeContract(d.Contract.Address, d.Contract, curated)
	}
	if hasMore {
		last := deployed[len(deployed)-1].Pos
		if resp.NextPageToken, err = s.NextPageToken(req.Page, int64(pinned), encodeDeploymentPos(last)); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// deploymentPosLen is a deployment's position: the tx's (block, index)
// and the contract.
const deploymentPosLen = txPosLen + common.AddressLength

func encodeDeploymentPos(p evmdata.DeploymentPos) []byte {
	return append(encodeTxPos(p.Tx), p.Contract.Bytes()...)
}

func decodeDeploymentPos(b []byte) (evmdata.DeploymentPos, bool) {
	if len(b) != deploymentPosLen {
		return evmdata.DeploymentPos{}, false
	}
	tx, _ := decodeTxPos(b[:txPosLen])
	return evmdata.DeploymentPos{Tx: tx, Contract: common.BytesToAddress(b[txPosLen:])}, true
}
