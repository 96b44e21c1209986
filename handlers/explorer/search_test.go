package explorer

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// fakeTokens answers token searches from a list per chain.
type fakeTokens map[netinfo.Chain][]evmdata.Contract

func (f fakeTokens) SearchContracts(_ context.Context, chain netinfo.Chain, text string, limit int) ([]evmdata.Contract, error) {
	var out []evmdata.Contract
	for _, c := range f[chain] {
		if strings.Contains(strings.ToLower(c.Name+" "+c.Symbol), strings.ToLower(text)) && len(out) < limit {
			out = append(out, c)
		}
	}
	return out, nil
}

const (
	someAddr = "0x00000000000000000000000000000000000000aa"
	someHash = "0x00000000000000000000000000000000000000000000000000000000000000bb"
	explorer = "/ext/bc/data/explorer"
)

func search(t *testing.T, h http.Handler, q string) (int, string, string) {
	t.Helper()
	rec := getPage(t, h, "/search?q="+url.QueryEscape(q))
	return rec.Code, rec.Header().Get("Location"), rec.Body.String()
}

func TestSearchRedirectsOneMatchAndListsSeveral(t *testing.T) {
	bech, err := address.FormatBech32("local", make([]byte, 20))
	require.NoError(t, err)
	id := ids.ID{7}.String()
	l1 := ids.ID{9}.String()
	net := "/v1/networks/local"
	tokens := fakeTokens{
		netinfo.C:           {{Address: common.HexToAddress("0xc1"), Kind: evmdata.Erc20, Name: "Token 43112", Symbol: "T20"}},
		fakenet.SubnetChain: {{Address: common.HexToAddress("0xd1"), Kind: evmdata.Erc20, Name: "Token 779672", Symbol: "T20"}},
	}
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/address/" + someAddr + "/chains":                                       jsonOf(t, `{"indexedChains":[{"chainId":"779672"}]}`),
		"/v1/address/0x00000000000000000000000000000000000000cc/chains":             jsonOf(t, `{"indexedChains":[]}`),
		"/v1/chains/779672/transactions/" + someHash:                                jsonOf(t, `{}`),
		"/v1/chains/43112/blocks/12":                                                jsonOf(t, `{}`),
		net + "/blockchains/p-chain/blocks/12":                                      jsonOf(t, `{}`),
		net + "/subnets/" + id:                                                      jsonOf(t, `{}`),
		net + "/blockchains/p-chain/transactions/" + id:                             jsonOf(t, `{}`),
		net + "/l1Validators?includeInactiveL1Validators=true&l1ValidationId=" + id: jsonOf(t, `{"validators":[]}`),
		net + "/l1Validators?includeInactiveL1Validators=true&l1ValidationId=" + l1: jsonOf(t, `{"validators":[{}]}`),
		net + "/blockchains/x-chain/transactions/" + ids.ID{8}.String():             &api.Error{Status: http.StatusServiceUnavailable, Message: "not yet"},
	}, tokens)

	cases := []struct{ q, location string }{
		{someAddr, explorer + "/evm/779672/address/" + someAddr},
		{someHash, explorer + "/evm/779672/tx/" + someHash},
		{"P-" + bech, explorer + "/p-chain/address/P-" + bech},
		{"x-" + bech, explorer + "/x-chain/address/X-" + bech},
		{ids.EmptyNodeID.String(), explorer + "/validators/" + ids.EmptyNodeID.String()},
		{id, explorer + "/subnets/" + id}, // the subnet, not the CreateSubnetTx of the same ID
		{l1, explorer + "/l1-validators/" + l1},
		{"token 43112", explorer + "/evm/43112/token/0x00000000000000000000000000000000000000C1"},
	}
	for _, c := range cases {
		code, location, body := search(t, h, c.q)
		require.Equal(t, http.StatusSeeOther, code, "%s: %s", c.q, body)
		require.Equal(t, c.location, location, c.q)
	}

	// Several: listed with their kind and chain.
	code, _, body := search(t, h, "12")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, `href="`+explorer+`/evm/43112/block/12"`)
	require.Contains(t, body, `href="`+explorer+`/p-chain/block/12"`)
	require.Equal(t, 2, strings.Count(body, `class="candidate"`))
	code, _, body = search(t, h, "t20")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, `data-kind="ERC-20 token"`)
	require.Contains(t, body, "Token 779672 (T20)")
	require.Contains(t, body, "dispatch (EVM chain 779672)")
	code, _, body = search(t, h, bech)
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, body, `href="`+explorer+`/p-chain/address/P-`+bech+`"`)
	require.Contains(t, body, `href="`+explorer+`/x-chain/address/X-`+bech+`"`)
	// An address seen on no chain may be on any.
	code, _, body = search(t, h, "0x00000000000000000000000000000000000000cc")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, 2, strings.Count(body, `class="candidate"`))
}

