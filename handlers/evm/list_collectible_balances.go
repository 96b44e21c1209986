package evm

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/addresses/{address}/balances:listCollectibles
// (listCollectibleBalances): the ERC-721 tokens and ERC-1155 ids an
// address holds at the chain's indexed height (pinned for the whole
// paging), together by contract then token id, optionally of one
// contract, with their URIs and metadata. ERC-721 ownership is the
// index's; ERC-1155 balances are balanceOf(address, id) read from the
// node at that block (token_balances.go).

func collectibleBalancesPaging() api.Paging {
	return api.Paging{Route: routeListCollectibleBalances, Size: api.Erc721PageSize()}
}

// listCollectibleBalancesResponse is the OpenAPI's
// ListCollectibleBalancesResponse: each entry an Erc721TokenBalance or an
// Erc1155TokenBalance, told apart by ercType.
type listCollectibleBalancesResponse struct {
	NextPageToken       string `json:"nextPageToken,omitempty"`
	CollectibleBalances []any  `json:"collectibleBalances"`
}

func (s *server) serveListCollectibleBalances(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseNFTHoldingsRequest(r, heights, collectibleBalancesPaging())
	if err != nil {
		return err
	}
	if err := s.checkHoldings(r.Context(), req.evmTarget, heights); err != nil {
		return err
	}
	after, err := api.ResumeAfter(req.Page, decodeNFTPos)
	if err != nil {
		return err
	}
	indexed, at, err := s.balanceHeights(req.evmTarget, req.Page, balanceBlock{})
	if err != nil {
		return err
	}
	items, next, err := readBalancePage(r.Context(), s, req.evmTarget, at, req.Page.Size, after,
		s.nftCandidates(req.evmTarget, req.Contract, evmdata.ErcUnknown, at))
	if err != nil {
		return stateError(req.evmTarget, balanceBlock{}, at, err)
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	resp := listCollectibleBalancesResponse{CollectibleBalances: make([]any, len(items))}
	for i, item := range items {
		if item.Candidate.Kind == evmdata.Erc1155 {
			resp.CollectibleBalances[i] = shapes.erc1155TokenBalance(item)
		} else {
			resp.CollectibleBalances[i] = shapes.erc721TokenBalance(item.Candidate)
		}
	}
	if next != nil {
		if resp.NextPageToken, err = s.NextPageToken(req.Page, int64(indexed), encodeNFTPos(*next)); err != nil {
			return err
		}
	}
	return shapes.write(w, resp)
}
