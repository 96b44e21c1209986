package primary

import (
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

const (
	pBalancesPath = "/v1/networks/local/blockchains/p-chain/balances"
	xBalancesPath = "/v1/networks/local/blockchains/x-chain/balances"
	cBalancesPath = "/v1/networks/local/blockchains/c-chain/balances"
)

func avaxBalance(amount string, utxos int) map[string]any {
	return map[string]any{"assetId": fakenet.AVAXAssetID.String(), "name": "Avalanche", "symbol": "AVAX",
		"denomination": float64(9), "type": "secp256k1", "amount": amount, "utxoCount": float64(utxos)}
}

func withShared(m map[string]any, chain ids.ID) map[string]any {
	m["sharedWithChainId"] = chain.String()
	m["status"] = "pendingImport"
	return m
}

func TestGetPChainBalances(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, pBalancesPath+"?addresses=P-"+handlertest.Bech32Of(t, handlertest.PAlice))
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])
	require.NotContains(t, body, "nextPageToken")
	x := fakenet.Info().ChainID(netinfo.X)
	require.Equal(t, map[string]any{
		"unlockedUnstaked":     []any{avaxBalance("940", 1)},
		"unlockedStaked":       []any{},
		"lockedPlatform":       []any{},
		"lockedStakeable":      []any{avaxBalance("498000000", 1)},
		"lockedStaked":         []any{},
		"pendingStaked":        []any{},
		"atomicMemoryUnlocked": []any{withShared(avaxBalance("5", 1), x)},
		"atomicMemoryLocked":   []any{},
	}, body["balances"])

	calls := srv.Fakes.Primary.BalanceCalls
	require.Len(t, calls, 1)
	require.Equal(t, []ids.ShortID{handlertest.PAlice}, calls[0].Addrs)
	require.Equal(t, srv.Clock.Now().Unix(), calls[0].At, "no blockTimestamp: now")

	srv.GetBody(t, pBalancesPath+"?addresses="+handlertest.Bech32Of(t, handlertest.PAlice)+"&blockTimestamp=1599696000")
	require.Equal(t, int64(1599696000), srv.Fakes.Primary.BalanceCalls[1].At)
}

func TestGetXChainBalances(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, xBalancesPath+"?addresses="+handlertest.Bech32Of(t, handlertest.PAlice))
	nft := map[string]any{"assetId": handlertest.NFTAsset.String(), "name": "Kitties", "symbol": "KIT",
		"denomination": float64(0), "type": "nft", "amount": "0", "utxoCount": float64(1)}
	require.Equal(t, map[string]any{
		"unlocked":             []any{avaxBalance("3999000000", 1), nft},
		"locked":               []any{avaxBalance("3", 2)}, // every locked category folds into one entry
		"atomicMemoryUnlocked": []any{},
		"atomicMemoryLocked":   []any{},
	}, body["balances"])
}

func TestGetCChainAtomicBalances(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, cBalancesPath+"?addresses="+handlertest.EVMAddr)
	require.Equal(t, map[string]any{
		"atomicMemoryUnlocked": []any{},
		"atomicMemoryLocked":   []any{withShared(avaxBalance("3", 2), fakenet.Info().ChainID(netinfo.X))},
	}, body["balances"], "only atomic memory, with sharedWithChainId and status as the spec has them")
	require.Equal(t, []ids.ShortID{handlertest.CAlice}, srv.Fakes.Primary.BalanceCalls[0].Addrs)
}

func TestGetPrimaryBalancesWithoutAddresses(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	for _, path := range []string{pBalancesPath, xBalancesPath + "?blockTimestamp=5", cBalancesPath + "?addresses="} {
		body := srv.GetBody(t, path)
		balances := body["balances"].(map[string]any)
		require.NotEmpty(t, balances)
		for name, list := range balances {
			require.Equal(t, []any{}, list, name)
		}
	}
	require.Empty(t, srv.Fakes.Primary.BalanceCalls, "nothing to read")
}

func TestGetPrimaryBalancesBadInput(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("fuji address", pBalancesPath+"?addresses=P-"+handlertest.Bech32Addr(t, "fuji", 1), "invalid addresses", `"fuji"`),
		handlertest.Invalid("0x on the p-chain", pBalancesPath+"?addresses="+handlertest.EVMAddr, "invalid addresses", "EVM address"),
		handlertest.Invalid("bad time", xBalancesPath+"?blockTimestamp=yesterday", "blockTimestamp"),
	})
}
