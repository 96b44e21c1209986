package handlers

import (
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

const (
	pBalancesPath = "/v1/networks/local/blockchains/p-chain/balances"
	xBalancesPath = "/v1/networks/local/blockchains/x-chain/balances"
	cBalancesPath = "/v1/networks/local/blockchains/c-chain/balances"
)

func avaxBalance(amount string, utxos int) map[string]any {
	return map[string]any{"assetId": testAVAXAssetID.String(), "name": "Avalanche", "symbol": "AVAX",
		"denomination": float64(9), "type": "secp256k1", "amount": amount, "utxoCount": float64(utxos)}
}

func withShared(m map[string]any, chain ids.ID, status string) map[string]any {
	m["sharedWithChainId"] = chain.String()
	if status != "" {
		m["status"] = status
	}
	return m
}

func TestGetPChainBalances(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, pBalancesPath+"?addresses=P-"+bech32Of(t, pAlice))
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])
	require.NotContains(t, body, "nextPageToken")
	x := localInfo().ChainID(netinfo.X)
	require.Equal(t, map[string]any{
		"unlockedUnstaked":     []any{avaxBalance("940", 1)},
		"unlockedStaked":       []any{},
		"lockedPlatform":       []any{},
		"lockedStakeable":      []any{avaxBalance("498000000", 1)},
		"lockedStaked":         []any{},
		"pendingStaked":        []any{},
		"atomicMemoryUnlocked": []any{withShared(avaxBalance("5", 1), x, "pendingImport")},
		"atomicMemoryLocked":   []any{},
	}, body["balances"])

	calls := srv.backend.primary.balanceCalls
	require.Len(t, calls, 1)
	require.Equal(t, []ids.ShortID{pAlice}, calls[0].addrs)
	require.Equal(t, srv.clock.Now().Unix(), calls[0].at, "no blockTimestamp: now")

	getBody(t, srv, pBalancesPath+"?addresses="+bech32Of(t, pAlice)+"&blockTimestamp=1599696000")
	require.Equal(t, int64(1599696000), srv.backend.primary.balanceCalls[1].at)
}

func TestGetXChainBalances(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, xBalancesPath+"?addresses="+bech32Of(t, pAlice))
	nft := map[string]any{"assetId": testNFTAsset.String(), "name": "Kitties", "symbol": "KIT",
		"denomination": float64(0), "type": "nft", "amount": "0", "utxoCount": float64(1)}
	require.Equal(t, map[string]any{
		"unlocked":             []any{avaxBalance("3999000000", 1), nft},
		"locked":               []any{avaxBalance("3", 2)}, // every locked category folds into one entry
		"atomicMemoryUnlocked": []any{},
		"atomicMemoryLocked":   []any{},
	}, body["balances"])
}

func TestGetCChainAtomicBalances(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, cBalancesPath+"?addresses="+testEVMAddr)
	require.Equal(t, map[string]any{
		"atomicMemoryUnlocked": []any{},
		"atomicMemoryLocked":   []any{withShared(avaxBalance("3", 2), localInfo().ChainID(netinfo.X), "")},
	}, body["balances"], "only atomic memory, and without status")
	require.Equal(t, []ids.ShortID{cAlice}, srv.backend.primary.balanceCalls[0].addrs)
}

func TestGetPrimaryBalancesWithoutAddresses(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	for _, path := range []string{pBalancesPath, xBalancesPath + "?blockTimestamp=5", cBalancesPath + "?addresses="} {
		body := getBody(t, srv, path)
		balances := body["balances"].(map[string]any)
		require.NotEmpty(t, balances)
		for name, list := range balances {
			require.Equal(t, []any{}, list, name)
		}
	}
	require.Empty(t, srv.backend.primary.balanceCalls, "nothing to read")
}

func TestGetPrimaryBalancesBadInput(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	runRouteCases(t, srv, []routeCase{
		invalid("fuji address", pBalancesPath+"?addresses=P-"+bech32Addr(t, "fuji", 1), "invalid addresses", `"fuji"`),
		invalid("0x on the p-chain", pBalancesPath+"?addresses="+testEVMAddr, "invalid addresses", "EVM address"),
		invalid("bad time", xBalancesPath+"?blockTimestamp=yesterday", "blockTimestamp"),
	})
}
