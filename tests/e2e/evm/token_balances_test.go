package evm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// The token balance listings (listErc20Balances, listErc1155Balances,
// listCollectibleBalances) against balanceOf, ownerOf, tokenURI and
// eth_getBalance read from the node at the same heights. Each chain gets
// its own tokens and a fresh holder, moved in three bursts (three heights),
// among them a rebasing ERC-20 whose balances change without Transfer
// events and a spam lure.

// balanceActivity is what the balance test made on one chain.
type balanceActivity struct {
	*evmFixture
	holder    *evmtest.Client
	recipient common.Address
	rebasing  *contracts.Artifact
	// The tokens: a rebasing ERC-20, a plain one, a lure (spam by its
	// name), and an ERC-1155; the holder also gets an ERC-721 of the shared
	// fixture.
	reb, erc20, lure, multi common.Address
	nftID                   *big.Int
	// deployed is the height before any token reached the holder; heights
	// are the blocks of the three bursts.
	deployed uint64
	heights  [3]uint64
}

// multiIDs are the ERC-1155 ids the holder ever holds.
var multiIDs = []int64{1, 2, 3, 4}

func TestEVMTokenBalances(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		b := f.makeBalanceActivity(t, ctx)
		waitEVMIndexed(t, ctx, f.chain.BlockchainID.String(), b.heights[2])
		b.waitNames(t, ctx)

		// The rebasing token is one whose logs lie: what its Transfer
		// events sum to (1000 minted, 100 sent) is not its balance.
		logSum := harness.Ether(900)
		for _, h := range b.heights[1:] {
			require.NotEqual(t, logSum, b.balanceAt(t, ctx, b.reb, b.rebasing, h), "%s: the rebase changed the balance", f.name())
		}

		for _, h := range []uint64{0, b.deployed, b.heights[0], b.heights[1], b.heights[2]} {
			b.checkErc20At(t, ctx, &h)
			b.checkErc1155At(t, ctx, &h)
			b.checkNativeAt(t, ctx, h)
		}
		b.checkErc20At(t, ctx, nil) // the indexed height: no activity of these tokens after the last burst
		b.checkErc1155At(t, ctx, nil)
		b.checkListedContracts(t, ctx)
		b.checkCollectibles(t, ctx)
		b.checkBadInput(t, ctx)
	})
}

// makeBalanceActivity deploys the tokens and moves them in three bursts.
func (f *evmFixture) makeBalanceActivity(t *testing.T, ctx context.Context) *balanceActivity {
	t.Helper()
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	b := &balanceActivity{evmFixture: f, rebasing: contracts.TestRebasingERC20()}
	b.holder, err = evmtest.Dial(ctx, f.chain.RPCURL, key)
	require.NoError(t, err)
	t.Cleanup(b.holder.Close)
	rk, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	b.recipient = rk.EthAddress()
	me, holder := f.ewoq, b.holder.Address()

	var hashes []common.Hash
	deploy := func(art *contracts.Artifact, addr *common.Address, args ...any) {
		s, err := me.SendDeploy(ctx, art, args...)
		require.NoError(t, err, "deploying %s", art.Name)
		*addr = s.Contract
		hashes = append(hashes, s.Hash)
	}
	deploy(b.rebasing, &b.reb, f.tokenName("Rebasing"), "REB")
	deploy(f.art.erc20, &b.erc20, f.tokenName("Balance"), "BAL")
	deploy(f.art.erc20, &b.lure, "Visit claim-bonus.com", "CLAIM")
	deploy(f.art.erc1155, &b.multi, "https://avadata.invalid/balances/{id}.json")
	h, err := me.SendValue(ctx, holder, harness.Ether(1))
	require.NoError(t, err)
	b.deployed = b.burst(t, ctx, "deploy", append(hashes, h)...)

	send := func(c *evmtest.Client, to common.Address, art *contracts.Artifact, method string, args ...any) common.Hash {
		h, err := c.SendTransact(ctx, to, art, method, nil, args...)
		require.NoError(t, err, "%s: %s.%s", f.name(), art.Name, method)
		return h
	}
	ids := func(ids ...int64) []*big.Int {
		out := make([]*big.Int, len(ids))
		for i, id := range ids {
			out[i] = big.NewInt(id)
		}
		return out
	}
	mintNFT := send(me, f.erc721, f.art.erc721, "mint", holder)
	b.heights[0] = b.burst(t, ctx, "mints",
		[]common.Hash{
			send(me, b.reb, b.rebasing, "mint", holder, harness.Ether(1000)),
			send(me, b.erc20, f.art.erc20, "mint", holder, harness.Ether(50)),
			send(me, b.lure, f.art.erc20, "mint", holder, harness.Ether(1)),
			send(me, b.multi, f.art.erc1155, "mint", holder, big.NewInt(1), big.NewInt(10)),
			send(me, b.multi, f.art.erc1155, "mintBatch", holder, ids(2, 3), ids(5, 7)),
			mintNFT,
		}...)
	r, err := me.WaitReceipt(ctx, mintNFT)
	require.NoError(t, err)
	ev, err := f.art.erc721.ParseEvent("Transfer", r.LogsFrom(f.erc721)[0].Topics, r.LogsFrom(f.erc721)[0].Data)
	require.NoError(t, err)
	b.nftID = ev["tokenId"].(*big.Int)

	b.heights[1] = b.burst(t, ctx, "rebase and sends",
		send(me, b.reb, b.rebasing, "rebase", big.NewInt(15e17)),
		send(b.holder, b.erc20, f.art.erc20, "transfer", b.recipient, harness.Ether(20)),
		send(b.holder, b.reb, b.rebasing, "transfer", b.recipient, harness.Ether(100)),
		send(b.holder, b.multi, f.art.erc1155, "safeTransferFrom", holder, b.recipient, big.NewInt(3), big.NewInt(7), []byte{}),
	)
	b.heights[2] = b.burst(t, ctx, "second rebase",
		send(me, b.reb, b.rebasing, "rebase", big.NewInt(5e17)),
		send(me, b.multi, f.art.erc1155, "mint", holder, big.NewInt(4), big.NewInt(3)),
		send(b.holder, b.erc20, f.art.erc20, "transfer", b.recipient, harness.Ether(30)),
	)
	t.Logf("%s: balances at blocks %d (deployed), %v", f.name(), b.deployed, b.heights)
	return b
}

