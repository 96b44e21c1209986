//go:build e2e

package evm

import (
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// erc20Holders opens the fixture ERC-20's holders tab and pages through it:
// the addresses are the Transfer parties of the receipts (the zero address
// of mints and burns aside), each balance is the node's balanceOf at the
// height the page names, and the list is by address.
func (e *explorerCheck) erc20Holders(t *testing.T) {
	f, b := e.f, e.b
	want := map[string]bool{}
	for _, tr := range f.truth.TokenTransfers(f.erc20) {
		for _, a := range []common.Address{tr.From, tr.To} {
			if a != (common.Address{}) {
				want[a.Hex()] = true
			}
		}
	}
	require.NotEmpty(t, want)
	decimals := f.tokens(t, e.ctx).erc20Decimals
	url := e.root + "/token/" + f.erc20.Hex() + "?tab=holders"
	var got []string
	for pages := 0; url != ""; pages++ {
		require.Less(t, pages, 20)
		start := time.Now()
		require.EqualValues(t, http.StatusOK, b.Open(t, url), url)
		t.Logf("%s: holders page %d in %s (browser load)", f.name(), pages+1, time.Since(start))
		b.RequireClean(t)
		height, err := strconv.ParseUint(b.Text(t, "#holders-note [data-field=height]"), 10, 64)
		require.NoError(t, err)
		for _, holder := range b.Attrs(t, "#holders tr[data-holder]", "data-holder") {
			balance := e.balanceOfAt(t, common.HexToAddress(holder), height)
			text := harness.DecimalUnits(balance, decimals)
			if balance.Sign() == 0 {
				text += " held before"
			}
			require.Equal(t, text, b.Text(t, fmt.Sprintf(`#holders tr[data-holder="%s"] [data-field=balance]`, holder)),
				"%s: balance of %s at block %d", f.name(), holder, height)
			got = append(got, holder)
		}
		url = ""
		if b.Count(t, "a[rel=next]") > 0 {
			url = b.Attrs(t, "a[rel=next]", "href")[0]
			if !strings.HasPrefix(url, "http") {
				url = env.URI(t) + url
			}
		}
	}
	for i := 1; i < len(got); i++ {
		require.Less(t, strings.ToLower(got[i-1]), strings.ToLower(got[i]), "%s: holders by address", f.name())
	}
	gotSet := map[string]bool{}
	for _, a := range got {
		gotSet[a] = true
	}
	require.Equal(t, want, gotSet, "%s: the holders are the Transfer parties of the receipts", f.name())
	b.Screenshot(t, "evm-token-holders")
}

// balanceOfAt is the ERC-20's balanceOf owner by eth_call at block height.
func (e *explorerCheck) balanceOfAt(t *testing.T, owner common.Address, height uint64) *big.Int {
	t.Helper()
	f := e.f
	data, err := f.art.erc20.Pack("balanceOf", owner)
	require.NoError(t, err)
	var out hexutil.Bytes
	require.NoError(t, f.ewoq.RPC().CallContext(e.ctx, &out, "eth_call",
		map[string]any{"to": f.erc20, "data": hexutil.Bytes(data)}, hexutil.EncodeUint64(height)),
		"%s: eth_call balanceOf %s at %d", f.name(), owner, height)
	return new(big.Int).SetBytes(out)
}
