package evm

import (
	"context"
	"fmt"
	"net/http"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/chains/{chainId}/addresses/{address}/balances:listErc721
// (listErc721Balances): the ERC-721 tokens an address owns now, by contract then token id,
// optionally of one contract, with the address's native balance.
//
// Pages are pinned to the indexed height of the first page (the index keeps
// the history of ownership), so a token that changes hands while a client
// pages is neither seen twice nor missed; nativeTokenBalance is the balance
// now, read from the node.

// paramContractAddress filters the ERC-721 balances to one contract.
const paramContractAddress = "contractAddress"

// maxNFTBatches bounds the reads of one page. The index lists ERC-721 and
// ERC-1155 holdings together; an owner of many ERC-1155 ids could make a
// page read without end, so after this many batches the page is served
// short, with a token that resumes after the last holding read.
const maxNFTBatches = 8

// nftHoldingsRequest is the validated input of the NFT holdings listings
// (listErc721Balances, listCollectibleBalances): {chainId}, {address}, the
// optional contractAddress and the paging.
type nftHoldingsRequest struct {
	evmTarget
	Contract *common.Address // nil: every contract
	Page     api.Page
}

func erc721Paging() api.Paging {
	return api.Paging{Route: routeListErc721Balances, Size: api.Erc721PageSize()}
}

func (s *server) parseNFTHoldingsRequest(r *http.Request, heights *api.Heights, paging api.Paging) (nftHoldingsRequest, error) {
	var req nftHoldingsRequest
	var err error
	if req.evmTarget, err = s.resolveEVMPath(r, heights); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Contract, err = api.ParseOptionalEVMAddress(q, paramContractAddress); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, paging, append(req.filterValues(), optionalAddressValue(req.Contract))...)
	return req, err
}

// listErc721BalancesResponse is the OpenAPI's ListErc721BalancesResponse.
type listErc721BalancesResponse struct {
	NativeTokenBalance  nativeTokenBalance   `json:"nativeTokenBalance"`
	Erc721TokenBalances []erc721TokenBalance `json:"erc721TokenBalances"`
	NextPageToken       string               `json:"nextPageToken,omitempty"`
}

// erc721TokenBalance is the OpenAPI's Erc721TokenBalance.
type erc721TokenBalance struct {
	erc721Token
	ChainID string `json:"chainId"`
}

func (v *shaper) erc721TokenBalance(nft evmdata.NFT) erc721TokenBalance {
	token := v.erc721Token(nft.Contract, nft.TokenID, nft.Metadata)
	token.OwnerAddress = nft.Owner.Hex()
	return erc721TokenBalance{erc721Token: token, ChainID: v.evmChainID()}
}

func (s *server) serveListErc721Balances(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseNFTHoldingsRequest(r, heights, erc721Paging())
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
	pinned := s.PinnedHeight(req.Page, s.EVMChainStream(req.Chain))
	nfts, next, err := s.erc721Page(r.Context(), req, after, pinned)
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	resp := listErc721BalancesResponse{
		NativeTokenBalance:  shapes.nativeTokenBalance(req.Address),
		Erc721TokenBalances: make([]erc721TokenBalance, len(nfts)),
	}
	for i, nft := range nfts {
		resp.Erc721TokenBalances[i] = shapes.erc721TokenBalance(nft)
	}
	if shapes.err != nil {
		return shapes.err
	}
	if next != nil {
		if resp.NextPageToken, err = s.NextPageToken(req.Page, int64(pinned), encodeNFTPos(*next)); err != nil {
			return err
		}
	}
	return shapes.write(w, resp)
}

// erc721Page reads up to a page of the owner's ERC-721 tokens after the
// pos, skipping ERC-1155 holdings. next is where the following page
// starts, nil when there is none.
func (s *server) erc721Page(ctx context.Context, req nftHoldingsRequest, after *evmdata.NFTPos, pinned uint64) (
	[]evmdata.NFT, *evmdata.NFTPos, error,
) {
	size := req.Page.Size
	var items []evmdata.NFT
	pos := after
	for range maxNFTBatches {
		batch, err := s.readNFTs(ctx, req.Chain, req.Address, req.Contract, pos, size+1, pinned)
		if err != nil {
			return nil, nil, err
		}
		for _, nft := range batch {
			if nft.Kind != evmdata.Erc721 {
				continue
			}
			if len(items) == size { // one more exists: the page is full
				return items, nftPosOf(items[size-1]), nil
			}
			items = append(items, nft)
		}
		if len(batch) <= size { // the index has no more
			return items, nil, nil
		}
		pos = nftPosOf(batch[len(batch)-1])
	}
	return items, pos, nil
}

func (s *server) readNFTs(ctx context.Context, chain netinfo.ChainInfo, owner common.Address, contract *common.Address,
	after *evmdata.NFTPos, limit int, pinned uint64,
) ([]evmdata.NFT, error) {
	nfts, err := s.reader.NFTsOf(ctx, chain.Chain, owner, contract, after, limit, pinned)
	if err != nil {
		return nil, fmt.Errorf("listing the NFTs of %s: %w", owner, err)
	}
	return nfts, nil
}

func nftPosOf(nft evmdata.NFT) *evmdata.NFTPos {
	return &evmdata.NFTPos{Contract: nft.Contract, TokenID: nft.TokenID}
}
