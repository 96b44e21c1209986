package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"
)

// The EVM endpoints' responses, decoded into this package's own structs
// with the spec's field names (data-api.md, Resources), so a renamed or
// retyped field fails the decode instead of going unnoticed. Optional
// fields are pointers: the tests check absent ones are omitted, never null.

// apiParty is the spec's Party (the OpenAPI's RichAddress).
type apiParty struct {
	Address  string  `json:"address"`
	Name     *string `json:"name"`
	Symbol   *string `json:"symbol"`
	Decimals *int    `json:"decimals"`
	LogoURI  *string `json:"logoUri"`
}

// apiMethod is NativeTransaction.method.
type apiMethod struct {
	CallType   string  `json:"callType"`
	MethodHash string  `json:"methodHash"`
	MethodName *string `json:"methodName"`
}

// apiNativeTx is the spec's NativeTransaction; the last four fields are
// what the deployment and transaction endpoints add.
type apiNativeTx struct {
	BlockNumber          string     `json:"blockNumber"`
	BlockTimestamp       int64      `json:"blockTimestamp"`
	BlockHash            string     `json:"blockHash"`
	ChainID              string     `json:"chainId"`
	BlockIndex           int        `json:"blockIndex"`
	TxHash               string     `json:"txHash"`
	TxStatus             string     `json:"txStatus"`
	TxType               int        `json:"txType"`
	GasLimit             string     `json:"gasLimit"`
	GasUsed              string     `json:"gasUsed"`
	GasPrice             string     `json:"gasPrice"`
	Nonce                string     `json:"nonce"`
	From                 apiParty   `json:"from"`
	To                   apiParty   `json:"to"`
	Method               *apiMethod `json:"method"`
	Value                string     `json:"value"`
	Input                *string    `json:"input"`
	BaseFeePerGas        *string    `json:"baseFeePerGas"`
	MaxFeePerGas         *string    `json:"maxFeePerGas"`
	MaxPriorityFeePerGas *string    `json:"maxPriorityFeePerGas"`
}

// apiToken is erc20Token, erc721Token and erc1155Token in one.
type apiToken struct {
	Address      string          `json:"address"`
	Name         *string         `json:"name"`
	Symbol       *string         `json:"symbol"`
	Decimals     *int            `json:"decimals"`
	ErcType      string          `json:"ercType"`
	TokenID      *string         `json:"tokenId"`
	TokenURI     *string         `json:"tokenUri"`
	Metadata     json.RawMessage `json:"metadata"`
	OwnerAddress *string         `json:"ownerAddress"`
	ChainID      *string         `json:"chainId"`
}

// apiTransfer is the spec's Erc20Transfer, Erc721Transfer and
// Erc1155Transfer; the block fields are set in the token transfers list.
type apiTransfer struct {
	BlockNumber    *string   `json:"blockNumber"`
	BlockTimestamp *int64    `json:"blockTimestamp"`
	BlockHash      *string   `json:"blockHash"`
	TxHash         *string   `json:"txHash"`
	From           apiParty  `json:"from"`
	To             apiParty  `json:"to"`
	LogIndex       int       `json:"logIndex"`
	Value          *string   `json:"value"`
	Erc20Token     *apiToken `json:"erc20Token"`
	Erc721Token    *apiToken `json:"erc721Token"`
	Erc1155Token   *apiToken `json:"erc1155Token"`
}

// apiInternalTx is the spec's InternalTransaction.
type apiInternalTx struct {
	From           apiParty `json:"from"`
	To             apiParty `json:"to"`
	InternalTxType string   `json:"internalTxType"`
	Value          string   `json:"value"`
	IsReverted     bool     `json:"isReverted"`
	GasUsed        string   `json:"gasUsed"`
	GasLimit       string   `json:"gasLimit"`
}

// apiTxDetails is the spec's address transaction entry and deployment
// transaction result (GetTransactionResponse).
type apiTxDetails struct {
	NativeTransaction    apiNativeTx      `json:"nativeTransaction"`
	Erc20Transfers       []apiTransfer    `json:"erc20Transfers"`
	Erc721Transfers      []apiTransfer    `json:"erc721Transfers"`
	Erc1155Transfers     []apiTransfer    `json:"erc1155Transfers"`
	InternalTransactions *[]apiInternalTx `json:"internalTransactions"`
	NetworkTokenDetails  *struct {
		NetworkToken apiNetworkToken `json:"networkToken"`
	} `json:"networkTokenDetails"`
}

