package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// The EVM pages' unit tests: canned API replies (fakeAPI) for chain 43112,
// reached as "c-chain" in some URLs to check that links use the EVM chain id.

const (
	testChain   = "/v1/chains/43112"
	testAddr    = "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"
	testToken   = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
	testTxHash  = "0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	hostileName = `<script>alert(1)</script>`
	hostileSym  = `"><img src=x onerror=alert(1)>`
)

// evmChainReply is getChainInfo's reply for the test chain.
func evmChainReply(t *testing.T) any {
	return jsonOf(t, `{"chainId":"43112","chainName":"C-Chain","platformChainId":"2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5",
		"status":"OK","vmName":"EVM","networkToken":{"name":"Avalanche","symbol":"AVAX","decimals":18}}`)
}

// evmAPI is a fakeAPI that knows the test chain under its id and c-chain.
func evmAPI(t *testing.T, replies fakeAPI) fakeAPI {
	replies[testChain] = evmChainReply(t)
	replies["/v1/chains/c-chain"] = evmChainReply(t)
	return replies
}

// evmPage serves path over the canned replies and requires status.
func evmPage(t *testing.T, cfg Config, replies fakeAPI, path string, status int) string {
	t.Helper()
	rec := getPage(t, newTestExplorer(t, cfg, evmAPI(t, replies), nil), path)
	require.Equal(t, status, rec.Code, rec.Body.String())
	return rec.Body.String()
}

// requireEscaped checks that the hostile texts are in body as text only.
func requireEscaped(t *testing.T, body string) {
	t.Helper()
	require.NotContains(t, body, "<script>")
	require.NotContains(t, body, "<img src=x")
	require.Contains(t, body, "&lt;script&gt;alert(1)&lt;/script&gt;")
	require.Contains(t, body, "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;")
}

func TestEVMPagesShowTheAPIsErrors(t *testing.T) {
	body := evmPage(t, Config{}, fakeAPI{}, "/evm/99999/tx/"+testTxHash, http.StatusNotFound)
	require.Contains(t, body, "no such thing: /v1/chains/99999")
	body = evmPage(t, Config{}, fakeAPI{}, "/evm/43112/address/"+testAddr+"?tab=nope", http.StatusBadRequest)
	require.Contains(t, body, "invalid tab &#39;nope&#39;")
}
