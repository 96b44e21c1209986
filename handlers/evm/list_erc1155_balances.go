package evm

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/addresses/{address}/balances:listErc1155
// (listErc1155Balances): the ERC-1155 token ids an address holds at a
// block (the indexed height, pinned for the whole paging, or
// blockNumber), by contract then id, optionally of one contract, each
// with balanceOf(address, id) read from the node at that block
// (token_balances.go), with the address's native balance at the same
// block. The candidates are every id the address held by then, so an id
// its logs say it gave away is still checked.

// listErc1155BalancesRequest is the validated input of the endpoint.
type listErc1155BalancesRequest struct {
	evmTarget
	Block    balanceBlock
	Contract *common.Address // nil: every contract
	Page     api.Page
}

func erc1155BalancesPaging() api.Paging {
	return api.Paging{Route: routeListErc1155Balances, Size: api.Erc721PageSize()}
}

func (s *server) parseListErc1155BalancesRequest(r *http.Request, heights *api.Heights) (listErc1155BalancesRequest, error) {
	var req listErc1155BalancesRequest
	var err error
	if req.evmTarget, err = s.resolveEVMPath(r, heights); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Block, err = parseBalanceBlock(q); err != nil {
		return req, err
	}
	if err = s.checkBalanceBlock(r, heights, req.evmTarget, req.Block); err != nil {
		return req, err
	}
	if req.Contract, err = api.ParseOptionalEVMAddress(q, paramContractAddress); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, erc1155BalancesPaging(),
		append(req.filterValues(), req.Block.filterValue(), optionalAddressValue(req.Contract))...)
	return req, err
}

// optionalAddressValue is an optional address for a page token's filter
// hash.
func optionalAddressValue(a *common.Address) string {
	if a == nil {
		return ""
	}
	return strings.ToLower(a.Hex())
}

// listErc1155BalancesResponse is the OpenAPI's ListErc1155BalancesResponse.
type listErc1155BalancesResponse struct {
	NextPageToken        string                `json:"nextPageToken,omitempty"`
	NativeTokenBalance   nativeTokenBalance    `json:"nativeTokenBalance"`
	Erc1155TokenBalances []erc1155TokenBalance `json:"erc1155TokenBalances"`
}

// erc1155TokenBalance is the OpenAPI's Erc1155TokenBalance.
type erc1155TokenBalance struct {
	erc1155Token
	ChainID string `json:"chainId"`
	Balance string `json:"balance"`
}

func (s *server) serveListErc1155Balances(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListErc1155BalancesRequest(r, heights)
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
	indexed, at, err := s.balanceHeights(req.evmTarget, req.Page, req.Block)
	if err != nil {
		return err
	}
	items, next, err := readBalancePage(r.Context(), s, req.evmTarget, at, req.Page.Size, after,
		s.nftCandidates(req.evmTarget, req.Contract, evmdata.Erc1155, at))
	if err != nil {
		return stateError(req.evmTarget, req.Block, at, err)
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	resp := listErc1155BalancesResponse{
		NativeTokenBalance:   shapes.nativeTokenBalanceAt(req.Address, at),
		Erc1155TokenBalances: make([]erc1155TokenBalance, len(items)),
	}
	if shapes.err != nil {
		return stateError(req.evmTarget, req.Block, at, shapes.err)
	}
	for i, item := range items {
		resp.Erc1155TokenBalances[i] = shapes.erc1155TokenBalance(item)
	}
	if next != nil {
		if resp.NextPageToken, err = s.NextPageToken(req.Page, int64(indexed), encodeNFTPos(*next)); err != nil {
			return err
		}
	}
	return shapes.write(w, resp)
}

func (v *shaper) erc1155TokenBalance(item heldToken[evmdata.NFT]) erc1155TokenBalance {
	nft := item.Candidate
	return erc1155TokenBalance{
		erc1155Token: v.erc1155Token(nft.Contract, nft.TokenID, nft.Metadata),
		ChainID:      v.evmChainID(),
		Balance:      api.Decimal(item.Balance),
	}
}

// nftCandidates are the NFTs of the address to check as of block pinned:
// ERC-1155 ids get their balance read, ERC-721 tokens stand as the index
// says.
func (s *server) nftCandidates(t evmTarget, contract *common.Address, kind evmdata.ErcType, pinned uint64,
) balanceCandidates[evmdata.NFT, evmdata.NFTPos] {
	return balanceCandidates[evmdata.NFT, evmdata.NFTPos]{
		next: func(ctx context.Context, after *evmdata.NFTPos, limit int) ([]evmdata.NFT, error) {
			nfts, err := s.reader.NFTCandidates(ctx, t.Chain.Chain, t.Address, contract, kind, after, limit, pinned)
			if err != nil {
				return nil, fmt.Errorf("listing the NFTs of %s: %w", t.Address, err)
			}
			return nfts, nil
		},
		call: func(nft evmdata.NFT) (evmdata.BalanceCall, bool) {
			if nft.Kind != evmdata.Erc1155 {
				return evmdata.BalanceCall{}, false
			}
			return evmdata.BalanceCall{Token: nft.Contract, Owner: t.Address, TokenID: nft.TokenID}, true
		},
		posOf: func(nft evmdata.NFT) evmdata.NFTPos { return *nftPosOf(nft) },
	}
}