// apiNetworkToken is the chain's native token.
type apiNetworkToken struct {
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
}

// apiNativeBalance is nativeTokenBalance.
type apiNativeBalance struct {
	apiNetworkToken
	ChainID string `json:"chainId"`
	Balance string `json:"balance"`
}

// apiContract is the spec's Contract metadata.
type apiContract struct {
	Address           string  `json:"address"`
	ErcType           string  `json:"ercType"`
	Name              *string `json:"name"`
	Symbol            *string `json:"symbol"`
	Decimals          *int    `json:"decimals"`
	DeploymentDetails *struct {
		TxHash                  string  `json:"txHash"`
		DeployerAddress         string  `json:"deployerAddress"`
		DeployerContractAddress *string `json:"deployerContractAddress"`
	} `json:"deploymentDetails"`
}

// apiHolder is one entry of the NFT holders list.
type apiHolder struct {
	Address string `json:"address"`
	SortKey uint64 `json:"sortKey"`
}

// apiChain is one entry of the chain list.
type apiChain struct {
	ChainID         string          `json:"chainId"`
	Status          string          `json:"status"`
	ChainName       string          `json:"chainName"`
	PlatformChainID *string         `json:"platformChainId"`
	SubnetID        *string         `json:"subnetId"`
	VMName          string          `json:"vmName"`
	RPCURL          string          `json:"rpcUrl"`
	NetworkToken    apiNetworkToken `json:"networkToken"`
}

// evmURL is the URL of an EVM endpoint below /v1/chains/{chainId}.
func (f *evmFixture) evmURL(path string, query url.Values) string {
	u := env.base + "/v1/chains/" + f.chainID() + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// evmGet is get that waits out a 429 (its Retry-After): a 429 is the server
// asking to come back later, not a failure of the endpoint under test. The
// e2e nodes' rate limits (testChainConfig) are set so that it is rare.
func evmGet(t *testing.T, ctx context.Context, u string) reply {
	t.Helper()
	for {
		r := get(t, ctx, u)
		if r.status != http.StatusTooManyRequests {
			return r
		}
		wait, err := strconv.Atoi(r.header.Get("Retry-After"))
		require.NoError(t, err, "GET %s: 429 without a Retry-After in seconds: %v", u, r.header)
		select {
		case <-ctx.Done():
			t.Fatalf("GET %s: still rate limited: %s", u, r.body)
		case <-time.After(time.Duration(max(wait, 1)) * time.Second):
		}
	}
}

// getOK fetches u, requires 200 with a JSON body without nulls, and
// decodes it into v.
func getOK(t *testing.T, ctx context.Context, u string, v any) {
	t.Helper()
	r := evmGet(t, ctx, u)
	require.Equal(t, http.StatusOK, r.status, "GET %s: %s", u, r.body)
	require.Contains(t, r.header.Get("Content-Type"), "application/json", "GET %s", u)
	requireNoNulls(t, r.body, u)
	require.NoError(t, json.Unmarshal(r.body, v), "GET %s: %s", u, r.body)
}

// requireNoNulls checks no member of a JSON document is null: optional
// fields are omitted, never null (sdk-conformance.md §0.9).
func requireNoNulls(t *testing.T, body []byte, what string) {
	t.Helper()
	var doc any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&doc), "%s: %s", what, body)
	var walk func(v any, path string)
	walk = func(v any, path string) {
		switch x := v.(type) {
		case nil:
			t.Errorf("%s: %s is null in %s", what, path, body)
		case map[string]any:
			for k, el := range x {
				walk(el, path+"."+k)
			}
		case []any:
			for i, el := range x {
				walk(el, path+"["+strconv.Itoa(i)+"]")
			}
		}
	}
	walk(doc, "$")
}