// burst waits for the receipts of hashes, all successful, and returns the
// highest block among them.
func (b *balanceActivity) burst(t *testing.T, ctx context.Context, name string, hashes ...common.Hash) uint64 {
	t.Helper()
	rs, err := b.ewoq.WaitReceipts(ctx, hashes...)
	require.NoError(t, err, "%s: %s", b.name(), name)
	var last uint64
	for i, r := range rs {
		require.Equal(t, uint64(1), r.Status, "%s: %s: tx %d (%s) failed", b.name(), name, i, hashes[i])
		last = max(last, r.BlockNumber)
	}
	return last
}

// waitNames waits until avadata has read the ERC-20s' names (the spam rule
// judges a token by its name once it is read).
func (b *balanceActivity) waitNames(t *testing.T, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, metadataWait)
	defer cancel()
	for _, addr := range []common.Address{b.reb, b.erc20, b.lure} {
		for {
			r := harness.GetWithRetryAfter(t, ctx, b.evmURL("/addresses/"+addr.Hex(), nil))
			var c struct {
				Name *string `json:"name"`
			}
			if r.Status == http.StatusOK {
				r.Decode(t, &c)
				if c.Name != nil {
					break
				}
			}
			select {
			case <-ctx.Done():
				t.Fatalf("%s: the name of %s was never read: %d %s", b.name(), addr, r.Status, r.Body)
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

// callAt runs a one-result view method with eth_call at height h.
func (b *balanceActivity) callAt(t *testing.T, ctx context.Context, to common.Address, art *contracts.Artifact, method string, h uint64, args ...any) any {
	t.Helper()
	data, err := art.Pack(method, args...)
	require.NoError(t, err)
	var out hexutil.Bytes
	call := map[string]any{"to": to, "data": hexutil.Bytes(data)}
	require.NoError(t, b.ewoq.RPC().CallContext(ctx, &out, "eth_call", call, hexutil.Uint64(h)), "%s: eth_call %s.%s at %d", b.name(), art.Name, method, h)
	if len(out) == 0 {
		return new(big.Int) // no code at that height yet: no balance
	}
	vals, err := art.Unpack(method, out)
	require.NoError(t, err)
	require.Len(t, vals, 1)
	return vals[0]
}

func (b *balanceActivity) balanceAt(t *testing.T, ctx context.Context, token common.Address, art *contracts.Artifact, h uint64) *big.Int {
	t.Helper()
	return b.callAt(t, ctx, token, art, "balanceOf", h, b.holder.Address()).(*big.Int)
}

// nativeAt is eth_getBalance of the holder at height h.
func (b *balanceActivity) nativeAt(t *testing.T, ctx context.Context, h uint64) *big.Int {
	t.Helper()
	var bal hexutil.Big
	require.NoError(t, b.ewoq.RPC().CallContext(ctx, &bal, "eth_getBalance", b.holder.Address(), hexutil.Uint64(h)))
	return bal.ToInt()
}

// balanceEntry is an Erc20TokenBalance or Erc1155TokenBalance (and the
// ERC-721 members of a collectible).
type balanceEntry struct {
	Address         string          `json:"address"`
	Name            *string         `json:"name"`
	Symbol          *string         `json:"symbol"`
	Decimals        *int            `json:"decimals"`
	ErcType         string          `json:"ercType"`
	TokenID         *string         `json:"tokenId"`
	TokenURI        *string         `json:"tokenUri"`
	Metadata        json.RawMessage `json:"metadata"`
	OwnerAddress    *string         `json:"ownerAddress"`
	ChainID         string          `json:"chainId"`
	Balance         *string         `json:"balance"`
	TokenReputation *string         `json:"tokenReputation"`
}

// balancesPage is one page of a balance listing.
type balancesPage struct {
	NativeTokenBalance *struct {
		ChainID string `json:"chainId"`
		Balance string `json:"balance"`
	} `json:"nativeTokenBalance"`
	Erc20      []balanceEntry `json:"erc20TokenBalances"`
	Erc1155    []balanceEntry `json:"erc1155TokenBalances"`
	Collection []balanceEntry `json:"collectibleBalances"`
	Next       string         `json:"nextPageToken"`
}

func (p balancesPage) items() []balanceEntry {
	return slices.Concat(p.Erc20, p.Erc1155, p.Collection)
}

// listBalances pages a balance listing to its end: no nulls but the
// required, nullable tokenReputation, full pages but the last, no token
// repeated. It returns the items and the first page.
func (b *balanceActivity) listBalances(t *testing.T, ctx context.Context, u string, pageSize int) ([]balanceEntry, balancesPage) {
	t.Helper()
	u = harness.WithQuery(u, "pageSize", fmt.Sprint(pageSize))
	var all []balanceEntry
	var first balancesPage
	seen := map[string]bool{}
	for n, next := 0, ""; ; n++ {
		require.Less(t, n, 100, "GET %s: paging does not end", u)
		pageURL := u
		if next != "" {
			pageURL = harness.WithQuery(u, "pageToken", next)
		}
		r := harness.GetWithRetryAfter(t, ctx, pageURL)
		require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", pageURL, r.Body)
		require.Contains(t, r.Header.Get("Content-Type"), "application/json")
		harness.RequireNoNulls(t, bytes.ReplaceAll(r.Body, []byte(`"tokenReputation":null`), []byte(`"tokenReputation":"-"`)), pageURL)
		var page balancesPage
		require.NoError(t, json.Unmarshal(r.Body, &page), "GET %s: %s", pageURL, r.Body)
		if n == 0 {
			first = page
		}
		items := page.items()
		require.LessOrEqual(t, len(items), pageSize, "GET %s", pageURL)
		all = append(all, items...)
		if page.Next == "" {
			return all, first
		}
		require.Len(t, items, pageSize, "GET %s: a page before the last must be full", pageURL)
		require.False(t, seen[page.Next], "GET %s: page token repeated", pageURL)
		seen[page.Next], next = true, page.Next
	}
}

// atQuery is the blockNumber query of height h (nil: none).
func atQuery(h *uint64) url.Values {
	if h == nil {
		return url.Values{}
	}
	return url.Values{"blockNumber": {fmt.Sprint(*h)}}
}

// truthHeight is the height whose state a listing at h shows.
func (b *balanceActivity) truthHeight(h *uint64) uint64 {
	if h == nil {
		return b.heights[2]
	}
	return *h
}

type wantBalance struct {
	token   common.Address
	id      *big.Int
	balance *big.Int
}

// requireBalances compares listed balances with what the node says.
func (b *balanceActivity) requireBalances(t *testing.T, want []wantBalance, got []balanceEntry, ercType, what string) {
	t.Helper()
	require.Len(t, got, len(want), "%s: %s", what, harness.MustJSON(got))
	for i, w := range want {
		g := got[i]
		requireAddress(t, w.token, g.Address, what+" address")
		require.Equal(t, ercType, g.ErcType, what)
		require.Equal(t, b.chainID(), g.ChainID, what)
		if ercType != "ERC-721" {
			require.NotNil(t, g.Balance, what)
			harness.RequireDecimal(t, w.balance, *g.Balance, fmt.Sprintf("%s: balance of %s", what, w.token))
		}
		if w.id != nil {
			require.NotNil(t, g.TokenID, what)
			harness.RequireDecimal(t, w.id, *g.TokenID, what+" tokenId")
			require.NotNil(t, g.TokenURI, what+" tokenUri is required")
			require.NotEmpty(t, g.Metadata, what+" metadata is required")
		}
	}
}

func sortWant(want []wantBalance) {
	slices.SortFunc(want, func(a, b wantBalance) int {
		if c := bytes.Compare(a.token[:], b.token[:]); c != 0 {
			return c
		}
		if a.id == nil || b.id == nil {
			return 0
		}
		return a.id.Cmp(b.id)
	})
}

// checkErc20At lists the holder's ERC-20 balances at h (nil: the indexed
// height) with and without the spam filter, in pages of one and of 500,
// and compares them and the native balance with the node at that height.
// checkNativeAt compares getNativeBalance at block h with eth_getBalance
// at h.
func (b *balanceActivity) checkNativeAt(t *testing.T, ctx context.Context, h uint64) {
	t.Helper()
	var body struct {
		NativeTokenBalance dataapi.NativeBalance `json:"nativeTokenBalance"`
	}
	harness.GetOK(t, ctx, b.evmURL("/addresses/"+b.holder.Address().Hex()+"/balances:getNative",
		url.Values{"blockNumber": {fmt.Sprint(h)}}), &body)
	harness.RequireDecimal(t, b.nativeAt(t, ctx, h), body.NativeTokenBalance.Balance,
		fmt.Sprintf("%s: getNativeBalance of the holder at block %d", b.name(), h))
}

func (b *balanceActivity) checkErc20At(t *testing.T, ctx context.Context, h *uint64) {
	t.Helper()
	at := b.truthHeight(h)
	tokens := map[common.Address]*contracts.Artifact{b.reb: b.rebasing, b.erc20: b.art.erc20, b.lure: b.art.erc20}
	names := map[common.Address]string{b.reb: b.tokenName("Rebasing"), b.erc20: b.tokenName("Balance"), b.lure: "Visit claim-bonus.com"}
	for _, filterSpam := range []bool{true, false} {
		var want []wantBalance
		for token, art := range tokens {
			if filterSpam && token == b.lure {
				continue
			}
			if bal := b.balanceAt(t, ctx, token, art, at); bal.Sign() > 0 {
				want = append(want, wantBalance{token: token, balance: bal})
			}
		}
		sortWant(want)
		q := atQuery(h)
		q.Set("filterSpamTokens", fmt.Sprint(filterSpam))
		u := b.evmURL("/addresses/"+b.holder.Address().Hex()+"/balances:listErc20", q)
		for _, size := range []int{1, 500} {
			what := fmt.Sprintf("%s: ERC-20 balances at %d (%s, pageSize %d)", b.name(), at, q.Encode(), size)
			got, first := b.listBalances(t, ctx, u, size)
			b.requireBalances(t, want, got, "ERC-20", what)
			for i, g := range got {
				require.Nil(t, g.TokenReputation, what)
				require.NotNil(t, g.Name, what)
				require.Equal(t, names[want[i].token], *g.Name, what+" name")
				require.NotNil(t, g.Decimals, what)
				require.Equal(t, 18, *g.Decimals, what+" decimals")
			}
			require.NotNil(t, first.NativeTokenBalance, what)
			harness.RequireDecimal(t, b.nativeAt(t, ctx, at), first.NativeTokenBalance.Balance, what+": native balance at the same block")
		}
	}
}

// checkErc1155At lists the holder's ERC-1155 balances at h and compares
// them with balanceOf(holder, id) of every id at that height.
func (b *balanceActivity) checkErc1155At(t *testing.T, ctx context.Context, h *uint64) {
	t.Helper()
	at := b.truthHeight(h)
	var want []wantBalance
	for _, id := range multiIDs {
		bal := b.callAt(t, ctx, b.multi, b.art.erc1155, "balanceOf", at, b.holder.Address(), big.NewInt(id)).(*big.Int)
		if bal.Sign() > 0 {
			want = append(want, wantBalance{token: b.multi, id: big.NewInt(id), balance: bal})
		}
	}
	for _, q := range []url.Values{atQuery(h), withParam(atQuery(h), "contractAddress", b.multi.Hex())} {
		u := b.evmURL("/addresses/"+b.holder.Address().Hex()+"/balances:listErc1155", q)
		for _, size := range []int{1, 500} {
			what := fmt.Sprintf("%s: ERC-1155 balances at %d (%s, pageSize %d)", b.name(), at, q.Encode(), size)
			got, first := b.listBalances(t, ctx, u, size)
			b.requireBalances(t, want, got, "ERC-1155", what)
			require.NotNil(t, first.NativeTokenBalance, what)
			harness.RequireDecimal(t, b.nativeAt(t, ctx, at), first.NativeTokenBalance.Balance, what+": native balance")
		}
	}
}

func withParam(q url.Values, key, value string) url.Values {
	q.Set(key, value)
	return q
}

// checkListedContracts asks for the rebasing token and the ERC-1155
// contract (no ERC-20) by contractAddresses.
func (b *balanceActivity) checkListedContracts(t *testing.T, ctx context.Context) {
	t.Helper()
	for _, h := range b.heights {
		q := url.Values{"blockNumber": {fmt.Sprint(h)}, "contractAddresses": {b.reb.Hex() + "," + strings.ToLower(b.multi.Hex())}}
		got, _ := b.listBalances(t, ctx, b.evmURL("/addresses/"+b.holder.Address().Hex()+"/balances:listErc20", q), 10)
		want := []wantBalance{{token: b.reb, balance: b.balanceAt(t, ctx, b.reb, b.rebasing, h)}}
		b.requireBalances(t, want, got, "ERC-20", fmt.Sprintf("%s: ERC-20 balances of the listed contracts at %d", b.name(), h))
	}
}

// checkCollectibles lists the holder's collectibles (ERC-721 by ownerOf,
// tokenURI; ERC-1155 by balanceOf) at the indexed height.
func (b *balanceActivity) checkCollectibles(t *testing.T, ctx context.Context) {
	t.Helper()
	at := b.heights[2]
	owner := b.callAt(t, ctx, b.erc721, b.art.erc721, "ownerOf", at, b.nftID).(common.Address)
	require.Equal(t, b.holder.Address(), owner)
	want := []wantBalance{{token: b.erc721, id: b.nftID}}
	for _, id := range multiIDs {
		bal := b.callAt(t, ctx, b.multi, b.art.erc1155, "balanceOf", at, b.holder.Address(), big.NewInt(id)).(*big.Int)
		if bal.Sign() > 0 {
			want = append(want, wantBalance{token: b.multi, id: big.NewInt(id), balance: bal})
		}
	}
	sortWant(want)
	u := b.evmURL("/addresses/"+b.holder.Address().Hex()+"/balances:listCollectibles", nil)
	tokenURI := b.callAt(t, ctx, b.erc721, b.art.erc721, "tokenURI", at, b.nftID).(string)
	for _, size := range []int{1, 500} {
		what := fmt.Sprintf("%s: collectibles (pageSize %d)", b.name(), size)
		got, first := b.listBalances(t, ctx, u, size)
		require.Nil(t, first.NativeTokenBalance, what)
		require.Len(t, got, len(want), "%s: %s", what, harness.MustJSON(got))
		for i, w := range want {
			kind := "ERC-1155"
			if w.token == b.erc721 {
				kind = "ERC-721"
			}
			b.requireBalances(t, want[i:i+1], got[i:i+1], kind, what)
			if kind == "ERC-721" {
				g := got[i]
				require.NotNil(t, g.OwnerAddress, what)
				requireAddress(t, b.holder.Address(), *g.OwnerAddress, what+" ownerAddress")
				require.NotNil(t, g.Name, what)
				if *g.TokenURI != "" {
					require.Equal(t, tokenURI, *g.TokenURI, what+" tokenUri")
				}
			}
		}
		one, _ := b.listBalances(t, ctx, harness.WithQuery(u, "contractAddress", b.erc721.Hex()), size)
		require.Len(t, one, 1, what+" of the ERC-721 contract")
	}
}
