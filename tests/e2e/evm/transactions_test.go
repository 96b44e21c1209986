package evm

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// TestEVMActivityCoverage checks, against the node alone, that the shared
// activity holds every case the other EVM tests claim to cover, so none of
// their comparisons is vacuous.
func TestEVMActivityCoverage(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		count := map[string]int{}
		for _, ft := range f.txs {
			x, ok := f.truth.Tx(ft.hash)
			require.True(t, ok, ft.label)
			count["type "+strconv.FormatUint(x.Type, 10)]++
			if x.Receipt.Status == 0 {
				count["failed"]++
			}
			for _, tr := range x.Transfers {
				count[tr.Kind]++
				if tr.BatchIndex > 0 {
					count["batch element"]++
				}
			}
			for _, in := range x.Internal {
				count[in.Type]++
				if in.Reverted {
					count["reverted internal"]++
					if in.Value.Sign() > 0 {
						count["reverted internal with value"]++
					}
				}
			}
			if x.Receipt.Status == 1 {
				x.Trace.Walk(func(frame *evmtest.CallFrame, depth int) {
					if depth > 0 && frame.Error != "" {
						count["caught inner revert"]++
					}
				})
			}
		}
		t.Logf("%s: %v", f.name(), count)
		for _, want := range []string{
			"type 0", "type 2", "failed", "ERC-20", "ERC-721", "ERC-1155", "batch element",
			"CALL", "CREATE", "CREATE2", "reverted internal", "reverted internal with value", "caught inner revert",
		} {
			require.Positive(t, count[want], "%s: the activity has no %s", f.name(), want)
		}
		require.Len(t, f.children, 4, "factory children")
		require.Len(t, f.erc721IDs, 5, "minted ERC-721 ids")
	})
}

// TestEVMTransactionByHash fetches every transaction of the chain (the
// activity's and any earlier test's) by hash and compares all of it with
// the node: block, sender and recipient, value, nonce, gas, fees, status,
// type, input and method, the token transfers of its logs and the internal
// transactions of its trace.
func TestEVMTransactionByHash(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		all := f.truth.All()
		require.GreaterOrEqual(t, len(all), len(f.txs))
		for _, x := range all {
			var got dataapi.TxDetails
			harness.GetOK(t, ctx, f.evmURL("/transactions/"+x.Hash.Hex(), nil), &got)
			f.checkNativeTx(t, ctx, x, got.NativeTransaction, true)
			f.checkLists(t, ctx, x, got, common.Address{})
			require.NotNil(t, got.NetworkTokenDetails, "%s: networkTokenDetails is required", x.Hash)
			require.Equal(t, 18, got.NetworkTokenDetails.NetworkToken.Decimals, x.Hash)
			require.NotEmpty(t, got.NetworkTokenDetails.NetworkToken.Symbol, x.Hash)
		}

		// The chain's blockchain ID names it as well, and a hash in lower
		// or upper case is the same hash.
		ft := f.txs[len(f.txs)-1]
		var byEVMID, byBlockchainID, lower, upper dataapi.TxDetails
		harness.GetOK(t, ctx, f.evmURL("/transactions/"+ft.hash.Hex(), nil), &byEVMID)
		harness.GetOK(t, ctx, env.Base(t)+"/v1/chains/"+f.chain.BlockchainID.String()+"/transactions/"+ft.hash.Hex(), &byBlockchainID)
		require.Equal(t, byEVMID, byBlockchainID, "by blockchain ID")
		harness.GetOK(t, ctx, f.evmURL("/transactions/"+strings.ToLower(ft.hash.Hex()), nil), &lower)
		require.Equal(t, byEVMID, lower, "lower-case hash")
		harness.GetOK(t, ctx, f.evmURL("/transactions/0x"+strings.ToUpper(ft.hash.Hex()[2:]), nil), &upper)
		require.Equal(t, byEVMID, upper, "upper-case hash")
	})
}
