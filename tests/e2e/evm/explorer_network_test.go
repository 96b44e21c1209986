package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	pathpkg "path"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestEVMExplorerHomeStatusSearch opens the explorer's home, status and
// search pages in Chromium on the shared EVM activity and compares what
// they show with the nodes' own answers: each EVM chain's latest block is
// the node's (eth_blockNumber once indexed), the latest transactions shown
// exist on the node (eth_getTransactionReceipt), the activity charts count
// the fixture's transactions, the status page's verdict is the node's
// health (/ext/health), and search finds an address, a transaction, a
// block by number and by hash, and a token by the name and symbol its
// contract returns (eth_call), with an ambiguous query listing every
// candidate.
func TestEVMExplorerHomeStatusSearch(t *testing.T) {
	fixtures := evmFixtures(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	root := env.Base(t) + "/explorer"
	b := harness.NewBrowser(t, env.URI(t))

	// Home: wait until each chain's head is indexed, then the page's
	// latest block is that head (or a later one the node made meanwhile).
	heads := map[string]uint64{}
	for _, f := range fixtures {
		head, err := f.ewoq.BlockNumber(ctx)
		require.NoError(t, err)
		waitEVMIndexed(t, ctx, f.chain.BlockchainID.String(), head)
		heads[f.chainID()] = head
	}
	require.EqualValues(t, http.StatusOK, b.Open(t, root+"/"))
	b.RequireClean(t)
	b.Screenshot(t, "home")
	for _, page := range []string{"/", "/?interval=day", "/status", "/search?q=T20"} {
		r := harness.Get(t, ctx, root+page)
		t.Logf("explorer page %s: %d, %d bytes", page, r.Status, len(r.Body))
	}
	for _, f := range fixtures {
		box := "#evm-" + f.chainID()
		shown := b.Attrs(t, box+" tr[data-block]", "data-block")
		require.NotEmpty(t, shown, "%s: latest blocks", f.name())
		latest, err := strconv.ParseUint(shown[0], 10, 64)
		require.NoError(t, err)
		now, err := f.ewoq.BlockNumber(ctx)
		require.NoError(t, err)
		require.GreaterOrEqual(t, latest, heads[f.chainID()], "%s: latest block shown vs eth_blockNumber", f.name())
		require.LessOrEqual(t, latest, now, "%s: latest block shown vs eth_blockNumber", f.name())

		txs := b.Attrs(t, box+" tr[data-tx]", "data-tx")
		require.NotEmpty(t, txs, "%s: latest transactions", f.name())
		for _, h := range txs {
			r, err := f.ewoq.Receipt(ctx, common.HexToHash(h))
			require.NoError(t, err)
			require.NotNil(t, r, "%s: transaction %s shown on the home page is not on the node", f.name(), h)
		}
		// The followers table: indexed at least the head waited for.
		row := fmt.Sprintf(`#chains tr[data-chain="%s"]`, followerName(f))
		indexed, err := strconv.ParseUint(b.Text(t, row+` [data-field="indexedHeight"]`), 10, 64)
		require.NoError(t, err, "%s: followers table row %s", f.name(), row)
		require.GreaterOrEqual(t, indexed, heads[f.chainID()])
	}

	// The home page's links lead to pages that are served: a latest block,
	// then every page of the nav.
	require.EqualValues(t, http.StatusOK, b.Open(t, root+"/"))
	require.EqualValues(t, http.StatusOK, b.Click(t, "#evm-"+fixtures[0].chainID()+" tr[data-block] a"), "the latest block's page")
	require.Contains(t, b.Location(t), "/evm/"+fixtures[0].chainID()+"/block/")
	b.RequireClean(t)
	require.EqualValues(t, http.StatusOK, b.Back(t))
	navs := b.Attrs(t, "header.top nav.main a", "href")
	require.Len(t, navs, 7, "home, P, X, C, validators, subnets, status")
	for i := range navs {
		// From a page no nav link points at, so every click navigates.
		require.EqualValues(t, http.StatusOK, b.Open(t, root+"/?interval=day"))
		require.EqualValues(t, http.StatusOK, b.Click(t, fmt.Sprintf("header.top nav.main a:nth-of-type(%d)", i+1)), "nav link %s", navs[i])
		b.RequireClean(t)
	}

	// The search box itself, once (the other searches open their URLs).
	require.EqualValues(t, http.StatusOK, b.Submit(t, "form.search input", fixtures[0].recipients[2].Hex()))
	require.Equal(t, root+"/evm/"+fixtures[0].chainID()+"/address/"+fixtures[0].recipients[2].Hex(), b.Location(t))
	b.RequireClean(t)

	// Charts: every chain's, per hour, count at least the fixture's
	// transactions over the last day (it made them minutes ago).
	for _, f := range fixtures {
		require.EqualValues(t, http.StatusOK, b.Open(t, root+"/?interval=hour&chart="+f.chainID()))
		b.RequireClean(t)
		require.Equal(t, 3, b.Count(t, "#activity svg.chart"), "%s: the three charts", f.name())
		var sum int64
		for _, v := range b.Attrs(t, `#activity svg.chart[data-metric="txCount"] rect`, "data-value") {
			n, err := strconv.ParseInt(v, 10, 64)
			require.NoError(t, err)
			sum += n
		}
		require.GreaterOrEqual(t, sum, int64(len(f.txs)), "%s: transactions charted over the last 24 hours", f.name())
	}
	require.EqualValues(t, http.StatusOK, b.Open(t, root+"/?interval=day"))
	b.RequireClean(t)
	require.Equal(t, "day", b.Attrs(t, "#activity", "data-interval")[0])

	// Phone width, then scripts off: the home page reads the same.
	restore := b.PhoneWidth(t)
	require.EqualValues(t, http.StatusOK, b.Open(t, root+"/"))
	require.True(t, b.FitsWidth(t), "the home page needs no sideways scrolling at phone width")
	b.RequireClean(t)
	restore()
	scriptsOn := b.ScriptsOff(t)
	require.EqualValues(t, http.StatusOK, b.Open(t, root+"/"))
	require.Equal(t, len(fixtures), b.Count(t, "section.latest[id^=evm-]"))
	require.Equal(t, 3, b.Count(t, "#activity svg.chart"))
	b.RequireClean(t)
	scriptsOn()

	// Status: the verdict is the node's health; every EVM follower shows.
	health := harness.Get(t, ctx, env.URI(t)+"/ext/health")
	var node struct {
		Healthy bool `json:"healthy"`
	}
	require.NoError(t, json.Unmarshal(health.Body, &node))
	require.EqualValues(t, http.StatusOK, b.Open(t, root+"/status"))
	b.RequireClean(t)
	b.Screenshot(t, "status")
	want := "error"
	if node.Healthy {
		want = "ok"
	}
	require.Equal(t, want, b.Attrs(t, "#data-health", "data-status")[0], "avadata's health vs the node's /ext/health")
	for _, f := range fixtures {
		require.Equal(t, 1, b.Count(t, fmt.Sprintf(`#follower-details tr[data-chain="%s"]`, followerName(f))))
	}

	// Search: one match leads to its page (an EVM, primary-network or staking page).
	lands := func(q, path string) {
		t.Helper()
		b.Open(t, root+"/search?q="+url.QueryEscape(q))
		require.Equal(t, root+path, b.Location(t), "search %q", q)
		// The page it lands on is served and names what it is about: in
		// its text, or in the title of a shortened hash or address.
		require.EqualValues(t, http.StatusOK, b.Status(), "the page search %q lands on", q)
		named := b.Text(t, "main") + " " + strings.Join(b.Attrs(t, "main [title]", "title"), " ")
		require.Contains(t, strings.ToLower(named), strings.ToLower(pathpkg.Base(path)), "the page search %q lands on", q)
		b.RequireClean(t)
	}
	for _, f := range fixtures {
		id := f.chainID()
		// A recipient the fixture made for this chain only.
		lands(f.recipients[1].Hex(), "/evm/"+id+"/address/"+f.recipients[1].Hex())
		tx := f.txs[0].hash
		lands(tx.Hex(), "/evm/"+id+"/tx/"+tx.Hex())
		var blk struct {
			Hash common.Hash `json:"hash"`
		}
		require.NoError(t, f.ewoq.RPC().CallContext(ctx, &blk, "eth_getBlockByNumber", hexutil.EncodeUint64(f.lastBlock), false))
		lands(blk.Hash.Hex(), "/evm/"+id+"/block/"+blk.Hash.Hex())

		// A token by the name its contract returns: unique to this chain.
		harness.WaitDescribed(t, ctx, env.Base(t)+"/v1/chains/"+id+"/addresses/"+f.erc20.Hex())
		out, err := f.ewoq.Call(ctx, f.erc20, f.art.erc20, "name")
		require.NoError(t, err)
		lands(out[0].(string), "/evm/"+id+"/token/"+f.erc20.Hex())
	}

	// Ambiguous: the symbol every chain's token has, ewoq (active on every
	// chain) and a block number every chain has: each lists its candidates.
	lists := func(q string, paths ...string) {
		t.Helper()
		require.EqualValues(t, http.StatusOK, b.Open(t, root+"/search?q="+url.QueryEscape(q)), "search %q", q)
		b.RequireClean(t)
		links := b.Attrs(t, "#candidates tr.candidate a", "href")
		for _, p := range paths {
			require.Contains(t, links, p, "search %q", q)
		}
	}
	symbol, err := fixtures[0].ewoq.Call(ctx, fixtures[0].erc20, fixtures[0].art.erc20, "symbol")
	require.NoError(t, err)
	var tokens, ewoqs, blocks []string
	lowest := fixtures[0].lastBlock
	for _, f := range fixtures {
		lowest = min(lowest, f.lastBlock)
	}
	base := rootPath(t, root)
	for _, f := range fixtures {
		sym, err := f.ewoq.Call(ctx, f.erc20, f.art.erc20, "symbol")
		require.NoError(t, err)
		require.Equal(t, symbol[0], sym[0], "the fixture's tokens share their symbol")
		tokens = append(tokens, base+"/evm/"+f.chainID()+"/token/"+f.erc20.Hex())
		ewoqs = append(ewoqs, base+"/evm/"+f.chainID()+"/address/"+f.ewoq.Address().Hex())
		blocks = append(blocks, base+"/evm/"+f.chainID()+"/block/"+fmt.Sprint(lowest))
	}
	lists(symbol[0].(string), tokens...)
	lists(fixtures[0].ewoq.Address().Hex(), ewoqs...)
	b.Screenshot(t, "search")
	lists(fmt.Sprint(lowest), blocks...)

	// Nothing, and nonsense.
	require.EqualValues(t, http.StatusNotFound, b.Open(t, root+"/search?q="+url.QueryEscape("no such token "+big.NewInt(time.Now().UnixNano()).String())))
	require.Contains(t, b.Text(t, ".error .message"), "nothing on this node matches")
	b.RequireClean(t)
	require.EqualValues(t, http.StatusBadRequest, b.Open(t, root+"/search?q="))
	b.RequireClean(t)
}

// followerName is the chain's name in /v1/status.
func followerName(f *evmFixture) string {
	if f.chain.Name == "C-Chain" {
		return "C"
	}
	return f.chain.Name
}

// rootPath is the path of the explorer's root URL: the links on its pages.
func rootPath(t *testing.T, root string) string {
	u, err := url.Parse(root)
	require.NoError(t, err)
	return u.Path
}
