package explorer

import (
	"context"
	"errors"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// fakeHolders answers TokenHolders from a sorted list of parties and
// their balances, recording the height balances were read at.
type fakeHolders struct {
	parties  []common.Address
	balances map[common.Address]*big.Int
	height   uint64
	err      error
}

func (f *fakeHolders) TokenParties(_ context.Context, _ netinfo.Chain, _ common.Address, kind evmdata.ErcType,
	after *common.Address, limit int,
) ([]common.Address, error) {
	if kind != evmdata.Erc20 {
		return nil, errors.New("not an ERC-20 listing")
	}
	var out []common.Address
	for _, p := range f.parties {
		if after != nil && p.Cmp(*after) <= 0 {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, p)
	}
	return out, nil
}

func (f *fakeHolders) TokenBalancesAt(_ context.Context, _ netinfo.Chain, height uint64, calls []evmdata.BalanceCall) ([]*big.Int, error) {
	f.height = height
	if f.err != nil {
		return nil, f.err
	}
	out := make([]*big.Int, len(calls))
	for i, c := range calls {
		out[i] = f.balances[c.Owner]
	}
	return out, nil
}

func holdersPage(t *testing.T, holders TokenHolders, query string, status int) string {
	t.Helper()
	replies := evmAPI(t, fakeAPI{testChain + "/addresses/" + testToken: jsonOf(t, `{"address":"`+testToken+`","ercType":"ERC-20",
		"name":`+strconv.Quote(hostileName)+`,"symbol":`+strconv.Quote(hostileSym)+`,"decimals":6}`)})
	node := handlertest.NewFakes()
	node.SetIndexedHeight(netinfo.C, 42)
	rec := getPage(t, newTestExplorerOn(t, node, Config{}, replies, Readers{Holders: holders}),
		"/evm/43112/token/"+testToken+"?tab=holders"+query)
	require.Equal(t, status, rec.Code, rec.Body.String())
	return rec.Body.String()
}

func TestEVMTokenPageListsERC20Holders(t *testing.T) {
	var parties []common.Address
	balances := map[common.Address]*big.Int{}
	for i := range 30 {
		a := common.BigToAddress(big.NewInt(int64(0x1000 + i)))
		parties = append(parties, a)
		balances[a] = big.NewInt(int64(i) * 1_250_000) // 1.25 tokens per step at 6 decimals
	}
	balances[parties[3]] = nil // a contract that gives no answer
	holders := &fakeHolders{parties: parties, balances: balances}

	body := holdersPage(t, holders, "", http.StatusOK)
	require.Equal(t, uint64(42), holders.height, "balances at the indexed height")
	require.Contains(t, body, `<span data-field="height">42</span>`)
	require.Contains(t, body, `by address (not by balance)`)
	require.Contains(t, body, `<tr data-holder="`+parties[0].Hex()+`">`)
	require.Contains(t, body, `href="/ext/bc/data/explorer/evm/43112/address/`+parties[2].Hex()+`"`)
	require.Contains(t, body, `data-field="balance">2.5</td>`)
	require.Contains(t, body, `data-field="balance">0 <span class="muted">held before</span></td>`, "a zero balance is listed")
	require.Contains(t, body, `data-field="balance"><span class="muted">no answer</span></td>`)
	require.NotContains(t, body, parties[25].Hex(), "25 a page")
	require.Contains(t, body, `<a rel="next" href="/ext/bc/data/explorer/evm/43112/token/`+testToken+`?page=`+parties[24].Hex()+`&amp;tab=holders">`)
	requireEscaped(t, body)

	body = holdersPage(t, holders, "&page="+parties[24].Hex(), http.StatusOK)
	require.Contains(t, body, `<tr data-holder="`+parties[25].Hex()+`">`)
	require.Contains(t, body, `data-field="balance">36.25</td>`)
	require.NotContains(t, body, `<tr data-holder="`+parties[24].Hex()+`">`)
	require.NotContains(t, body, `rel="next"`, "the last page")

	for _, bad := range []string{"nope", "0x12", parties[0].Hex()[2:], "0x" + strings.Repeat("g", 40)} {
		body = holdersPage(t, holders, "&page="+bad, http.StatusBadRequest)
		require.Contains(t, body, "invalid page")
	}
}

func TestEVMTokenPageHoldersNotes(t *testing.T) {
	body := holdersPage(t, nil, "", http.StatusOK)
	require.Contains(t, body, `<p class="muted" id="no-holders">Token holders are not available on this node.</p>`)
	body = holdersPage(t, &fakeHolders{parties: []common.Address{{1}}, err: evmdata.ErrStateUnavailable}, "", http.StatusOK)
	require.Contains(t, body, `The node no longer has the state of block 42`)
	body = holdersPage(t, &fakeHolders{}, "", http.StatusOK)
	require.Contains(t, body, `No holders.`)
}
