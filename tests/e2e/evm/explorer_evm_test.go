//go:build e2e

package evm

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// The explorer's EVM pages in a real browser, on the shared activity of
// both EVM chains: what each page shows is compared with the node's own
// answers (receipts, transactions, eth_getBalance, eth_call), links are
// followed by clicking, lists paged with Next, and a token whose name and
// symbol are markup shows them as text.

// Hostile token texts: a page that did not escape them would run a script
// or load an image from another origin, which RequireClean reports.
const (
	hostileTokenName   = `<script>alert(1)</script>`
	hostileTokenSymbol = `"><img src=x onerror=alert(1)>`
)

func TestEVMExplorerPages(t *testing.T) {
	fixtures := evmFixtures(t)
	b := harness.NewBrowser(t, env.URI(t))
	for _, f := range fixtures {
		t.Run(f.name(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), evmTestTimeout)
			defer cancel()
			e := &explorerCheck{f: f, b: b, ctx: ctx, root: env.Base(t) + "/explorer/evm/" + f.chainID()}
			e.chainPage(t)
			e.blockTxAddressToken(t)
			e.erc20Holders(t)
			e.transfersAndInternals(t)
			e.nftCollection(t)
			e.paging(t)
			e.hostileToken(t)
		})
	}
}

// explorerCheck is one chain's browsing.
type explorerCheck struct {
	f    *evmFixture
	b    *harness.Browser
	ctx  context.Context
	root string // the chain's explorer URL
}

// open loads a page below the chain's root, requires 200 and a clean page.
func (e *explorerCheck) open(t *testing.T, path string) {
	t.Helper()
	require.EqualValues(t, http.StatusOK, e.b.Open(t, e.root+path), path)
	e.b.RequireClean(t)
}

// number is the first word of a cell's text: the amount without its unit.
func (e *explorerCheck) number(t *testing.T, selector string) string {
	t.Helper()
	fields := strings.Fields(e.b.Text(t, selector))
	require.NotEmpty(t, fields, "%s: %s is empty", e.f.name(), selector)
	return fields[0]
}

// chainPage opens the chain's page: its latest block is at least the
// fixture's last (indexed before the fixture returned) and at most the
// node's eth_blockNumber.
func (e *explorerCheck) chainPage(t *testing.T) {
	f, b := e.f, e.b
	e.open(t, "")
	require.Equal(t, f.chainID(), b.Text(t, "#chain [data-field=chainId]"), "%s: the chain page's chain", f.name())
	rows := b.Attrs(t, "tr[data-block-row]", "data-block-row")
	require.NotEmpty(t, rows, "%s: the chain page's latest blocks", f.name())
	latest, err := strconv.ParseUint(rows[0], 10, 64)
	require.NoError(t, err)
	head, err := f.ewoq.BlockNumber(e.ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, latest, f.lastBlock, "%s: latest block shown vs the fixture's last", f.name())
	require.LessOrEqual(t, latest, head, "%s: latest block shown vs eth_blockNumber", f.name())
	b.Screenshot(t, "evm-chain")
}

// blockTxAddressToken opens the block of the ERC-20 transfer, clicks to the
// tx, to its recipient, and back, then to the token.
func (e *explorerCheck) blockTxAddressToken(t *testing.T) {
	f, b := e.f, e.b
	x := f.truthTx(t, "ERC-20 transfer")
	e.open(t, fmt.Sprintf("/block/%d", x.Block.Number))
	require.Equal(t, fmt.Sprint(x.Block.Number), b.Text(t, "[data-field=number]"))
	require.Equal(t, x.Block.Hash.Hex(), strings.ToLower(b.Text(t, "[data-field=hash]")))
	require.Equal(t, fmt.Sprint(len(x.Block.Txs)), b.Text(t, "[data-field=txCount]"))
	require.Equal(t, len(x.Block.Txs), b.Count(t, "tr[data-tx-row]"), "the block's transactions")
	b.Screenshot(t, "evm-block")

	require.EqualValues(t, http.StatusOK, b.Click(t, fmt.Sprintf(`a[data-tx="%s"]`, x.Hash.Hex())))
	b.RequireClean(t)
	require.True(t, strings.HasSuffix(b.Location(t), "/tx/"+x.Hash.Hex()), b.Location(t))
	e.checkTx(t, x)
	b.Screenshot(t, "evm-tx")
	restore := b.PhoneWidth(t)
	require.True(t, b.FitsWidth(t), "%s: the tx page fits a phone's width (its tables scroll in their own box)", f.name())
	restore()

	// The recipient: balance against eth_getBalance (it only receives, so
	// nothing is pending), ERC-20 balance against balanceOf.
	to := f.recipients[0]
	require.EqualValues(t, http.StatusOK, b.Click(t, fmt.Sprintf(`#erc20-transfers a[data-address="%s"]`, to.Hex())))
	b.RequireClean(t)
	balance, err := f.ewoq.Balance(e.ctx, to)
	require.NoError(t, err)
	require.Equal(t, harness.DecimalUnits(balance, 18), b.Text(t, "[data-field=native-balance]"), "%s: native balance of %s", f.name(), to)
	require.EqualValues(t, http.StatusOK, b.Click(t, `nav.tabs a[href$="tab=tokens"]`))
	b.RequireClean(t)
	held := f.callOne(t, e.ctx, f.erc20, f.art.erc20, "balanceOf", to).(*big.Int)
	require.Equal(t, harness.DecimalUnits(held, f.tokens(t, e.ctx).erc20Decimals),
		b.Text(t, fmt.Sprintf(`#erc20-balances tr[data-token="%s"] [data-field=balance]`, f.erc20.Hex())))
	b.Screenshot(t, "evm-address")
	require.EqualValues(t, http.StatusOK, b.Back(t))
	require.EqualValues(t, http.StatusOK, b.Back(t))
	back := b.Location(t)
	require.True(t, strings.HasSuffix(back, "/tx/"+x.Hash.Hex()), "back to the tx: %s", back)
	// A page the back button restored from the browser's cache is not one
	// the DevTools protocol queries again: load it afresh to click on.
	e.open(t, strings.TrimPrefix(back, e.root))

	require.EqualValues(t, http.StatusOK, b.Click(t, `#erc20-transfers a.token`))
	b.RequireClean(t)
	e.checkERC20Token(t)
	b.Screenshot(t, "evm-token")
}

