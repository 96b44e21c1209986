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
	require.NotContains(t, body, "<img class=", "only http(s) images")
}
