package evm

import (
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

var (
	rebasing = common.HexToAddress("0x1000000000000000000000000000000000000001")
	lure     = common.HexToAddress("0x2000000000000000000000000000000000000002")
	emptied  = common.HexToAddress("0x3000000000000000000000000000000000000003")
	unmoved  = common.HexToAddress("0x4000000000000000000000000000000000000004")
)

// getBalances fetches a balances page: a 200 without nulls but the
// required, nullable tokenReputation (the SDK wants the key).
func getBalances(t *testing.T, srv *handlertest.API, path string) map[string]any {
	t.Helper()
	var body map[string]any
	handlertest.RequireJSON(t, srv.Get(t, path), http.StatusOK, &body)
	items, _ := body["erc20TokenBalances"].([]any)
	for _, item := range items {
		m := item.(map[string]any)
		require.Contains(t, m, "tokenReputation")
		require.Nil(t, m["tokenReputation"], "avadata makes no security analysis")
		delete(m, "tokenReputation")
	}
	handlertest.RequireNoNulls(t, body)
	for _, item := range items {
		item.(map[string]any)["tokenReputation"] = nil
	}
	return body
}

func erc20Path(owner common.Address) string {
	return "/v1/chains/43112/addresses/" + owner.Hex() + "/balances:listErc20"
}

// tokenBalances lists "symbol=balance" of a balances page.
func tokenBalances(t *testing.T, body map[string]any, list string) []string {
	t.Helper()
	var out []string
	for _, item := range body[list].([]any) {
		m := item.(map[string]any)
		name, _ := m["symbol"].(string)
		if id, ok := m["tokenId"].(string); ok {
			name = m["ercType"].(string) + ":" + id
		}
		balance, _ := m["balance"].(string)
		out = append(out, name+"="+balance)
	}
	return out
}

// withTokenState gives Alice the ERC-20 tokens of the fixtures (WAVAX) and
// three more: a rebasing one whose balanceOf is not its logs', a spam lure
// and one she emptied. Balances at height h: WAVAX h, rebasing 3*h, lure
// 5, emptied 0, unmoved (never moved by Alice) 9.
func withTokenState(t *testing.T) *handlertest.Fakes {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	for _, c := range []evmdata.Contract{
		{Address: rebasing, Kind: evmdata.Erc20, Name: "Rebasing", Symbol: "REB", Decimals: 9, HasDecimal: true, MetadataRead: true},
		{Address: lure, Kind: evmdata.Erc20, Name: "Visit usdc-gift.com", Symbol: "GIFT", Decimals: 18, HasDecimal: true, MetadataRead: true},
		{Address: emptied, Kind: evmdata.Erc20, Name: "Emptied", Symbol: "EMP", MetadataRead: true},
		{Address: unmoved, Kind: evmdata.Erc20, Name: "Unmoved", Symbol: "UNM", MetadataRead: true},
	} {
		backend.EVM.AddContract(netinfo.C, c)
	}
	backend.EVM.TokenState = handlertest.TokenState{
		Moved: map[common.Address]map[common.Address]evmdata.ErcType{handlertest.Alice: {
			handlertest.Wavax: evmdata.Erc20, rebasing: evmdata.Erc20, lure: evmdata.Erc20, emptied: evmdata.Erc20,
			handlertest.Kitties: evmdata.Erc721,
		}},
		BalanceAt: func(h uint64, c evmdata.BalanceCall) *big.Int {
			if c.Owner != handlertest.Alice || c.TokenID != nil {
				return nil
			}
			switch c.Token {
			case handlertest.Wavax:
				return new(big.Int).SetUint64(h)
			case rebasing:
				return new(big.Int).SetUint64(3 * h)
			case lure:
				return big.NewInt(5)
			case emptied:
				return new(big.Int)
			case unmoved:
				return big.NewInt(9)
			}
			return nil
		},
		NativeAt: func(h uint64, _ common.Address) *big.Int { return new(big.Int).SetUint64(100 + h) },
	}
	return backend
}

func TestListErc20Balances(t *testing.T) {
	backend := withTokenState(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	body := getBalances(t, srv, erc20Path(handlertest.Alice))
	require.Equal(t, []string{"REB=45", "WAVAX=15"}, tokenBalances(t, body, "erc20TokenBalances"),
		"by token address, balanceOf at the indexed height 15; the lure and the emptied token left out")
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{
		"address": "{wavax}", "name": "Wrapped AVAX", "symbol": "WAVAX", "decimals": 18, "ercType": "ERC-20",
		"chainId": "43112", "balance": "15", "tokenReputation": null
	}`)), body["erc20TokenBalances"].([]any)[1])
	require.Equal(t, "115", body["nativeTokenBalance"].(map[string]any)["balance"], "the native balance at the same block")
	require.NotContains(t, body, "nextPageToken")
	require.Equal(t, []uint64{15, 15}, backend.EVM.TokenState.Heights)

	all := getBalances(t, srv, erc20Path(handlertest.Alice)+"?filterSpamTokens=false")
	require.Equal(t, []string{"REB=45", "GIFT=5", "WAVAX=15"}, tokenBalances(t, all, "erc20TokenBalances"))
	require.Empty(t, tokenBalances(t, getBalances(t, srv, erc20Path(handlertest.Carol)), "erc20TokenBalances"))
}

func TestListErc20BalancesAtABlock(t *testing.T) {
	backend := withTokenState(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	body := getBalances(t, srv, erc20Path(handlertest.Alice)+"?blockNumber=4")
	require.Equal(t, []string{"REB=12", "WAVAX=4"}, tokenBalances(t, body, "erc20TokenBalances"))
	require.Equal(t, "104", body["nativeTokenBalance"].(map[string]any)["balance"])
	require.Equal(t, []string{"REB=45", "WAVAX=15"}, tokenBalances(t, getBalances(t, srv, erc20Path(handlertest.Alice)+"?blockNumber=15"), "erc20TokenBalances"))

	handlertest.RequireDataError(t, srv.Get(t, erc20Path(handlertest.Alice)+"?blockNumber=16"), http.StatusBadRequest,
		"blockNumber 16", "above block 15")
	for _, bad := range []string{"-1", "latest", "1.5", "0x10"} {
		handlertest.RequireDataError(t, srv.Get(t, erc20Path(handlertest.Alice)+"?blockNumber="+bad), http.StatusBadRequest,
			"invalid blockNumber", "non-negative integer")
	}

	backend.EVM.TokenState.Err = fmt.Errorf("%w: missing trie node", evmdata.ErrStateUnavailable)
	handlertest.RequireDataError(t, srv.Get(t, erc20Path(handlertest.Alice)+"?blockNumber=3"), http.StatusBadRequest,
		"blockNumber 3", "no longer has the state")
	handlertest.RequireDataError(t, srv.Get(t, erc20Path(handlertest.Alice)), http.StatusServiceUnavailable, "no longer has the state")
	backend.EVM.TokenState.Err = fmt.Errorf("connection refused")
	handlertest.RequireDataError(t, srv.Get(t, erc20Path(handlertest.Alice)), http.StatusInternalServerError)
}

// getNativeBalance at a block reads the node's state at that block, with
// the balance listings' rules for blockNumber.
func TestGetNativeBalanceAtABlock(t *testing.T) {
	backend := withTokenState(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	native := func(query string) string {
		body := getBalances(t, srv, "/v1/chains/43112/addresses/"+handlertest.Alice.Hex()+"/balances:getNative"+query)
		return body["nativeTokenBalance"].(map[string]any)["balance"].(string)
	}
	require.Equal(t, "104", native("?blockNumber=4"))
	require.Equal(t, "115", native("?blockNumber=15"))
	path := "/v1/chains/43112/addresses/" + handlertest.Alice.Hex() + "/balances:getNative"
	handlertest.RequireDataError(t, srv.Get(t, path+"?blockNumber=16"), http.StatusBadRequest, "blockNumber 16", "above block 15")
	backend.EVM.TokenState.Err = fmt.Errorf("%w: missing trie node", evmdata.ErrStateUnavailable)
	handlertest.RequireDataError(t, srv.Get(t, path+"?blockNumber=3"), http.StatusBadRequest, "blockNumber 3", "no longer has the state")
}

func TestListErc20BalancesBadInput(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withTokenState(t))
	many := make([]string, maxContractAddresses+1)
	for i := range many {
		many[i] = common.BigToAddress(big.NewInt(int64(i + 1))).Hex()
	}
	for query, fragments := range map[string][]string{
		"filterSpamTokens=maybe":                       {"filterSpamTokens", "true or false"},
		"currency=btc":                                 {"currency", "usd"},
		"contractAddresses=0x12":                       {"contractAddresses", "0x12"},
		"contractAddresses=" + strings.Join(many, ","): {"contractAddresses", "more than 100"},
		"pageSize=0":                                   {"pageSize"},
		"pageSize=501":                                 {"pageSize"},
		"pageToken=nope":                               {"pageToken"},
	} {
		handlertest.RequireDataError(t, srv.Get(t, erc20Path(handlertest.Alice)+"?"+query), http.StatusBadRequest, fragments...)
	}
	handlertest.RequireDataError(t, srv.Get(t, "/v1/chains/43112/addresses/0x12/balances:listErc20"), http.StatusBadRequest, "address")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/chains/999/addresses/"+handlertest.Alice.Hex()+"/balances:listErc20"), http.StatusBadRequest, "chainId")
}

func TestListErc20BalancesOfListedContracts(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), withTokenState(t))
	list := strings.Join([]string{unmoved.Hex(), strings.ToLower(rebasing.Hex()), handlertest.Kitties.Hex(), rebasing.Hex(), lure.Hex()}, ", ")
	body := getBalances(t, srv, erc20Path(handlertest.Alice)+"?contractAddresses="+url.QueryEscape(list))
	require.Equal(t, []string{"REB=45", "UNM=9"}, tokenBalances(t, body, "erc20TokenBalances"),
		"listed ERC-20 contracts, moved by Alice or not; the ERC-721 and the lure left out")
}

func TestListErc20BalancesSpamList(t *testing.T) {
	cfg := newTestConfig()
	cfg.EVM.SpamTokens = SpamTokens{43112: {handlertest.Wavax: true}, 99: {rebasing: true}}
	srv := newTestAPI(t, cfg, withTokenState(t))
	require.Equal(t, []string{"REB=45"}, tokenBalances(t, getBalances(t, srv, erc20Path(handlertest.Alice)), "erc20TokenBalances"),
		"the operator's list is per chain")
	require.Equal(t, []string{"REB=45", "GIFT=5", "WAVAX=15"},
		tokenBalances(t, getBalances(t, srv, erc20Path(handlertest.Alice)+"?filterSpamTokens=FALSE"), "erc20TokenBalances"))
}

func TestListErc20BalancesPagingIsPinned(t *testing.T) {
	backend := withTokenState(t)
	srv := newTestAPI(t, newTestConfig(), backend)
	path := erc20Path(handlertest.Alice) + "?pageSize=1&filterSpamTokens=false"
	first := getBalances(t, srv, path)
	require.Equal(t, []string{"REB=45"}, tokenBalances(t, first, "erc20TokenBalances"))
	backend.SetIndexedHeight(netinfo.C, 30) // blocks arrive while the client pages
	second := getBalances(t, srv, handlertest.WithToken(path, first))
	require.Equal(t, []string{"GIFT=5"}, tokenBalances(t, second, "erc20TokenBalances"))
	third := getBalances(t, srv, handlertest.WithToken(path, second))
	require.Equal(t, []string{"WAVAX=15"}, tokenBalances(t, third, "erc20TokenBalances"), "still at block 15")
	require.NotContains(t, third, "nextPageToken", "the emptied token after WAVAX is checked, not listed")
	require.Equal(t, []string{"WAVAX=30"}, tokenBalances(t, getBalances(t, srv, erc20Path(handlertest.Alice)+"?contractAddresses="+handlertest.Wavax.Hex()), "erc20TokenBalances"))

	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(erc20Path(handlertest.Alice)+"?pageSize=1", first)),
		http.StatusBadRequest, "other parameters")
	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(path+"&blockNumber=3", first)), http.StatusBadRequest, "other parameters")
}

func TestListErc20BalancesBoundsItsCalls(t *testing.T) {
	backend := withTokenState(t)
	moved := backend.EVM.TokenState.Moved[handlertest.Alice]
	// 1500 emptied tokens before the rebasing one.
	for i := range 1500 {
		moved[common.BigToAddress(big.NewInt(int64(i+1)))] = evmdata.Erc20
	}
	srv := newTestAPI(t, newTestConfig(), backend)
	path := erc20Path(handlertest.Alice) + "?pageSize=500"
	body := getBalances(t, srv, path)
	require.Empty(t, tokenBalances(t, body, "erc20TokenBalances"), "the first 1000 candidates hold nothing")
	require.LessOrEqual(t, backend.EVM.TokenState.Calls, maxBalanceCandidates)
	before := backend.EVM.TokenState.Calls
	body = getBalances(t, srv, handlertest.WithToken(path, body))
	require.Equal(t, []string{"REB=45", "WAVAX=15"}, tokenBalances(t, body, "erc20TokenBalances"))
	require.NotContains(t, body, "nextPageToken")
	require.LessOrEqual(t, backend.EVM.TokenState.Calls-before, maxBalanceCandidates)
}
