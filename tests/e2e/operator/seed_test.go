package operator

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/seed"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// seedTestTimeout bounds seeding, indexing and checking every example.
const seedTestTimeout = 4 * time.Minute

// TestOperatorSeed runs the sample seeding of `make run` and asks avadata every
// example the seeder prints (the README's quick tour): each must answer 200
// with data, and the data must be what the node says (receipts, eth_call,
// balances, the transactions the wallet had accepted).
//
// The sample is signed by a fresh key funded on X by EWOQ, not by EWOQ as in
// `make run`: the other tests check exact per-address data of the shared
// network, and EWOQ's C-chain nonce belongs to the EVM fixture's client.
func TestOperatorSeed(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), seedTestTimeout)
	defer cancel()
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	funding := harness.FundOnX(t, ctx, env.URI(t), key, seed.SeedXAVAX)

	began := time.Now()
	s, err := seed.Run(ctx, seed.Config{URI: env.URI(t), BaseURL: env.Base(t), Key: key, Logf: t.Logf})
	require.NoError(t, err, "seeding")
	require.NoError(t, seed.WaitServed(ctx, env.Base(t), s), "waiting for avadata to serve the sample")
	t.Logf("sample made in %v, served after %v", s.Took.Round(time.Millisecond), time.Since(began).Round(time.Millisecond))

	c, err := evmtest.Dial(ctx, env.URI(t)+"/ext/bc/C/rpc", key)
	require.NoError(t, err)
	t.Cleanup(c.Close)
	sc := &seedCheck{s: s, c: c, ctx: ctx, fundingTx: funding}
	sc.readReceipts(t)
	sc.checkWarpUnsignable(t)

	checks := sc.checks()
	examples := seed.Examples(env.Base(t), s)
	require.Len(t, checks, len(examples), "one node check per example, no more")
	for _, ex := range examples {
		t.Run(ex.Name, func(t *testing.T) {
			r := harness.ExampleReply(t, ctx, ex)
			require.Equal(t, http.StatusOK, r.Status, "%s %s: %s", ex.Method(), ex.URL, r.Body)
			ok, err := seed.HasData(r.Body, ex.DataPath)
			require.NoError(t, err)
			require.True(t, ok, "%s %s: no data at %s: %s", ex.Method(), ex.URL, ex.DataPath, r.Body)
			check, found := checks[ex.Name]
			require.True(t, found, "example %s has no check against the node", ex.Name)
			check(t, ex.URL)
		})
	}

	// A data dir keeps the sample, so a later `make run` prints the same
	// examples without seeding again.
	dir := t.TempDir()
	none, err := seed.ReadRecord(dir)
	require.NoError(t, err)
	require.Nil(t, none, "an unseeded data dir has no record")
	require.NoError(t, seed.WriteRecord(dir, s))
	again, err := seed.ReadRecord(dir)
	require.NoError(t, err)
	require.Equal(t, examples, seed.Examples(env.Base(t), again), "examples of the recorded sample")
}