func TestSearchSaysWhatItTriedAndRefusesNonsense(t *testing.T) {
	h := newTestExplorer(t, Config{}, fakeAPI{
		"/v1/networks/local/blockchains/x-chain/transactions/" + ids.ID{8}.String(): &api.Error{Status: http.StatusServiceUnavailable, Message: "not yet"},
	}, fakeTokens{})
	code, _, body := search(t, h, "<nothing>")
	require.Equal(t, http.StatusNotFound, code)
	require.Contains(t, body, "nothing on this node matches &#39;&lt;nothing&gt;&#39;")
	require.Contains(t, body, "the names and symbols of the tokens")
	code, _, body = search(t, h, someHash)
	require.Equal(t, http.StatusNotFound, code)
	require.Contains(t, body, "transactions and blocks of C-Chain (EVM chain 43112)")

	code, _, _ = search(t, h, ids.ID{8}.String())
	require.Equal(t, http.StatusServiceUnavailable, code, "a probe that could not answer is no \"not found\"")

	for _, q := range []string{"", "   ", strings.Repeat("a", 500), "a\x00b"} {
		code, _, body = search(t, h, q)
		require.Equal(t, http.StatusBadRequest, code, "%q", q)
		require.Contains(t, body, `data-status="400"`)
	}
	// The length bound counts characters, not bytes.
	code, _, _ = search(t, h, strings.Repeat("é", searchMaxLen))
	require.Equal(t, http.StatusNotFound, code)
	code, _, body = search(t, h, strings.Repeat("é", searchMaxLen+1))
	require.Equal(t, http.StatusBadRequest, code)
	require.Contains(t, body, "the search text is 121 characters long")

	code, _, _ = search(t, h, "NodeID-nonsense")
	require.Equal(t, http.StatusBadRequest, code)

	// A malformed address of the primary network: a 400 saying why, not a
	// token search.
	bech, err := address.FormatBech32("local", make([]byte, 20))
	require.NoError(t, err)
	mainnet, err := address.FormatBech32("avax", make([]byte, 20))
	require.NoError(t, err)
	long, err := address.FormatBech32("local", make([]byte, 25))
	require.NoError(t, err)
	for q, why := range map[string]string{
		"P-" + bech[:len(bech)-1] + "q": "it is not a bech32 address",
		"x-" + mainnet:                  "it belongs to network prefix &#34;avax&#34;",
		"C-" + long:                     "it has 25 bytes; want 20",
		bech[:len(bech)-2] + "qq":       "it is not a bech32 address",
	} {
		code, _, body = search(t, h, q)
		require.Equal(t, http.StatusBadRequest, code, q)
		require.Contains(t, body, "&#39;"+q+"&#39; is not a valid address of this network: "+why, q)
		require.NotContains(t, body, "the names and symbols of the tokens", q)
	}
	// Text that is no address is still looked for among the tokens.
	for _, q := range []string{"X-Men", "P-Token1234567", "avax1qqqqqqqq"} {
		code, _, body = search(t, h, q)
		require.Equal(t, http.StatusNotFound, code, q)
		require.Contains(t, body, "the names and symbols of the tokens", q)
	}
}
