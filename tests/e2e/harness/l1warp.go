package harness

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/truth"
)

// Warp-authorized L1 txs (SetL1ValidatorWeightTx, RegisterL1ValidatorTx)
// on a network whose P-chain verifies warp messages (sybil protection on:
// the 2-node network). The tests sign as the L1's only validator.

// SignL1Warp wraps an L1 validator manager message (from the L1's manager
// chain and address) in a warp message of networkID signed by signer alone,
// bit index of the L1's canonical validator set (validators sorted by their
// uncompressed BLS public keys; 0 for an L1's only validator), which must
// hold enough of the L1's weight.
func SignL1Warp(t testing.TB, networkID uint32, managerChain ids.ID, managerAddress []byte, signer *localsigner.LocalSigner,
	index int, msgBytes []byte,
) []byte {
	t.Helper()
	call, err := payload.NewAddressedCall(managerAddress, msgBytes)
	require.NoError(t, err)
	unsigned, err := warp.NewUnsignedMessage(networkID, managerChain, call.Bytes())
	require.NoError(t, err)
	sig, err := signer.Sign(unsigned.Bytes())
	require.NoError(t, err)
	signed, err := warp.NewMessage(unsigned, &warp.BitSetSignature{
		Signers:   set.NewBits(index).Bytes(),
		Signature: [bls.SignatureLen]byte(bls.SignatureToBytes(sig)),
	})
	require.NoError(t, err)
	return signed.Bytes()
}

// WaitWarpHeight waits until the P-chain's current ACP-181 epoch starts at
// or above height, so that warp messages are verified against the
// validator sets from there on. Epochs end only with blocks, so it issues
// a filler P tx each round.
func WaitWarpHeight(t *testing.T, ctx context.Context, uri string, x *TxIssuer, height uint64) {
	t.Helper()
	began := time.Now()
	deadline := began.Add(3 * time.Minute)
	for {
		var epoch struct {
			Number       avajson.Uint64 `json:"number"`
			PChainHeight avajson.Uint64 `json:"pChainHeight"`
		}
		require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P/proposervm", "proposervm.getCurrentEpoch", struct{}{}, &epoch))
		if uint64(epoch.PChainHeight) >= height {
			t.Logf("epoch %d verifies warp at P height %d >= %d after %s", epoch.Number, epoch.PChainHeight, height,
				time.Since(began).Round(time.Millisecond))
			return
		}
		require.True(t, time.Now().Before(deadline), "the P-chain epoch stays at height %d < %d", epoch.PChainHeight, height)
		x.IssueP(t, ctx, 1)
		time.Sleep(time.Second)
	}
}

// IssueWarpTx issues a warp-authorized tx. A refusal for the warp message
// is retried a few times (the epoch's height is read off the last
// accepted block; the preferred one can still be a block behind). Each
// attempt must be a new tx, since the mempool answers a refused tx ID from
// its memory, and memos are gone since Durango: issue builds its message
// from the attempt number (a nonce, an expiry).
func IssueWarpTx(t *testing.T, ctx context.Context, uri string, x *TxIssuer, what string,
	issue func(attempt uint64) (*txs.Tx, error),
) *txs.Tx {
	t.Helper()
	for attempt := uint64(1); ; attempt++ {
		tx, err := issue(attempt)
		if err == nil {
			t.Logf("%s: accepted on attempt %d", what, attempt)
			return tx
		}
		if !strings.Contains(err.Error(), "failed verifying warp messages") || attempt == 10 {
			require.NoError(t, err, "%s (attempt %d)", what, attempt)
		}
		t.Logf("%s: attempt %d refused at P height %d: %v", what, attempt, truth.Height(t, ctx, uri, "P"), err)
		x.IssueP(t, ctx, 1)
		time.Sleep(time.Second)
	}
}
