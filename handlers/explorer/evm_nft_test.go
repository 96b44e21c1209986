package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// evmNFTReplies are an ERC-721 token whose metadata is hostile, with an
// image at imageURI.
func evmNFTReplies(t *testing.T, imageURI string) fakeAPI {
	return fakeAPI{
		testChain + "/addresses/" + testToken: jsonOf(t, `{"address":"`+testToken+`","ercType":"ERC-721","name":"Coll","symbol":"C"}`),
		testChain + "/nfts/collections/" + testToken + "/tokens/7": jsonOf(t, `{"address":"`+testToken+`","ercType":"ERC-721","tokenId":"7",
			"tokenUri":"https://meta.example/7","ownerAddress":"`+testAddr+`","metadata":{"indexStatus":"INDEXED",
			"name":"<script>alert(1)</script>","description":"\"><img src=x onerror=alert(1)>","imageUri":"`+imageURI+`",
			"attributes":"[{\"trait_type\":\"<b>\",\"value\":1}]"}}`),
	}
}

func TestEVMNFTPage(t *testing.T) {
	body := evmPage(t, Config{}, evmNFTReplies(t, "https://img.example/7.png"), "/evm/43112/nft/"+testToken+"/7", http.StatusOK)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/address/`+testAddr+`"`, "the owner")
	require.Contains(t, body, `<td class="mono" data-field="tokenUri">https://meta.example/7</td>`)
	require.Contains(t, body, `<td class="mono" data-field="imageUri">https://img.example/7.png</td>`)
	require.Contains(t, body, `&lt;b&gt;`)
	require.NotContains(t, body, "<img class=", "no image from another origin unless the operator allows it")
	requireEscaped(t, body)

	body = evmPage(t, Config{RemoteImages: true}, evmNFTReplies(t, "https://img.example/7.png"), "/evm/43112/nft/"+testToken+"/7", http.StatusOK)
	require.Contains(t, body, `<img class="nft-image" id="nft-image" src="https://img.example/7.png"`)

	body = evmPage(t, Config{RemoteImages: true}, evmNFTReplies(t, "javascript:alert(1)"), "/evm/43112/nft/"+testToken+"/7", http.StatusOK)
	require.NotContains(t, body, "<img class=", "only https images")
	body = evmPage(t, Config{RemoteImages: true}, evmNFTReplies(t, "http://127.0.0.1:8080/admin"), "/evm/43112/nft/"+testToken+"/7", http.StatusOK)
	require.NotContains(t, body, "<img class=", "no image from the operator's machine")
	require.Contains(t, body, `<td class="mono" data-field="imageUri">http://127.0.0.1:8080/admin</td>`, "its URL shows as text")
}

func TestRemoteImagesAreHTTPSOnNamedHosts(t *testing.T) {
	for _, u := range []string{"https://img.example/7.png", "https://IMG.example.:443/a?b=c", "https://xn--bcher-kva.example/x.png", "https://cdn-1.example.com/0x1f"} {
		require.True(t, isRemoteImageURL(u), u)
	}
	for _, u := range []string{
		"http://img.example/7.png", "javascript:alert(1)", "data:image/png;base64,AA==", "ipfs://Qm", "//img.example/7.png", "https:img.example",
		"https://localhost/x", "https://LOCALHOST./x", "https://router.localhost/x",
		"https://127.0.0.1/x", "https://10.0.0.1/x", "https://192.168.1.1:8443/x", "https://[::1]/x", "https://[fe80::1%25eth0]/x",
		"https://127.1/x", "https://2130706433/x", "https://0x7f.1/x", "https://0177.0.0.1/x", "https://a.b.0x/x", "https://%31%32%37.0.0.1/x",
		"https:///x", "https://bad host/x",
	} {
		require.False(t, isRemoteImageURL(u), u)
	}
}

func TestRemoteImagesPolicyIsHTTPSOnly(t *testing.T) {
	rec := getPage(t, newTestExplorer(t, Config{RemoteImages: true}, evmAPI(t, evmNFTReplies(t, "https://img.example/7.png")), nil), "/evm/43112/nft/"+testToken+"/7")
	require.Equal(t, http.StatusOK, rec.Code)
	csp := rec.Header().Get("Content-Security-Policy")
	require.Contains(t, csp, "img-src 'self' data: https:;")
	require.NotContains(t, csp, "http:")
}
