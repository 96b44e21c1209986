package main

import (
	"context"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/genesis"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/scripts/seed"
)

// seedTimeout bounds seeding and waiting for avadata to index the sample
// (about 4 s on a fresh local network).
const seedTimeout = 3 * time.Minute

// sampleOf returns the sample data of the network's data dir: the recorded
// one when the data dir was seeded before (it is never seeded twice), a new
// one when seeding is on, else nil. A failed seeding is logged and returns
// nil: the node stays up without the sample, and the next run tries again.
func sampleOf(ctx context.Context, n *localnet.Network, enabled bool, logf func(string, ...any)) *seed.Sample {
	recorded, err := seed.ReadRecord(n.DataDir())
	if err != nil {
		logf("%v", err)
		return nil
	}
	if recorded != nil {
		logf("data dir seeded on %s already (%s); not seeding again",
			recorded.MadeAt.Local().Format(time.DateTime), seed.RecordPath(n.DataDir()))
		// Normally at once; an index deleted to be rebuilt needs a while.
		waitCtx, cancel := context.WithTimeout(ctx, seedTimeout)
		defer cancel()
		if err := seed.WaitServed(waitCtx, n.BaseURL(), recorded); err != nil {
			logf("the examples below may not answer yet: %v", err)
		}
		return recorded
	}
	if !enabled {
		return nil
	}
	s, err := makeSample(ctx, n, logf)
	if err != nil && ctx.Err() != nil {
		return nil // stopping: Ctrl-C during seeding
	}
	if err != nil {
		logf("seeding the sample data failed; the node runs without it (SEED=0 skips seeding): %v", err)
		return nil
	}
	return s
}

// makeSample seeds the network with the pre-funded local key, waits until
// avadata serves every example of the sample, and records it in the data
// dir.
func makeSample(ctx context.Context, n *localnet.Network, logf func(string, ...any)) (*seed.Sample, error) {
	ctx, cancel := context.WithTimeout(ctx, seedTimeout)
	defer cancel()
	began := time.Now()
	logf("seeding sample data (SEED=0 skips it)")
	s, err := seed.Run(ctx, seed.Config{URI: n.URI(), BaseURL: n.BaseURL(), Key: genesis.EWOQKey, Logf: logf})
	if err != nil {
		return nil, err
	}
	if err := seed.WaitServed(ctx, n.BaseURL(), s); err != nil {
		return nil, err
	}
	if err := seed.WriteRecord(n.DataDir(), s); err != nil {
		return nil, fmt.Errorf("recording the sample: %w", err)
	}
	logf("sample data made in %s and indexed in %s more",
		s.Took.Round(time.Millisecond), (time.Since(began) - s.Took).Round(time.Millisecond))
	return s, nil
}
