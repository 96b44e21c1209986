package vm

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

func TestParseConfigDefaults(t *testing.T) {
	for _, in := range []string{"", "  \n", "{}"} {
		cfg, err := ParseConfig([]byte(in))
		require.NoError(t, err)
		require.Equal(t, DefaultAlias, *cfg.Alias)
		require.Equal(t, []string{"P", "X", "C"}, cfg.Chains)
		require.Equal(t, DefaultPollInterval, time.Duration(cfg.PollInterval))
		require.Equal(t, DefaultBatchSize, cfg.BatchSize)
		require.Equal(t, uint64(DefaultMaxLagBlocks), cfg.MaxLagBlocks)
		require.Equal(t, DefaultStuckAfter, time.Duration(cfg.StuckAfter))
		require.False(t, cfg.AdminAPIEnabled)
		require.True(t, cfg.EVMChains.Tracked)
		require.Equal(t, DefaultFetchers, cfg.Fetchers)
		require.True(t, *cfg.TraceInternalTxs)
	}
}

func TestParseConfigEVMChains(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"evmChains":["2Abc","mychain"],"fetchers":8,"traceInternalTxs":false}`))
	require.NoError(t, err)
	require.False(t, cfg.EVMChains.Tracked)
	require.Equal(t, []string{"2Abc", "mychain"}, cfg.EVMChains.Chains)
	require.Equal(t, 8, cfg.Fetchers)
	require.False(t, *cfg.TraceInternalTxs)

	cfg, err = ParseConfig([]byte(`{"evmChains":[]}`))
	require.NoError(t, err)
	require.False(t, cfg.EVMChains.Tracked)
	require.Empty(t, cfg.EVMChains.Chains)
}

func TestParseConfigValues(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"nodeURI":"http://127.0.0.1:1","alias":"","chains":["c","P"],
		"pollInterval":"50ms","batchSize":1024,"maxLagBlocks":0,"stuckAfter":"1m","apiKeys":["k"],
		"rateLimit":{"anonymousRps":1.5},"adminApiEnabled":true}` + "\n"))
	require.NoError(t, err)
	require.Equal(t, "http://127.0.0.1:1", cfg.NodeURI)
	require.Empty(t, *cfg.Alias)
	chains, err := cfg.FollowedChains()
	require.NoError(t, err)
	require.Equal(t, []netinfo.Chain{netinfo.C, netinfo.P}, chains)
	require.Equal(t, 50*time.Millisecond, time.Duration(cfg.PollInterval))
	require.Zero(t, cfg.MaxLagBlocks)
	require.Equal(t, 1.5, cfg.RateLimit.AnonymousRPS)
	require.True(t, cfg.AdminAPIEnabled)
}

func TestParseConfigErrors(t *testing.T) {
	for in, want := range map[string]string{
		`{`:                       "invalid avadata chain config",
		`{"nodeUrl":"x"}`:         `unknown field "nodeUrl"`,
		`{"batchSize":2000}`:      "batchSize 2000 out of range",
		`{"chains":["Q"]}`:        `unknown chain "Q"`,
		`{"chains":["P","p"]}`:    "P listed twice",
		`{"pollInterval":5}`:      "duration must be a string",
		`{"pollInterval":"soon"}`: "invalid duration",
		`{} {}`:                   "trailing data",
		`{"stuckAfter":"-1s"}`:    "must be positive",
		`{"rateLimit":{"rps":1}}`: `unknown field "rps"`,
		`["not","an","object"]`:   "invalid avadata chain config",
		`{"evmChains":"all"}`:     `want "tracked"`,
		`{"evmChains":[""]}`:      "empty chain name",
		`{"evmChains":5}`:         "evmChains",
		`{"fetchers":99}`:         "fetchers 99 out of range",
	} {
		_, err := ParseConfig([]byte(in))
		require.ErrorContains(t, err, want, in)
	}
}
