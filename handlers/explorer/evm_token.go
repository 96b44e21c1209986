package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// evmTokenData is what a token contract's page shows: its metadata
// (getContractMetadata) and one page of the list its tab names: its
// transfers (listTransfers), an NFT collection's holders (the metrics
// service's listNftHolders) or tokens (listTokens). The API lists no
// ERC-20 holders: the page lists the token's parties from the index with
// their balances from the node (evm_token_holders.go).
type evmTokenData struct {
	Chain    object
	Contract object
	Tab      string
	// List is the reply of the tab's listing; nil on an ERC-20's holders
	// tab.
	List object
	// Holders is an ERC-20's holders tab.
	Holders evmTokenHolders
}

// IsNFT says whether the token is an NFT collection (ERC-721, ERC-1155).
func (d evmTokenData) IsNFT() bool {
	switch str(d.Contract["ercType"]) {
	case "ERC-721", "ERC-1155":
		return true
	}
	return false
}

func (s *server) serveEVMToken(r *http.Request, req *request) (view, error) {
	chainID, address := api.PathVar(r, evmVarChainID), api.PathVar(r, evmVarAddress)
	chain, replies, err := s.readEVM(r.Context(), chainID, evmChainCall(nil, chainID, "addresses", address))
	if err != nil {
		return view{}, err
	}
	if err := firstError(replies); err != nil {
		return view{}, err
	}
	data := evmTokenData{Chain: chain, Contract: replies[0].Body}
	// An NFT collection's tokens are its own tab; an ERC-20 has none.
	tabs := []string{"transfers", "holders"}
	if data.IsNFT() {
		tabs = append(tabs, "tokens")
	}
	tab, err := pageTab(req, "transfers", tabs...)
	if err != nil {
		return view{}, err
	}
	data.Tab = tab
	// The lists are read after the metadata: which one a tab shows depends
	// on the token's standard, and the holders' metrics path takes the EVM
	// chain id only.
	var list apiCall
	q := pageQuery(req, listPageSize)
	switch {
	case tab == "transfers":
		list = evmChainCall(q, chainID, "tokens", address, "transfers")
	case !data.IsNFT():
		after, err := parseHoldersPage(req.Query.Get("page"))
		if err != nil {
			return view{}, err
		}
		data.Holders = s.readTokenHolders(r.Context(), chainID, address, data.Contract["decimals"], after)
		return view{Template: "evm_token", Title: evmTitle(chain, tokenTitle(data.Contract)), Data: data}, nil
	case tab == "holders":
		list = call(q, "metrics", "v2", "chains", str(chain["chainId"]), "contracts", address, "nfts:listHolders")
	default:
		list = evmChainCall(q, chainID, "nfts", "collections", address, "tokens")
	}
	if data.List, err = s.get(r.Context(), list); err != nil {
		return view{}, err
	}
	return view{Template: "evm_token", Title: evmTitle(chain, tokenTitle(data.Contract)), Data: data}, nil
}

// tokenTitle names a token by its symbol, else its name, else its address.
func tokenTitle(contract object) string {
	return str(either(contract["symbol"], either(contract["name"], short(contract["address"]))))
}
