//go:build e2e

package evm

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// checkERC20Token compares the fixture ERC-20's token page with eth_call
// and the Transfer logs of the receipts.
func (e *explorerCheck) checkERC20Token(t *testing.T) {
	t.Helper()
	f, b := e.f, e.b
	tok := f.tokens(t, e.ctx)
	require.Equal(t, tok.erc20Name, b.Text(t, "#token-name"))
	require.Equal(t, tok.erc20Symbol, b.Text(t, "#token-symbol"))
	require.Equal(t, "ERC-20", b.Text(t, "[data-field=ercType]"))
	require.Equal(t, fmt.Sprint(tok.erc20Decimals), b.Text(t, "[data-field=decimals]"))
	var want []string
	for _, tr := range f.truth.TokenTransfers(f.erc20) {
		want = append(want, tr.Tx.Hash.Hex()+" "+tr.From.Hex()+" "+tr.To.Hex()+" "+harness.DecimalUnits(tr.Value, tok.erc20Decimals))
	}
	var got []string
	rows := b.Count(t, ".erc20-transfers tr[data-log-index]")
	for i := 1; i <= rows; i++ {
		row := fmt.Sprintf(".erc20-transfers tr[data-log-index]:nth-of-type(%d)", i)
		parts := b.Attrs(t, row+" a[data-tx]", "data-tx")
		parts = append(parts, b.Attrs(t, row+" a[data-address]", "data-address")...)
		got = append(got, strings.Join(append(parts, b.Text(t, row+" [data-field=amount]")), " "))
	}
	require.Equal(t, want, got, "%s: the ERC-20's transfers, newest first", f.name())
}

// transfersAndInternals opens the txs that moved ERC-721 and ERC-1155
// tokens (a batch) and one with internal value transfers.
func (e *explorerCheck) transfersAndInternals(t *testing.T) {
	for _, label := range []string{"ERC-721 transferFrom", "ERC-1155 safeBatchTransferFrom", "Forwarder.split",
		"Forwarder.forward to Reverter (status 0)", "deploy TestERC20"} {
		x := e.f.truthTx(t, label)
		e.open(t, "/tx/"+x.Hash.Hex())
		e.checkTx(t, x)
	}
}

// nftCollection opens the ERC-721's holders, its tokens, and one token's
// page, against ownerOf and tokenURI.
func (e *explorerCheck) nftCollection(t *testing.T) {
	f, b := e.f, e.b
	owners := map[string]int{}
	for _, id := range f.erc721IDs {
		owner := f.callOne(t, e.ctx, f.erc721, f.art.erc721, "ownerOf", id).(common.Address)
		owners[owner.Hex()]++
	}
	e.open(t, "/token/"+f.erc721.Hex()+"?tab=holders")
	got := map[string]int{}
	for _, h := range b.Attrs(t, "#holders tr[data-holder]", "data-holder") {
		n := b.Text(t, fmt.Sprintf(`#holders tr[data-holder="%s"] [data-field=held]`, h))
		held, err := strconv.Atoi(n)
		require.NoError(t, err, "tokens held by %s", h)
		got[common.HexToAddress(h).Hex()] = held
	}
	require.Equal(t, owners, got, "%s: the ERC-721's holders against ownerOf", f.name())

	require.EqualValues(t, http.StatusOK, b.Click(t, `nav.tabs a[href$="tab=tokens"]`))
	b.RequireClean(t)
	require.Equal(t, len(f.erc721IDs), b.Count(t, "#tokens tr[data-token-id]"))
	id := f.erc721IDs[0]
	require.EqualValues(t, http.StatusOK, b.Click(t, fmt.Sprintf(`#tokens a[data-token-id="%s"]`, id)))
	b.RequireClean(t)
	require.Equal(t, id.String(), b.Text(t, "[data-field=tokenId]"))
	owner := f.callOne(t, e.ctx, f.erc721, f.art.erc721, "ownerOf", id).(common.Address)
	require.Equal(t, []string{owner.Hex()}, b.Attrs(t, "[data-field=owner] a", "data-address"))
	uri := f.callOne(t, e.ctx, f.erc721, f.art.erc721, "tokenURI", id).(string)
	require.Equal(t, uri, b.Text(t, "[data-field=tokenUri]"))
	require.Zero(t, b.Count(t, "img"), "no image from another origin: the network fetches no NFT metadata")
	b.Screenshot(t, "evm-nft")
}