// listPage is one page of a list endpoint: its items under key and its
// next page token.
func listPage[T any](t *testing.T, ctx context.Context, u, key string) ([]T, string) {
	t.Helper()
	var body map[string]json.RawMessage
	getOK(t, ctx, u, &body)
	raw, ok := body[key]
	require.True(t, ok, "GET %s: no %q in the body", u, key)
	var items []T
	require.NoError(t, json.Unmarshal(raw, &items), "GET %s: %s", u, raw)
	require.NotNil(t, items, "GET %s: %q must be an array, even when empty", u, key)
	var next string
	if tok, ok := body["nextPageToken"]; ok {
		require.NoError(t, json.Unmarshal(tok, &next), "GET %s: nextPageToken %s", u, tok)
		require.NotEmpty(t, strings.TrimSpace(next), "GET %s: an empty nextPageToken must be omitted", u)
	}
	return items, next
}

// listAll follows nextPageToken from u to the end and returns every item,
// checking each page has at most pageSize items and only the last is short.
func listAll[T any](t *testing.T, ctx context.Context, u, key string, pageSize int) []T {
	t.Helper()
	var all []T
	seen := map[string]bool{}
	next := ""
	for page := 0; ; page++ {
		require.Less(t, page, 1000, "GET %s: paging does not end", u)
		pageURL := u
		if next != "" {
			pageURL = withQuery(u, "pageToken", next)
		}
		items, tok := listPage[T](t, ctx, pageURL, key)
		require.LessOrEqual(t, len(items), pageSize, "GET %s: page %d", pageURL, page)
		all = append(all, items...)
		if tok == "" {
			return all
		}
		require.Len(t, items, pageSize, "GET %s: a page before the last must be full", pageURL)
		require.False(t, seen[tok], "GET %s: page token repeated", pageURL)
		seen[tok] = true
		next = tok
	}
}

// withQuery returns u with one more (or replaced) query parameter.
func withQuery(u, key, value string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		panic(err) // the tests build these URLs themselves
	}
	q := parsed.Query()
	q.Set(key, value)
	parsed.RawQuery = q.Encode()
	return parsed.String()
}

// sameAddress reports whether the API's address text is addr, in any case.
func sameAddress(text string, addr common.Address) bool {
	return common.IsHexAddress(text) && common.HexToAddress(text) == addr
}

// requireAddress checks an address field of a response.
func requireAddress(t *testing.T, want common.Address, got, what string) {
	t.Helper()
	require.True(t, sameAddress(got, want), "%s: got %q, want %s", what, got, want)
}

// requireDecimal checks a big number written as a decimal string.
func requireDecimal(t *testing.T, want *big.Int, got, what string) {
	t.Helper()
	require.Regexp(t, decimalDigits, got, "%s: want a decimal string", what)
	require.Equal(t, want.String(), got, what)
}

// requireUintString checks a uint64 written as a decimal string.
func requireUintString(t *testing.T, want uint64, got, what string) {
	t.Helper()
	requireDecimal(t, new(big.Int).SetUint64(want), got, what)
}

// requireAPIError checks an error reply: status, JSON content type and the
// spec's body (message, error, statusCode); the metrics service's message
// is an array of strings. mentions, when set, must appear in the message.
func requireAPIError(t *testing.T, r reply, status int, metrics bool, mentions string) {
	t.Helper()
	require.Equal(t, status, r.status, "body: %s", r.body)
	require.Contains(t, r.header.Get("Content-Type"), "application/json", "body: %s", r.body)
	var body struct {
		Message    json.RawMessage `json:"message"`
		Error      string          `json:"error"`
		StatusCode int             `json:"statusCode"`
	}
	r.decode(t, &body)
	require.Equal(t, status, body.StatusCode, "body: %s", r.body)
	require.Equal(t, http.StatusText(status), body.Error, "body: %s", r.body)
	var text string
	if metrics {
		var lines []string
		require.NoError(t, json.Unmarshal(body.Message, &lines), "metrics message must be an array of strings: %s", r.body)
		require.NotEmpty(t, lines, "body: %s", r.body)
		text = strings.Join(lines, "\n")
	} else {
		require.NoError(t, json.Unmarshal(body.Message, &text), "message must be a string: %s", r.body)
	}
	require.NotEmpty(t, text, "body: %s", r.body)
	if mentions != "" {
		require.Contains(t, text, mentions, "body: %s", r.body)
	}
}

// mustUint parses a decimal the test wrote itself.
func mustUint(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err)
	return n
}
