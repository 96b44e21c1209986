package evm

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET {metrics_url}/v2/chains/{chainId}/contracts/{address}/nfts:listHolders
// (listNftHolders): the addresses holding tokens of an NFT contract, by address,
// each with sortKey = the number of tokens it holds (ERC-1155: token ids
// with a positive balance), and the collection's totals.
//
// {chainId} must be an EVM chain id number. An address the index does not
// know as a contract is a 404; a contract that is not ERC-721 or ERC-1155 is
// a 400 naming its standard. Like every metrics token, page tokens expire
// after 24 hours. Pages are pinned to the indexed height of the first page
// (the index keeps the history of holdings), so paging while transfers
// arrive never repeats or skips a holder and the totals stay those of the
// listing.

// listNftHoldersRequest is the validated input of the endpoint.
type listNftHoldersRequest struct {
	evmTarget // Address is the NFT contract
	Page      api.Page
}

func nftHoldersPaging() api.Paging {
	return api.Paging{Route: routeListNftHolders, Size: api.NFTHolderPageSize(), MaxAge: api.MetricsPageTokenLifetime}
}

func (s *server) parseListNftHoldersRequest(r *http.Request, heights *api.Heights) (listNftHoldersRequest, error) {
	var req listNftHoldersRequest
	var err error
	if req.Chain, err = api.ResolveEVMChainNumber(api.PathVar(r, api.ParamChainID), s.Network()); err != nil {
		return req, err
	}
	s.ReadsStream(heights, s.EVMChainStream(req.Chain))
	if _, err := s.history(r.Context(), req.Chain, heights); err != nil {
		return req, err
	}
	if req.Address, err = api.ParseEVMAddress(api.ParamAddress, api.PathVar(r, api.ParamAddress)); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, r.URL.Query(), nftHoldersPaging(), req.filterValues()...)
	return req, err
}

// nftHoldersResponse is the spec's NFT holders response. The spec wins over
// the old SDK: sortKey is an integer, the collection's name and symbol are
// strings.
type nftHoldersResponse struct {
	NextPageToken     string      `json:"nextPageToken,omitempty"`
	Addresses         []nftHolder `json:"addresses"`
	NFTCollectionName string      `json:"nftCollectionName"`
	NFTSymbol         string      `json:"nftSymbol"`
	TotalHolders      uint64      `json:"totalHolders"`
	TotalTokens       uint64      `json:"totalTokens"`
}

type nftHolder struct {
	Address string `json:"address"`
	SortKey uint64 `json:"sortKey"`
}

func (s *server) serveListNftHolders(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListNftHoldersRequest(r, heights)
	if err != nil {
		return err
	}
	after, err := api.ResumeAfter(req.Page, decodeAddress)
	if err != nil {
		return err
	}
	contract, err := s.newShaper(r.Context(), req.Chain, defaultCurrency).knownContract(req.Address)
	if err != nil {
		return err
	}
	if contract.Kind != evmdata.Erc721 && contract.Kind != evmdata.Erc1155 {
		return api.BadRequest("%s is an %s contract, not an NFT (ERC-721 or ERC-1155) contract", req.Address.Hex(), contract.Kind)
	}
	history, err := s.history(r.Context(), req.Chain, heights)
	if err != nil {
		return err
	}
	if err := collectionHistory(history, contract, "its holders and their counts"); err != nil {
		return err
	}
	pinned := s.PinnedHeight(req.Page, s.EVMChainStream(req.Chain))
	holders, collection, err := s.reader.Holders(r.Context(), req.Chain.Chain, req.Address, after, req.Page.Size+1, pinned)
	if err != nil {
		return fmt.Errorf("listing the holders of %s: %w", req.Address, err)
	}
	holders, hasMore := api.TrimPage(holders, req.Page.Size)
	resp := nftHoldersResponse{
		Addresses:         make([]nftHolder, len(holders)),
		NFTCollectionName: contract.Name,
		NFTSymbol:         contract.Symbol,
		TotalHolders:      collection.Holders,
		TotalTokens:       collection.Tokens,
	}
	for i, h := range holders {
		resp.Addresses[i] = nftHolder{Address: h.Address.Hex(), SortKey: h.Tokens}
	}
	if hasMore {
		last := holders[len(holders)-1].Address
		if resp.NextPageToken, err = s.NextPageToken(req.Page, int64(pinned), last.Bytes()); err != nil {
			return err
		}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