// paging pages through EWOQ's transactions (more than a page of them) with
// Next, and back.
func (e *explorerCheck) paging(t *testing.T) {
	f, b := e.f, e.b
	e.open(t, "/address/"+f.ewoq.Address().Hex())
	first := b.Attrs(t, "#all-txs tr[data-tx-row]", "data-tx-row")
	require.Len(t, first, 25, "%s: a full first page of EWOQ's transactions", f.name())
	t.Logf("%s: EWOQ's address page (25 transactions) is %d bytes", f.name(), len(b.HTML(t)))
	b.Screenshot(t, "evm-address-history-"+f.chainID())
	firstURL := b.Location(t)
	require.EqualValues(t, http.StatusOK, b.Click(t, `a[rel=next]`))
	b.RequireClean(t)
	second := b.Attrs(t, "#all-txs tr[data-tx-row]", "data-tx-row")
	require.NotEmpty(t, second)
	for _, h := range second {
		require.NotContains(t, first, h, "a tx on both pages")
	}
	last, _ := f.truth.Tx(common.HexToHash(first[len(first)-1]))
	next, _ := f.truth.Tx(common.HexToHash(second[0]))
	require.NotNil(t, last)
	require.NotNil(t, next)
	require.True(t, next.Block.Number < last.Block.Number || (next.Block.Number == last.Block.Number && next.Index < last.Index),
		"%s: page 2 starts after page 1 ends", f.name())
	require.EqualValues(t, http.StatusOK, b.Back(t))
	require.Equal(t, firstURL, b.Location(t))
}

// hostileToken deploys an ERC-20 named and symbolled with markup, mints
// some to a fresh address, and checks that its pages show them as text.
func (e *explorerCheck) hostileToken(t *testing.T) {
	f, b := e.f, e.b
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	holder := key.EthAddress()
	sent, err := f.ewoq.SendDeploy(e.ctx, f.art.erc20, hostileTokenName, hostileTokenSymbol)
	require.NoError(t, err)
	// The mint goes in the same burst, so with a gas limit of its own: an
	// estimate would run against a contract not deployed yet.
	mint, err := f.ewoq.SendWithGas(e.ctx, sent.Contract, 200_000, f.art.erc20, "mint", nil, holder, harness.Ether(7))
	require.NoError(t, err)
	rs, err := f.ewoq.WaitReceipts(e.ctx, sent.Hash, mint)
	require.NoError(t, err)
	require.Equal(t, []uint64{1, 1}, []uint64{rs[0].Status, rs[1].Status}, "%s: deploying and minting the hostile token", f.name())
	waitEVMIndexed(t, e.ctx, f.chain.BlockchainID.String(), rs[1].BlockNumber)
	f.waitTokenMetadata(t, e.ctx, sent.Contract, "ERC-20")

	// Once the contract's record has its metadata, a transfer listing read
	// at once has been seen still naming the token by its address: the
	// page is read again until the transfers name it, within a bound, and
	// the wait is logged.
	described := time.Now()
	for {
		e.open(t, "/token/"+sent.Contract.Hex())
		if b.Text(t, ".erc20-transfers a.token") == hostileTokenSymbol || time.Since(described) > 15*time.Second {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("%s: the hostile token's transfers named it %s after its metadata", f.name(), time.Since(described).Round(time.Millisecond))
	require.Equal(t, hostileTokenName, b.Text(t, "#token-name"))
	require.Equal(t, hostileTokenSymbol, b.Text(t, "#token-symbol"))
	require.Equal(t, hostileTokenSymbol, b.Text(t, ".erc20-transfers a.token"))
	require.Zero(t, b.Count(t, "main script, main img"), "markup in a token's name is text")
	require.EqualValues(t, http.StatusOK, b.Open(t, e.root+"/address/"+holder.Hex()+"?tab=tokens"))
	b.RequireClean(t)
	require.Equal(t, hostileTokenSymbol, b.Text(t, fmt.Sprintf(`#erc20-balances tr[data-token="%s"] a.token`, sent.Contract.Hex())))
	require.Equal(t, "7", b.Text(t, fmt.Sprintf(`#erc20-balances tr[data-token="%s"] [data-field=balance]`, sent.Contract.Hex())))
}
