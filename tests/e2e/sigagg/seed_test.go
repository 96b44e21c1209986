package sigagg

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/seed"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// sigAggSeed runs the seeding of `make run` on the validators' network:
// there the sample's examples include the aggregation of its warp message,
// which avadata answers with data (WaitServed) and whose signature
// verifies against the validator set.
func sigAggSeed(t *testing.T, ctx context.Context, sn *sigAggNet) {
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	harness.FundOnX(t, ctx, sn.uris[0], key, seed.SeedXAVAX)
	base := sn.uris[0] + "/ext/bc/" + sn.n.ChainID().String()
	s, err := seed.Run(ctx, seed.Config{URI: sn.uris[0], BaseURL: base, Key: key, Logf: t.Logf})
	require.NoError(t, err, "seeding")
	require.NotNil(t, s.Warp)
	require.True(t, s.Warp.Signable, "the network has validators")
	require.NoError(t, seed.WaitServed(ctx, base, s), "waiting for avadata to serve the sample")

	receipt, err := sn.evm.Receipt(ctx, s.Warp.TxHash)
	require.NoError(t, err)
	require.NotNil(t, receipt)
	msg := harness.RequireSeedWarpMessage(t, s, receipt)
	var ex *seed.Example
	for _, e := range seed.Examples(base, s) {
		if e.Name == seed.ExampleWarpSignatures {
			ex = &e
		}
	}
	require.NotNil(t, ex, "the aggregation example is printed where validators can sign")
	r := harness.ExampleReply(t, ctx, *ex)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	sn.verify(t, ctx, r, msg, 67)
	t.Logf("sample made in %v; %s", s.Took.Round(time.Millisecond), ex.Curl())
}
