package evm

import (
	"context"
	"fmt"
	"math/big"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}
// (getTokenDetails): one token of an NFT collection, as listTokens shows
// it: an Erc721Token with its owner or an Erc1155Token, with its token URI
// and metadata. A token the index does not hold now (never minted, or
// burnt) is a 404; a tokenId that is not a decimal integer from 0 to
// 2^256-1 is a 400.

// getTokenDetailsRequest is the validated input of the endpoint.
type getTokenDetailsRequest struct {
	nftCollection
	TokenID *big.Int
}

func (s *server) parseGetTokenDetailsRequest(r *http.Request, heights *api.Heights) (getTokenDetailsRequest, *shaper, error) {
	var req getTokenDetailsRequest
	var shapes *shaper
	var err error
	if req.nftCollection, shapes, err = s.resolveNFTCollection(r, heights); err != nil {
		return req, nil, err
	}
	req.TokenID, err = parseTokenID(api.PathVar(r, paramTokenID))
	return req, shapes, err
}

func (s *server) serveGetTokenDetails(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, shapes, err := s.parseGetTokenDetailsRequest(r, heights)
	if err != nil {
		return err
	}
	// An ERC-1155 token's supply sums all its transfers; an ERC-721
	// token's owner is its last transfer's recipient, right whenever the
	// index holds one (history.go), except while a back-fill re-derives
	// the ownership rows: they are cleared and rebuilt block by block, so
	// a token would show an earlier owner, or none.
	history, err := s.history(r.Context(), req.Chain, heights)
	if err != nil {
		return err
	}
	if req.Contract.Kind == evmdata.Erc1155 || history.Rederiving {
		if err := collectionHistory(history, req.Contract, tokenFigures(req.Contract.Kind)); err != nil {
			return err
		}
	}
	token, err := s.heldToken(r.Context(), req)
	if err != nil && api.IsNotFound(err) {
		return s.tokenNotHeld(history, req, err)
	}
	if err != nil {
		return err
	}
	return shapes.write(w, shapes.collectionToken(req.Address, token))
}

// tokenNotHeld is the answer about a token the index holds no owner or
// supply of (notHeld): on a chain whose history is partial it may have been
// minted before the first indexed block; while a back-fill fills below
// where ownership counts from, it may be in the blocks not counted yet.
func (s *server) tokenNotHeld(history api.History, req getTokenDetailsRequest, notHeld error) error {
	unknown := collectionHistory(history, req.Contract, tokenFigures(req.Contract.Kind))
	switch {
	case unknown == nil:
		return notHeld
	case !api.IsNotFound(unknown):
		return unknown // 503: the back-fill is still counting
	}
	return api.NotFound("%s: token %s of %s is not held by anyone in the blocks indexed from it; it may have "+
		"been minted before and not moved since; give the node the chain's full history and set indexFrom",
		history.Starts(), req.TokenID, req.Address.Hex())
}

// tokenFigures names what getTokenDetails derives of a collection of kind.
func tokenFigures(kind evmdata.ErcType) string {
	if kind == evmdata.Erc1155 {
		return "its tokens' supplies"
	}
	return "its tokens' owners"
}

// heldToken reads the token req names; one the index does not hold now
// (never minted, or burnt) is a 404.
func (s *server) heldToken(ctx context.Context, req getTokenDetailsRequest) (evmdata.CollectionToken, error) {
	token, found, err := s.reader.CollectionToken(ctx, req.Chain.Chain, req.Address, req.TokenID)
	if err != nil {
		return token, fmt.Errorf("reading token %s #%s: %w", req.Address, req.TokenID, err)
	}
	if !found || token.Kind != req.Contract.Kind {
		return token, api.NotFound("token %s of %s is not held by anyone in the blocks avadata has indexed on chain %d "+
			"('%s'): never minted, or burnt", req.TokenID, req.Address.Hex(), req.Chain.EVMChainID, api.ChainLabel(req.Chain))
	}
	return token, nil
}
