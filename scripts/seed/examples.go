package seed

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Example is one API request that shows part of a Sample: what `make run`
// prints as a curl line, what the README's quick tour shows, and what the
// end-to-end test asks avadata and checks against the node.
type Example struct {
	// Name identifies the example (stable, for tests).
	Name string
	// What says in one line what the example answers.
	What string
	// URL is the whole URL.
	URL string
	// DataPath is the dotted path of the JSON member that holds the data,
	// e.g. "transactions" or "balances.unlockedUnstaked": the example
	// answers with data when it is non-empty (see HasData).
	DataPath string
	// Body, when set, makes the example a POST of this JSON body; a GET
	// otherwise.
	Body string
}

// Method is the example's HTTP method.
func (ex Example) Method() string {
	if ex.Body != "" {
		return http.MethodPost
	}
	return http.MethodGet
}

// Curl is the example as one curl command line.
func (ex Example) Curl() string {
	if ex.Body == "" {
		return fmt.Sprintf("curl -s '%s'", ex.URL)
	}
	return fmt.Sprintf("curl -s -H 'Content-Type: application/json' -d '%s' '%s'", ex.Body, ex.URL)
}

// Example names.
const (
	ExampleAddressTxs      = "evm-address-transactions"
	ExampleTransaction     = "evm-transaction"
	ExampleERC20Transfers  = "evm-erc20-transfers"
	ExampleERC721Transfers = "evm-erc721-transfers"
	ExampleERC1155Xfers    = "evm-erc1155-transfers"
	ExampleContract        = "evm-contract-metadata"
	ExampleDeployment      = "evm-contract-deployment"
	ExampleERC721Balances  = "evm-erc721-balances"
	ExampleNFTHolders      = "evm-nft-holders"
	ExampleNativeBalance   = "evm-native-balance"
	ExampleXTxs            = "x-chain-transactions"
	ExamplePTxs            = "p-chain-transactions"
	ExampleCAtomicTxs      = "c-chain-atomic-transactions"
	ExamplePBalances       = "p-chain-balances"
	ExampleXBalances       = "x-chain-balances"
	ExampleWarpTx          = "evm-warp-transaction"
	ExampleWarpSignatures  = "warp-aggregate-signatures"
)

// Examples lists the requests that show s, against the avadata API at
// baseURL (e.g. http://127.0.0.1:9650/ext/bc/data; the Metrics API is at
// baseURL/metrics on a node).
func Examples(baseURL string, s *Sample) []Example {
	evm := fmt.Sprintf("%s/v1/chains/%d", baseURL, s.EVMChainID)
	metrics := fmt.Sprintf("%s/metrics/v2/chains/%d", baseURL, s.EVMChainID)
	primary := baseURL + "/v1/networks/" + s.Network + "/blockchains/"
	addresses := func(a string) string { return "?" + url.Values{"addresses": {a}}.Encode() }
	native, _ := s.NativeTransfer()

	examples := []Example{
		{ExampleAddressTxs, "the sender's C-chain transactions, newest first, with their token transfers",
			evm + "/addresses/" + s.Sender.EVM.Hex() + "/transactions", "transactions", ""},
		{ExampleTransaction, "one native AVAX transfer on the C-chain, by hash",
			evm + "/transactions/" + native.Hash.Hex(), "nativeTransaction.txHash", ""},
		{ExampleERC20Transfers, "the ERC-20 contract's transfers (mint and transfer)",
			evm + "/tokens/" + s.ERC20.Hex() + "/transfers", "transfers", ""},
		{ExampleERC721Transfers, "the ERC-721 contract's transfers",
			evm + "/tokens/" + s.ERC721.Hex() + "/transfers", "transfers", ""},
		{ExampleERC1155Xfers, "the ERC-1155 contract's transfers",
			evm + "/tokens/" + s.ERC1155.Hex() + "/transfers", "transfers", ""},
		{ExampleContract, "the ERC-20 contract's metadata: name, symbol, decimals, standard",
			evm + "/addresses/" + s.ERC20.Hex(), "ercType", ""},
		{ExampleDeployment, "the transaction that deployed the ERC-721 contract",
			evm + "/contracts/" + s.ERC721.Hex() + "/transactions:getDeployment", "nativeTransaction.txHash", ""},
		{ExampleERC721Balances, "the ERC-721 tokens the recipient holds",
			evm + "/addresses/" + s.Recipient.EVM.Hex() + "/balances:listErc721", "erc721TokenBalances", ""},
		{ExampleNFTHolders, "who holds the ERC-721 collection (Metrics API)",
			metrics + "/contracts/" + s.ERC721.Hex() + "/nfts:listHolders", "addresses", ""},
		{ExampleNativeBalance, "the recipient's native AVAX balance on the C-chain",
			evm + "/addresses/" + s.Recipient.EVM.Hex() + "/balances:getNative", "nativeTokenBalance.balance", ""},
		{ExampleXTxs, "the sender's X-chain transactions: the transfer and the export to P",
			primary + "x-chain/transactions" + addresses(s.Sender.X), "transactions", ""},
		{ExamplePTxs, "the sender's P-chain transactions: the import from X and the export to C",
			primary + "p-chain/transactions" + addresses(s.Sender.P), "transactions", ""},
		{ExampleCAtomicTxs, "the sender's C-chain atomic transactions: the import from P",
			primary + "c-chain/transactions" + addresses(s.Sender.EVM.Hex()), "transactions", ""},
		{ExamplePBalances, "the sender's P-chain balances by category",
			primary + "p-chain/balances" + addresses(s.Sender.P), "balances.unlockedUnstaked", ""},
		{ExampleXBalances, "the recipient's X-chain balances (the AVAX the X transfer sent)",
			primary + "x-chain/balances" + addresses(s.Recipient.X), "balances.unlocked", ""},
	}
	return append(examples, warpExamples(baseURL, evm, s)...)
}

// warpExamples shows the warp message: its transaction always, and its
// aggregation only where validators can sign it (elsewhere the aggregator
// answers 404: no validator sets).
func warpExamples(baseURL, evm string, s *Sample) []Example {
	if s.Warp == nil {
		return nil
	}
	out := []Example{{ExampleWarpTx, "the transaction that sent the warp message (sendWarpMessage of the C-chain's warp precompile)",
		evm + "/transactions/" + s.Warp.TxHash.Hex(), "nativeTransaction.txHash", ""}}
	if s.Warp.Signable {
		out = append(out, Example{ExampleWarpSignatures, "the warp message signed by the primary network's validators (aggregateSignatures)",
			baseURL + "/v1/signatureAggregator/" + s.Network + "/aggregateSignatures", "signedMessage",
			aggregationBody(s.Warp.Message)})
	}
	return out
}

// HasData reports whether body, a JSON reply, holds a non-empty value at
// path: a non-empty array or object, a string other than "" and "0", a
// non-zero number, or true.
func HasData(body []byte, path string) (bool, error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return false, fmt.Errorf("seed: reply is not JSON: %w", err)
	}
	for _, key := range strings.Split(path, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return false, nil
		}
		v = obj[key]
	}
	switch x := v.(type) {
	case []any:
		return len(x) > 0, nil
	case map[string]any:
		return len(x) > 0, nil
	case string:
		return x != "" && x != "0", nil
	case float64:
		return x != 0, nil
	case bool:
		return x, nil
	default: // nil: absent or null
		return false, nil
	}
}
