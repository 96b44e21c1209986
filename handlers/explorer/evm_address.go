package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// evmAddressData is what an EVM address's page shows: its native balance
// (getNativeBalance), its contract metadata and deployment where it is a
// contract (getContractMetadata), and one page of the list its tab names.
type evmAddressData struct {
	Chain   object
	Address string
	// Balance is getNativeBalance's nativeTokenBalance.
	Balance object
	// Contract is getContractMetadata's reply; nil for an address the
	// index does not know as a contract.
	Contract object
	Tab      string
	// List is the reply of the tab's listing.
	List object
}

// evmAddressTabs are the names of the address page's tabs (its template
// labels them), the first the default; evmAddressList reads each.
func evmAddressTabs() []string {
	return []string{"all", "native", "erc20", "erc721", "erc1155", "internal", "tokens", "nfts", "deployments"}
}

// evmAddressList is the API call of an address page's tab.
func evmAddressList(req *request, chainID, address, tab string) apiCall {
	q := pageQuery(req, listPageSize)
	switch tab {
	case "native":
		return evmChainCall(q, chainID, "addresses", address, "transactions:listNative")
	case "erc20":
		return evmChainCall(q, chainID, "addresses", address, "transactions:listErc20")
	case "erc721":
		return evmChainCall(q, chainID, "addresses", address, "transactions:listErc721")
	case "erc1155":
		return evmChainCall(q, chainID, "addresses", address, "transactions:listErc1155")
	case "internal":
		return evmChainCall(q, chainID, "addresses", address, "transactions:listInternals")
	case "tokens":
		return evmChainCall(q, chainID, "addresses", address, "balances:listErc20")
	case "nfts":
		return evmChainCall(q, chainID, "addresses", address, "balances:listCollectibles")
	case "deployments":
		return evmChainCall(q, chainID, "contracts", address, "deployments")
	}
	return evmChainCall(q, chainID, "addresses", address, "transactions")
}

func (s *server) serveEVMAddress(r *http.Request, req *request) (view, error) {
	chainID, address := api.PathVar(r, evmVarChainID), api.PathVar(r, evmVarAddress)
	tab, err := pageTab(req, "all", evmAddressTabs()...)
	if err != nil {
		return view{}, err
	}
	chain, replies, err := s.readEVM(r.Context(), chainID,
		evmChainCall(nil, chainID, "addresses", address, "balances:getNative"),
		evmChainCall(nil, chainID, "addresses", address),
		evmAddressList(req, chainID, address, tab))
	if err != nil {
		return view{}, err
	}
	// The balance's error first: a bad address is its 400.
	if err := replies[0].Err; err != nil {
		return view{}, err
	}
	contract, err := notFoundIsNil(replies[1])
	if err != nil {
		return view{}, err
	}
	if err := replies[2].Err; err != nil {
		return view{}, err
	}
	balance, _ := replies[0].Body["nativeTokenBalance"].(object)
	shown := address
	if contract != nil {
		shown = str(contract["address"])
	}
	return view{Template: "evm_address", Title: evmTitle(chain, "Address "+short(shown)),
		Data: evmAddressData{Chain: chain, Address: address, Balance: balance, Contract: contract, Tab: tab, List: replies[2].Body}}, nil
}
