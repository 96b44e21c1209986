package evm

import (
	"context"
	"net/http"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/chains/{chainId}/addresses/{address} (getContractMetadata): what is known of a
// contract. The chain gives its standard (ercType), name, symbol, decimals
// and deployment; the operator's curated file (Config.CuratedContracts)
// gives description, site, e-mail, logo, banner, links, tags and color.
//
// The body is one of the OpenAPI's Erc20Contract, Erc721Contract,
// Erc1155Contract or UnknownContract, by ercType: a contract of no known
// standard is UNKNOWN (without symbol). An address the index does not know
// as a contract is a 404, unless the operator curated it: then it is shown
// as UNKNOWN with the curated fields (e.g. a contract deployed before the
// blocks avadata indexed).

// getContractMetadataRequest is the validated input of the endpoint.
type getContractMetadataRequest struct {
	evmTarget
}

func (s *server) parseGetContractMetadataRequest(r *http.Request, heights *api.Heights) (getContractMetadataRequest, error) {
	target, err := s.resolveEVMPath(r, heights)
	return getContractMetadataRequest{evmTarget: target}, err
}

// contractMetadata is the union of the OpenAPI's contract metadata shapes.
type contractMetadata struct {
	Address  string `json:"address"`
	ErcType  string `json:"ercType"`
	Name     string `json:"name,omitempty"`
	Symbol   string `json:"symbol,omitempty"`
	Decimals *uint8 `json:"decimals,omitempty"` // required for ERC-20, absent otherwise
	CuratedContract
	DeploymentDetails *deploymentDetails `json:"deploymentDetails,omitempty"`
}

// deploymentDetails is the OpenAPI's ContractDeploymentDetails.
type deploymentDetails struct {
	TxHash                  string `json:"txHash"`
	DeployerAddress         string `json:"deployerAddress"`
	DeployerContractAddress string `json:"deployerContractAddress,omitempty"`
}

func (s *server) serveGetContractMetadata(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetContractMetadataRequest(r, heights)
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	curated, isCurated := s.cfg.CuratedContracts.lookup(req.Chain.EVMChainID, req.Address)
	contract, err := shapes.knownContract(req.Address)
	if err != nil && (!isCurated || shapes.err != nil) {
		return err
	}
	if err == nil {
		contract = s.describedNow(r.Context(), req.Chain.Chain, contract)
	}
	api.WriteJSON(w, http.StatusOK, describeContract(req.Address, contract, curated))
	return nil
}

// describedNow is c with its on-chain metadata read from the node when the
// background describer has not stored it yet. The writer queues a contract
// in the commit that indexes it and the describer reads it a moment later,
// so an answer between the two would show an ERC-20 without its name,
// symbol or decimals (and a client polling for the contract would see it
// change after "it was served"). Reading it here makes the answer complete
// as soon as the contract is indexed. A node that cannot answer leaves the
// index's answer as it is (what is unknown stays omitted).
func (s *server) describedNow(ctx context.Context, chain netinfo.Chain, c evmdata.Contract) evmdata.Contract {
	if c.MetadataRead || s.state == nil {
		return c
	}
	described, err := s.state.DescribeContract(ctx, chain, c)
	if err != nil {
		return c
	}
	return described
}

// describeContract merges what the index and the operator know.
func describeContract(addr common.Address, c evmdata.Contract, curated CuratedContract) contractMetadata {
	out := contractMetadata{
		Address:         addr.Hex(),
		ErcType:         c.Kind.String(),
		Name:            c.Name,
		CuratedContract: curated,
	}
	switch c.Kind {
	case evmdata.Erc20:
		decimals := c.Decimals
		out.Symbol, out.Decimals = c.Symbol, &decimals
	case evmdata.Erc721, evmdata.Erc1155:
		out.Symbol = c.Symbol
	}
	if d := c.Deployment; d != nil {
		out.DeploymentDetails = &deploymentDetails{TxHash: d.TxHash.Hex(), DeployerAddress: d.Deployer.Hex()}
		if d.DeployerContract != (common.Address{}) {
			out.DeploymentDetails.DeployerContractAddress = d.DeployerContract.Hex()
		}
	}
	return out
}
