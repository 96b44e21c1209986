package evm

import (
	"fmt"
	"math/big"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/chains/{chainId}/nfts/collections/{address}/tokens (listTokens):
// the tokens of an NFT collection that exist now, by token id: an ERC-721
// token while it has an owner (shown as ownerAddress), an ERC-1155 id while
// its supply (minted minus burnt) is positive; each with its token URI and
// metadata once the background reader has read them ("unindexed" before).
//
// Pages resume after the last token id shown, so a token is never shown
// twice and every token that exists from the first page to the last is
// shown; the index keeps no history of a collection's token set, so a
// token minted while a client pages shows up if its id comes after the
// page it is on, and one burnt meanwhile no longer does.
//
// An address the index does not know as a contract is a 404; a contract of
// another standard is a 400 that names its standard.

// listTokensRequest is the validated input of the endpoint.
type listTokensRequest struct {
	nftCollection
	Page api.Page
}

func (s *server) parseListTokensRequest(r *http.Request, heights *api.Heights) (listTokensRequest, *shaper, error) {
	var req listTokensRequest
	var shapes *shaper
	var err error
	if req.nftCollection, shapes, err = s.resolveNFTCollection(r, heights); err != nil {
		return req, nil, err
	}
	history, err := s.history(r.Context(), req.Chain, heights)
	if err != nil {
		return req, nil, err
	}
	if err := collectionHistory(history, req.Contract, "its tokens, their owners and supplies"); err != nil {
		return req, nil, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, r.URL.Query(), api.DataPaging(routeListTokens, false), req.filterValues()...)
	return req, shapes, err
}

// listNftTokens is the OpenAPI's ListNftTokens: Erc721Token and
// Erc1155Token items.
type listNftTokens struct {
	NextPageToken string `json:"nextPageToken,omitempty"`
	Tokens        []any  `json:"tokens"`
}

func (s *server) serveListTokens(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, shapes, err := s.parseListTokensRequest(r, heights)
	if err != nil {
		return err
	}
	resume, err := api.ResumeAfter(req.Page, decodeTokenID)
	if err != nil {
		return err
	}
	var after *big.Int
	if resume != nil {
		after = *resume
	}
	tokens, err := s.reader.CollectionTokens(r.Context(), req.Chain.Chain, req.Address, req.Contract.Kind, after, req.Page.Size+1)
	if err != nil {
		return fmt.Errorf("listing the tokens of %s: %w", req.Address, err)
	}
	tokens, hasMore := api.TrimPage(tokens, req.Page.Size)
	resp := listNftTokens{Tokens: make([]any, len(tokens))}
	for i, t := range tokens {
		resp.Tokens[i] = shapes.collectionToken(req.Address, t)
	}
	if hasMore {
		last := tokens[len(tokens)-1].TokenID
		if resp.NextPageToken, err = s.NextPageToken(req.Page, 0, encodeTokenID(last)); err != nil {
			return err
		}
	}
	return shapes.write(w, resp)
}

// encodeTokenID is a token id as a page position: 32 big-endian bytes
// (token ids come from the index: never negative nor above 2^256-1).
func encodeTokenID(id *big.Int) []byte {
	b := make([]byte, tokenIDLen)
	id.FillBytes(b)
	return b
}

func decodeTokenID(b []byte) (*big.Int, bool) {
	if len(b) != tokenIDLen {
		return nil, false
	}
	return new(big.Int).SetBytes(b), true
}
