package webhooks

import (
	"context"
	"encoding/json"
	"net/netip"
	"testing"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// Keys of the tests' config: a management key and a key that may only
// read (handlertest's known-key).
const (
	manageKey = "manage-key"
	readKey   = "known-key"
)

var (
	manageHeader = []string{"x-glacier-api-key", manageKey}
	readHeader   = []string{"x-data-api-key", readKey}
)

// testBackend is the real store with the node's next heights fixed; a
// chain in unknown has no known height (its follower has not read it).
type testBackend struct {
	*store.Store
	next    map[netinfo.Chain]uint64
	unknown map[netinfo.Chain]bool
}

func (b testBackend) NextHeight(_ context.Context, chain netinfo.Chain) (uint64, bool) {
	if b.unknown[chain] {
		return 0, false
	}
	return b.next[chain], true
}

// fakeResolver answers every host with the same addresses.
type fakeResolver []netip.Addr

func (f fakeResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return f, nil
}

// newTestAPI serves the webhook operations over a real store; cfg's zero
// values take the package defaults, its management keys default to
// manageKey and its resolver answers a public address.
func newTestAPI(t *testing.T, cfg Config) (*handlertest.API, testBackend) {
	t.Helper()
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	require.NoError(t, st.LoadWebhooks(context.Background()))
	if cfg.ManagementKeys == nil {
		cfg.ManagementKeys = []string{manageKey}
	}
	if cfg.Resolver == nil {
		cfg.Resolver = fakeResolver{netip.MustParseAddr("93.184.216.34")}
	}
	backend := testBackend{Store: st, next: map[netinfo.Chain]uint64{}, unknown: map[netinfo.Chain]bool{}}
	serveCfg := handlertest.Config()
	serveCfg.APIKeys = append(serveCfg.APIKeys, manageKey)
	a := handlertest.NewAPI(t, serveCfg, handlertest.NewFakes(), func(core *api.Core) []api.Route {
		return Routes(core, cfg, backend)
	})
	return a, backend
}

// decode reads a reply body as generic JSON.
func decode(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var out map[string]any
	require.NoError(t, json.Unmarshal(body, &out))
	return out
}
