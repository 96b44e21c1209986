package evm

import (
	"math/big"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// The path parts of the NFT collection operations (listTokens,
// getTokenDetails, reindexNft): {chainId}, the collection's {address} and
// a {tokenId}.

// paramTokenID is the token id path parameter.
const paramTokenID = "tokenId"

// maxTokenIDDigits is the length of 2^256-1 in decimal: no token id is
// longer.
const maxTokenIDDigits = 78

// parseTokenID reads a token id: a decimal integer from 0 to 2^256-1.
func parseTokenID(raw string) (*big.Int, error) {
	bad := api.BadRequest("invalid %s '%s': must be a decimal integer from 0 to 2^256-1", paramTokenID, api.Truncate(raw))
	if raw == "" || len(raw) > maxTokenIDDigits {
		return nil, bad
	}
	for _, r := range raw {
		if r < '0' || r > '9' {
			return nil, bad
		}
	}
	id, ok := new(big.Int).SetString(raw, 10)
	if !ok || id.BitLen() > 256 {
		return nil, bad
	}
	return id, nil
}

// nftCollection is a resolved collection: its chain, address and what the
// index knows of the contract.
type nftCollection struct {
	evmTarget
	Contract evmdata.Contract
}

// resolveNFTCollection resolves {chainId} and {address} and reads the
// contract: an address the index does not know as a contract is a 404, a
// contract of another standard a 400 that names it.
// The shaper it returns shapes the reply.
func (s *server) resolveNFTCollection(r *http.Request, heights *api.Heights) (nftCollection, *shaper, error) {
	target, err := s.resolveEVMPath(r, heights)
	if err != nil {
		return nftCollection{}, nil, err
	}
	v := s.newShaper(r.Context(), target.Chain, defaultCurrency)
	contract, err := v.knownContract(target.Address)
	if err != nil {
		return nftCollection{}, nil, err
	}
	if contract.Kind != evmdata.Erc721 && contract.Kind != evmdata.Erc1155 {
		return nftCollection{}, nil, api.BadRequest("%s is an %s contract, not an NFT (ERC-721 or ERC-1155) collection",
			target.Address.Hex(), contract.Kind)
	}
	return nftCollection{evmTarget: target, Contract: contract}, v, nil
}