// checkTx compares the tx page with the node's transaction and receipt
// (its logs too).
func (e *explorerCheck) checkTx(t *testing.T, x *truth.EVMTx) {
	t.Helper()
	f, b := e.f, e.b
	what := f.name() + " tx " + x.Hash.Hex()
	status := "success"
	if x.Receipt.Status == 0 {
		status = "failed"
	}
	require.Equal(t, status, b.Text(t, "[data-field=status]"), what)
	require.Equal(t, fmt.Sprint(x.Block.Number), b.Text(t, "[data-field=block] a"), what)
	require.Equal(t, harness.DecimalUnits(x.Value, 18), e.number(t, "[data-field=value]"), what+" value")
	fee := new(big.Int).Mul(new(big.Int).SetUint64(x.Receipt.GasUsed), x.Receipt.EffectiveGasPrice)
	require.Equal(t, harness.DecimalUnits(fee, 18), e.number(t, "[data-field=fee]"), what+" fee")
	require.Equal(t, fmt.Sprint(x.Receipt.GasUsed), b.Text(t, "[data-field=gasUsed]"), what)
	require.Equal(t, fmt.Sprint(x.Gas), b.Text(t, "[data-field=gasLimit]"), what)
	require.Equal(t, fmt.Sprint(x.Nonce), b.Text(t, "[data-field=nonce]"), what)
	require.Equal(t, []string{x.From.Hex()}, b.Attrs(t, "[data-field=from] a", "data-address"), what)
	to := x.To
	if to == nil {
		to = x.Receipt.ContractAddress
	}
	require.Equal(t, []string{to.Hex()}, b.Attrs(t, "[data-field=to] a", "data-address"), what)
	if len(x.Input) >= 4 {
		// The API names the token functions: each test contract's method
		// of the tx's selector that is one of them.
		if sig := methodSigs()[[4]byte(x.Input[:4])]; tokenFunction(sig) {
			require.Equal(t, sig, b.Text(t, "[data-field=method] .method"), what+" method")
		}
	}
	e.checkTransfers(t, x)
	e.checkLogs(t, x)
}

// tokenFunction says whether sig is a token function the API names.
func tokenFunction(sig string) bool {
	for _, p := range []string{"transfer(", "transferFrom(", "mint(", "mintBatch(", "safeTransferFrom(", "safeBatchTransferFrom("} {
		if strings.HasPrefix(sig, p) {
			return true
		}
	}
	return false
}

// checkTransfers compares the tx page's token transfers and internal
// transactions with those the receipt's logs and the trace decode to.
func (e *explorerCheck) checkTransfers(t *testing.T, x *truth.EVMTx) {
	t.Helper()
	f, b := e.f, e.b
	what := f.name() + " tx " + x.Hash.Hex()
	var want20, want721, want1155 []string
	for _, tr := range x.Transfers {
		switch tr.Kind {
		case "ERC-20":
			decimals := f.token(t, e.ctx, tr.Token, "ERC-20").decimals
			want20 = append(want20, tr.From.Hex()+" "+tr.To.Hex()+" "+harness.DecimalUnits(tr.Value, decimals))
		case "ERC-721":
			want721 = append(want721, tr.From.Hex()+" "+tr.To.Hex()+" #"+tr.TokenID.String())
		default:
			want1155 = append(want1155, tr.From.Hex()+" "+tr.To.Hex()+" #"+tr.TokenID.String()+" "+tr.Value.String())
		}
	}
	require.ElementsMatch(t, want20, e.transferRows(t, "#erc20-transfers", "[data-field=amount]"), what+" ERC-20 transfers")
	require.ElementsMatch(t, want721, e.transferRows(t, "#erc721-transfers", "[data-field=tokenId]"), what+" ERC-721 transfers")
	require.ElementsMatch(t, want1155, e.transferRows(t, "#erc1155-transfers", "[data-field=tokenId]", "[data-field=amount]"), what+" ERC-1155 transfers")

	var wantInternal []string
	for _, in := range x.Internal {
		wantInternal = append(wantInternal, in.Type+" "+harness.DecimalUnits(in.Value, 18))
	}
	var gotInternal []string
	types := b.Texts(t, "#internal-txs [data-field=type]")
	values := b.Texts(t, "#internal-txs [data-field=value]")
	for i := range types {
		gotInternal = append(gotInternal, types[i]+" "+values[i])
	}
	require.ElementsMatch(t, wantInternal, gotInternal, what+" internal transactions")
}

// transferRows are a transfers table's rows as "from to cells...".
func (e *explorerCheck) transferRows(t *testing.T, table string, cells ...string) []string {
	t.Helper()
	rows := e.b.Count(t, table+" tr[data-log-index]")
	var out []string
	for i := 1; i <= rows; i++ {
		row := fmt.Sprintf("%s tr[data-log-index]:nth-of-type(%d)", table, i)
		parts := e.b.Attrs(t, row+" a[data-address]", "data-address")
		for _, c := range cells {
			parts = append(parts, e.b.Text(t, row+" "+c))
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}
