package harness

import (
	"context"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/seed"
	"github.com/avadata/avadata/tests/evmtest"
)

// FundOnX sends amount of AVAX on the X-chain from EWOQ to key through the
// node at uri and returns the transaction's ID.
func FundOnX(t *testing.T, ctx context.Context, uri string, key *secp256k1.PrivateKey, amount uint64) ids.ID {
	t.Helper()
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakeWallet(ctx, uri, kc, kc, primary.WalletConfig{})
	require.NoError(t, err, "EWOQ wallet")
	out := &avax.TransferableOutput{
		Asset: avax.Asset{ID: w.X().Builder().Context().AVAXAssetID},
		Out: &secp256k1fx.TransferOutput{Amt: amount, OutputOwners: secp256k1fx.OutputOwners{
			Threshold: 1, Addrs: []ids.ShortID{key.Address()},
		}},
	}
	tx, err := w.X().IssueBaseTx([]*avax.TransferableOutput{out},
		common.WithContext(ctx), common.WithPollFrequency(20*time.Millisecond))
	require.NoError(t, err, "funding the seeding key on X")
	return tx.ID()
}

// ExampleReply asks avadata ex as `make run` prints it: a GET, or a POST of
// its JSON body.
func ExampleReply(t *testing.T, ctx context.Context, ex seed.Example) Reply {
	t.Helper()
	if ex.Body == "" {
		return GetWithRetryAfter(t, ctx, ex.URL)
	}
	return Do(t, ctx, ex.Method(), ex.URL, []byte(ex.Body), map[string]string{"Content-Type": "application/json"})
}

// RequireSeedWarpMessage checks that r's warp precompile log holds s's warp
// message: from s's C-chain, an AddressedCall from the sender carrying the
// seeder's payload.
func RequireSeedWarpMessage(t *testing.T, s *seed.Sample, r *evmtest.Receipt) *avalancheWarp.UnsignedMessage {
	t.Helper()
	require.Equal(t, uint64(1), r.Status)
	msg, err := evmtest.WarpMessage(r)
	require.NoError(t, err)
	require.Equal(t, []byte(s.Warp.Message), msg.Bytes())
	require.Equal(t, s.NetworkID, msg.NetworkID)
	require.Equal(t, s.CChain, msg.SourceChainID)
	call, err := payload.ParseAddressedCall(msg.Payload)
	require.NoError(t, err)
	require.Equal(t, s.Sender.EVM.Bytes(), call.SourceAddress)
	require.Equal(t, []byte(seed.WarpPayload), call.Payload)
	return msg
}
