package e2e

import (
	"context"
	"encoding/hex"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/graft/coreth/precompile/contracts/warp"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/seed"
	"github.com/avadata/avadata/tests/evmtest"
)

// exampleReply asks avadata ex as `make run` prints it: a GET, or a POST of
// its JSON body.
func exampleReply(t *testing.T, ctx context.Context, ex seed.Example) reply {
	t.Helper()
	if ex.Body == "" {
		return evmGet(t, ctx, ex.URL)
	}
	return doRequest(t, ctx, ex.Method(), ex.URL, []byte(ex.Body), map[string]string{"Content-Type": "application/json"})
}

// checkWarpTx: the warp message's transaction, a call of the warp
// precompile by the sender, whose receipt's log holds the sample's message.
func (sc *seedCheck) checkWarpTx(t *testing.T, u string) {
	w := sc.s.Warp
	require.NotNil(t, w)
	r := sc.receipts[w.TxHash]
	require.NotNil(t, r, "the warp tx is one of the sample's C-chain txs")
	requireSeedWarpMessage(t, sc.s, r)
	var got apiTxDetails
	getOK(t, sc.ctx, u, &got)
	n := got.NativeTransaction
	require.Equal(t, w.TxHash, common.HexToHash(n.TxHash))
	require.Equal(t, strconv.FormatUint(r.BlockNumber, 10), n.BlockNumber)
	require.Equal(t, sc.s.Sender.EVM, common.HexToAddress(n.From.Address))
	require.Equal(t, warp.ContractAddress, common.HexToAddress(n.To.Address))
}

// checkWarpUnsignable: TestSeed's network runs without sybil protection,
// so the seeder must have left the aggregation example out, rightly: the
// aggregator answers 404 for the sample's message.
func (sc *seedCheck) checkWarpUnsignable(t *testing.T) {
	require.NotNil(t, sc.s.Warp)
	require.False(t, sc.s.Warp.Signable, "a network without sybil protection has no validators")
	r := doRequest(t, sc.ctx, http.MethodPost, env.base+"/v1/signatureAggregator/"+sc.s.Network+"/aggregateSignatures",
		[]byte(`{"message":"`+hex.EncodeToString(sc.s.Warp.Message)+`"}`), map[string]string{"Content-Type": "application/json"})
	requireErrorBody(t, r, http.StatusNotFound, "no validator sets")
}

// requireSeedWarpMessage checks that r's warp precompile log holds s's warp
// message: from s's C-chain, an AddressedCall from the sender carrying the
// seeder's payload.
func requireSeedWarpMessage(t *testing.T, s *seed.Sample, r *evmtest.Receipt) *avalancheWarp.UnsignedMessage {
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

// sigAggSeed runs the seeding of `make run` on the validators' network:
// there the sample's examples include the aggregation of its warp message,
// which avadata answers with data (WaitServed) and whose signature
// verifies against the validator set.
func sigAggSeed(t *testing.T, ctx context.Context, sn *sigAggNet) {
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	fundOnX(t, ctx, sn.uris[0], key, seed.SeedXAVAX)
	base := sn.uris[0] + "/ext/bc/" + sn.n.ChainID().String()
	s, err := seed.Run(ctx, seed.Config{URI: sn.uris[0], BaseURL: base, Key: key, Logf: t.Logf})
	require.NoError(t, err, "seeding")
	require.NotNil(t, s.Warp)
	require.True(t, s.Warp.Signable, "the network has validators")
	require.NoError(t, seed.WaitServed(ctx, base, s), "waiting for avadata to serve the sample")

	receipt, err := sn.evm.Receipt(ctx, s.Warp.TxHash)
	require.NoError(t, err)
	require.NotNil(t, receipt)
	msg := requireSeedWarpMessage(t, s, receipt)
	var ex *seed.Example
	for _, e := range seed.Examples(base, s) {
		if e.Name == seed.ExampleWarpSignatures {
			ex = &e
		}
	}
	require.NotNil(t, ex, "the aggregation example is printed where validators can sign")
	r := exampleReply(t, ctx, *ex)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	sn.verify(t, ctx, r, msg, 67)
	t.Logf("sample made in %v; %s", s.Took.Round(time.Millisecond), ex.Curl())
}
