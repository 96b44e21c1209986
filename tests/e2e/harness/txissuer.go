package harness

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/core/types"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"
)

// TxIssuer issues real transactions on the local network with the
// pre-funded EWOQ key.
type TxIssuer struct {
	URI    string
	Wallet *primary.Wallet
	eth    *rpc.Client
	Dest   ids.ShortID
}

func NewTxIssuer(t testing.TB, ctx context.Context, uri string) *TxIssuer {
	t.Helper()
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakeWallet(ctx, uri, kc, kc, primary.WalletConfig{})
	require.NoError(t, err, "making wallet")
	eth, err := rpc.DialContext(ctx, uri+"/ext/bc/C/rpc")
	require.NoError(t, err)
	t.Cleanup(eth.Close)
	return &TxIssuer{URI: uri, Wallet: w, eth: eth, Dest: ids.GenerateTestShortID()}
}

// refreshWallet makes the wallet again, reading the UTXOs and the fee
// state the chains have now.
func (x *TxIssuer) refreshWallet(t testing.TB, ctx context.Context) {
	t.Helper()
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakeWallet(ctx, x.URI, kc, kc, primary.WalletConfig{})
	require.NoError(t, err, "making wallet again")
	x.Wallet = w
}

func (x *TxIssuer) Opts(ctx context.Context) []common.Option {
	return []common.Option{common.WithContext(ctx), common.WithPollFrequency(10 * time.Millisecond)}
}

func (x *TxIssuer) Owner() secp256k1fx.OutputOwners {
	return secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{x.Dest}}
}

// IssueX sends n X-chain BaseTxs, each waiting for acceptance.
func (x *TxIssuer) IssueX(t testing.TB, ctx context.Context, n int) {
	t.Helper()
	assetID := x.Wallet.X().Builder().Context().AVAXAssetID
	for i := range n {
		out := &avax.TransferableOutput{
			Asset: avax.Asset{ID: assetID},
			Out:   &secp256k1fx.TransferOutput{Amt: units.MilliAvax + uint64(i), OutputOwners: x.Owner()},
		}
		_, err := x.Wallet.X().IssueBaseTx([]*avax.TransferableOutput{out}, x.Opts(ctx)...)
		require.NoError(t, err, "X BaseTx %d", i)
	}
}

// IssueP sends n P-chain BaseTxs.
func (x *TxIssuer) IssueP(t testing.TB, ctx context.Context, n int) {
	t.Helper()
	assetID := x.Wallet.P().Builder().Context().AVAXAssetID
	for i := range n {
		out := &avax.TransferableOutput{
			Asset: avax.Asset{ID: assetID},
			Out:   &secp256k1fx.TransferOutput{Amt: units.MilliAvax + uint64(i), OutputOwners: x.Owner()},
		}
		for stale := 0; ; {
			_, err := x.Wallet.P().IssueBaseTx([]*avax.TransferableOutput{out}, x.Opts(ctx)...)
			switch {
			case err != nil && strings.Contains(err.Error(), "exceeds current gas capacity") && ctx.Err() == nil:
				// The P-chain's dynamic fees refill gas capacity over
				// time; hundreds of txs in a row drain it.
				time.Sleep(time.Second)
				continue
			case err != nil && strings.Contains(err.Error(), "insufficient unlocked funds") && stale < 5:
				// The wallet prices fees at the gas price it read when it
				// was made, and hundreds of txs in a row raise it.
				stale++
				x.refreshWallet(t, ctx)
				continue
			}
			require.NoError(t, err, "P BaseTx %d", i)
			break
		}
	}
}

// IssueC sends n C-chain value transfers from the EWOQ address, all at once
// (consecutive nonces), then waits for every receipt. It returns the hashes.
func (x *TxIssuer) IssueC(t testing.TB, ctx context.Context, n int) []string {
	t.Helper()
	var chainID, gasPrice hexutil.Big
	require.NoError(t, x.eth.CallContext(ctx, &chainID, "eth_chainId"))
	require.NoError(t, x.eth.CallContext(ctx, &gasPrice, "eth_gasPrice"))
	from := genesis.EWOQKey.EthAddress()
	var nonce hexutil.Uint64
	require.NoError(t, x.eth.CallContext(ctx, &nonce, "eth_getTransactionCount", from, "pending"))
	signer := types.LatestSignerForChainID(chainID.ToInt())
	to := from // a self-transfer is a real, fee-paying transaction
	price := new(big.Int).Mul(gasPrice.ToInt(), big.NewInt(2))
	hashes := make([]string, n)
	for i := range n {
		tx := types.NewTx(&types.LegacyTx{
			Nonce: uint64(nonce) + uint64(i), GasPrice: price, Gas: 21000, To: &to, Value: big.NewInt(int64(1e12 + i)),
		})
		signed, err := types.SignTx(tx, signer, genesis.EWOQKey.ToECDSA())
		require.NoError(t, err)
		raw, err := signed.MarshalBinary()
		require.NoError(t, err)
		require.NoError(t, x.eth.CallContext(ctx, nil, "eth_sendRawTransaction", hexutil.Bytes(raw)), "C tx %d", i)
		hashes[i] = signed.Hash().Hex()
	}
	for _, h := range hashes {
		x.waitReceipt(t, ctx, h)
	}
	return hashes
}

func (x *TxIssuer) waitReceipt(t testing.TB, ctx context.Context, hash string) {
	t.Helper()
	for {
		var receipt map[string]any
		require.NoError(t, x.eth.CallContext(ctx, &receipt, "eth_getTransactionReceipt", hash))
		if receipt != nil {
			require.Equal(t, "0x1", receipt["status"], fmt.Sprintf("receipt of %s", hash))
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no receipt for %s: %v", hash, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
