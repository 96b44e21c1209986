package evm

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// checkBadInput sends bad parameters to the three listings.
func (b *balanceActivity) checkBadInput(t *testing.T, ctx context.Context) {
	t.Helper()
	base := b.evmURL("/addresses/"+b.holder.Address().Hex(), nil)
	erc20, erc1155, coll := base+"/balances:listErc20", base+"/balances:listErc1155", base+"/balances:listCollectibles"
	_, collToken := harness.ListPage[balanceEntry](t, ctx, coll+"?pageSize=1", "collectibleBalances")
	require.NotEmpty(t, collToken)
	_, multiToken := harness.ListPage[balanceEntry](t, ctx, erc1155+"?pageSize=1&blockNumber="+fmt.Sprint(b.heights[0]), "erc1155TokenBalances")
	require.NotEmpty(t, multiToken)
	far := fmt.Sprint(b.heights[2] + 1_000_000)
	cases := []struct{ name, url, mentions string }{
		{"ERC-20: blockNumber above the indexed height", erc20 + "?blockNumber=" + far, "blockNumber"},
		{"ERC-20: blockNumber not a number", erc20 + "?blockNumber=latest", "blockNumber"},
		{"ERC-20: negative blockNumber", erc20 + "?blockNumber=-1", "blockNumber"},
		{"ERC-20: filterSpamTokens", erc20 + "?filterSpamTokens=maybe", "filterSpamTokens"},
		{"ERC-20: contractAddresses", erc20 + "?contractAddresses=" + b.reb.Hex() + ",0x12", "contractAddresses"},
		{"ERC-20: currency", erc20 + "?currency=btc", "currency"},
		{"ERC-20: pageSize 0", erc20 + "?pageSize=0", "pageSize"},
		{"ERC-20: pageSize 501", erc20 + "?pageSize=501", "pageSize"},
		{"ERC-20: address", b.evmURL("/addresses/0x12/balances:listErc20", nil), "address"},
		{"ERC-20: page token of another listing", erc20 + "?pageToken=" + url.QueryEscape(collToken), "pageToken"},
		{"ERC-1155: blockNumber above the indexed height", erc1155 + "?blockNumber=" + far, "blockNumber"},
		{"ERC-1155: blockNumber not a number", erc1155 + "?blockNumber=0x10", "blockNumber"},
		{"ERC-1155: contractAddress", erc1155 + "?contractAddress=0x12", "contractAddress"},
		{"ERC-1155: pageSize 501", erc1155 + "?pageSize=501", "pageSize"},
		{"ERC-1155: page token of another block", erc1155 + "?pageSize=1&blockNumber=" + fmt.Sprint(b.heights[1]) + "&pageToken=" + url.QueryEscape(multiToken), "pageToken"},
		{"collectibles: contractAddress", coll + "?contractAddress=nope", "contractAddress"},
		{"collectibles: pageSize 0", coll + "?pageSize=0", "pageSize"},
		{"collectibles: page token of another listing", coll + "?pageSize=1&pageToken=" + url.QueryEscape(multiToken), "pageToken"},
		{"collectibles: chain", b.base + "/v1/chains/999999/addresses/" + b.holder.Address().Hex() + "/balances:listCollectibles", "chainId"},
	}
	for _, c := range cases {
		r := harness.GetWithRetryAfter(t, ctx, c.url)
		require.Less(t, r.Status, 500, "%s: GET %s: %s", c.name, c.url, r.Body)
		t.Run(c.name, func(t *testing.T) { requireAPIError(t, r, http.StatusBadRequest, false, c.mentions) })
	}
}
