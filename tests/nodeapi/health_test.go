package nodeapi

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// End-to-end checks of avalanchego's health API (GET and JSON-RPC) on the
// node hosting avadata. The avadata check is named after its chain ID and
// tagged with its subnet ID. Other tests pause avadata's
// followers, which fails its check for a while, so these tests wait for the
// state they need instead of assuming it.

// healthPoll is how often a wait re-reads the health endpoints; the node
// re-runs its checks every 2 s (--health-check-frequency).
const healthPoll = 100 * time.Millisecond

// checkKeys are all the members a check result may have.
var checkKeys = []string{"message", "error", "timestamp", "duration", "contiguousFailures", "timeOfFirstFailure"}

// healthReport is a decoded health check result: the checks by name.
type healthReport struct {
	healthy bool
	checks  map[string]map[string]json.RawMessage
	raw     json.RawMessage
}

func (r healthReport) names() []string { return slices.Sorted(maps.Keys(r.checks)) }

// parseHealth checks the shape of a health check result and decodes it.
func parseHealth(t *testing.T, raw json.RawMessage, what string) healthReport {
	t.Helper()
	obj := jsonObject(t, raw, what)
	requireExactKeys(t, obj, what, "checks", "healthy")
	r := healthReport{healthy: jsonBool(t, obj["healthy"], what+".healthy"), checks: map[string]map[string]json.RawMessage{}, raw: raw}
	anyFailing := false
	for name, c := range jsonObject(t, obj["checks"], what+".checks") {
		check := jsonObject(t, c, what+"."+name)
		for k := range check {
			require.Contains(t, checkKeys, k, "%s: unknown member of check %s: %s", what, name, c)
		}
		r.checks[name] = check
		jsonTime(t, member(t, check, "timestamp", name), name+".timestamp")
		jsonInteger(t, member(t, check, "duration", name), name+".duration (ns)")
		// The node leaves out contiguousFailures and timeOfFirstFailure
		// while they are zero, i.e. for a passing check (and for one that
		// has not run yet).
		if e, failing := check["error"]; failing {
			anyFailing = true
			if jsonString(t, e, name+".error") == "not yet run" {
				continue
			}
			require.Positive(t, jsonInteger(t, member(t, check, "contiguousFailures", name), name+".contiguousFailures"))
			jsonTime(t, member(t, check, "timeOfFirstFailure", name), name+".timeOfFirstFailure")
		} else {
			require.NotContains(t, check, "contiguousFailures", "%s: passing check %s: %s", what, name, c)
			require.NotContains(t, check, "timeOfFirstFailure", "%s: passing check %s: %s", what, name, c)
		}
	}
	require.Equal(t, !anyFailing, r.healthy, "%s: healthy must be true exactly when no check fails: %s", what, raw)
	return r
}

// getHealth GETs path (with tags) and checks that the status code matches
// the body's healthy flag.
func getHealth(t *testing.T, ctx context.Context, path string, tags ...string) (int, healthReport) {
	t.Helper()
	u := env.URI(t) + path
	if len(tags) > 0 {
		u += "?" + url.Values{"tag": tags}.Encode()
	}
	status, header, body := harness.HTTPDo(t, ctx, http.MethodGet, u, nil)
	require.Contains(t, header.Get("Content-Type"), "application/json", "GET %s", u)
	r := parseHealth(t, body, "GET "+u)
	want := http.StatusOK
	if !r.healthy {
		want = http.StatusServiceUnavailable
	}
	require.Equal(t, want, status, "GET %s: status must be 200 when healthy, 503 when not: %s", u, body)
	return status, r
}

// waitHealthStatus polls GET path until it answers status.
func waitHealthStatus(t *testing.T, ctx context.Context, status int, path string, tags ...string) healthReport {
	t.Helper()
	for {
		got, r := getHealth(t, ctx, path, tags...)
		if got == status {
			return r
		}
		select {
		case <-ctx.Done():
			t.Fatalf("GET %s %v never answered %d; last %d: %s", path, tags, status, got, r.raw)
		case <-time.After(healthPoll):
		}
	}
}

// rpcHealth calls a health.* JSON-RPC method.
func rpcHealth(t *testing.T, ctx context.Context, method string, params any) healthReport {
	t.Helper()
	return parseHealth(t, harness.CallRPC(t, ctx, extURL(t, "health"), method, params), method)
}

// avadataVMHealth returns message.engine.vm.health of the avadata check.
func avadataVMHealth(t *testing.T, r healthReport) map[string]json.RawMessage {
	t.Helper()
	check := r.checks[env.Net(t).ChainID().String()]
	require.NotNil(t, check, "no avadata check %s in %v", env.Net(t).ChainID(), r.names())
	message := jsonObject(t, member(t, check, "message", "avadata check"), "avadata message")
	requireKeys(t, message, "avadata message", "engine", "networking")
	engine := jsonObject(t, message["engine"], "message.engine")
	requireKeys(t, engine, "message.engine", "consensus", "vm")
	vmHealth := jsonObject(t, engine["vm"], "message.engine.vm")
	return jsonObject(t, member(t, vmHealth, "health", "message.engine.vm"), "message.engine.vm.health")
}

func TestNodeAPIHealthGET(t *testing.T) {
	ctx := nodeAPIContext(t, 2*time.Minute)
	chainID := env.Net(t).ChainID().String()
	for _, path := range []string{"/ext/health", "/ext/health/health"} {
		r := waitHealthStatus(t, ctx, http.StatusOK, path)
		require.True(t, r.healthy)
		for _, name := range []string{"P", "X", "C", chainID, "bootstrapped", "database", "diskspace", "network", "router"} {
			require.Contains(t, r.checks, name, "GET %s: checks %v", path, r.names())
		}
		for _, chain := range []string{"P", "X", "C"} {
			msg := jsonObject(t, member(t, r.checks[chain], "message", chain), chain+".message")
			requireKeys(t, msg, chain+".message", "engine", "networking")
		}
		// The plugin's own details: one entry per followed chain.
		details := avadataVMHealth(t, r)
		for _, chain := range []string{"P", "X", "C"} {
			d := jsonObject(t, member(t, details, chain, "vm.health"), "vm.health."+chain)
			jsonInteger(t, member(t, d, "indexedHeight", chain), chain+".indexedHeight")
			node := jsonInteger(t, member(t, d, "nodeHeight", chain), chain+".nodeHeight")
			lag := jsonInteger(t, member(t, d, "lag", chain), chain+".lag")
			require.LessOrEqual(t, lag, node, "%s: %s", chain, details[chain])
		}
	}
}

func TestNodeAPIHealthTagFilter(t *testing.T) {
	ctx := nodeAPIContext(t, 2*time.Minute)
	chainID := env.Net(t).ChainID().String()
	subnet := env.Net(t).SubnetID().String()
	primary := constants.PrimaryNetworkID.String()

	// A tag no check has: only the global checks remain.
	globals := waitHealthStatus(t, ctx, http.StatusOK, "/ext/health", ids.GenerateTestID().String()).names()
	for _, name := range []string{"bootstrapped", "database", "diskspace", "network", "router"} {
		require.Contains(t, globals, name)
	}
	for _, name := range []string{"P", "X", "C", chainID} {
		require.NotContains(t, globals, name)
	}
	with := func(names ...string) []string {
		return slices.Sorted(slices.Values(append(slices.Clone(globals), names...)))
	}

	for _, tc := range []struct {
		tags []string
		want []string
	}{
		{[]string{subnet}, with(chainID)},
		{[]string{primary}, with("P", "X", "C")},
		{[]string{subnet, primary}, with("P", "X", "C", chainID)}, // tag is repeatable
	} {
		for _, path := range []string{"/ext/health", "/ext/health/health"} {
			r := waitHealthStatus(t, ctx, http.StatusOK, path, tc.tags...)
			require.Equal(t, tc.want, r.names(), "GET %s tags %v", path, tc.tags)
		}
		r := rpcHealth(t, ctx, "health.health", map[string]any{"tags": tc.tags})
		require.Equal(t, tc.want, r.names(), "health.health tags %v", tc.tags)
	}
	details := avadataVMHealth(t, waitHealthStatus(t, ctx, http.StatusOK, "/ext/health", subnet))
	requireKeys(t, details, "vm.health", "P", "X", "C")
}

func TestNodeAPIHealthReadinessLiveness(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	// Readiness: the start-up checks only.
	_, ready := getHealth(t, ctx, "/ext/health/readiness")
	require.True(t, ready.healthy, "%s", ready.raw)
	require.Contains(t, ready.checks, "bootstrapped")
	require.NotContains(t, ready.checks, env.Net(t).ChainID().String())
	for _, params := range []any{nil, map[string]any{}, map[string]any{"tags": []string{env.Net(t).SubnetID().String()}}} {
		r := rpcHealth(t, ctx, "health.readiness", params)
		require.True(t, r.healthy, "%s", r.raw)
		require.Equal(t, ready.names(), r.names(), "health.readiness %v", params)
	}

	// Liveness: no checks, healthy as soon as the endpoint answers.
	status, _, body := harness.HTTPDo(t, ctx, http.MethodGet, env.URI(t)+"/ext/health/liveness", nil)
	require.Equal(t, http.StatusOK, status)
	require.JSONEq(t, `{"checks":{},"healthy":true}`, string(body))
	for _, params := range []any{nil, map[string]any{}} {
		require.JSONEq(t, `{"checks":{},"healthy":true}`, string(harness.CallRPC(t, ctx, extURL(t, "health"), "health.liveness", params)))
	}

	// health.health without tags: every check, as GET reports them.
	get := waitHealthStatus(t, ctx, http.StatusOK, "/ext/health")
	for _, params := range []any{nil, map[string]any{}, map[string]any{"tags": []string{}}} {
		r := rpcHealth(t, ctx, "health.health", params)
		require.Equal(t, get.names(), r.names(), "health.health %v", params)
	}
}

// TestNodeAPIHealthFailingCheck makes the avadata check fail (its P follower
// paused over avadata's own JSON-RPC) and checks the unhealthy side: 503 and
// healthy:false unfiltered, a failing check's fields, filtered results that
// stay healthy, and readiness and liveness staying 200.
func TestNodeAPIHealthFailingCheck(t *testing.T) {
	ctx := nodeAPIContext(t, 2*time.Minute)
	chainID := env.Net(t).ChainID().String()
	primary := constants.PrimaryNetworkID.String()
	avadataRPC := env.Base(t) + "/rpc"
	waitHealthStatus(t, ctx, http.StatusOK, "/ext/health")

	harness.CallRPC(t, ctx, avadataRPC, "avadata.pauseFollower", map[string]string{"chain": "P"})
	resumed := false
	t.Cleanup(func() {
		if !resumed {
			harness.CallRPC(t, nodeAPIContext(t, 30*time.Second), avadataRPC, "avadata.resumeFollower", map[string]string{"chain": "P"})
		}
	})

	for _, path := range []string{"/ext/health", "/ext/health/health"} {
		r := waitHealthStatus(t, ctx, http.StatusServiceUnavailable, path)
		require.False(t, r.healthy)
		check := r.checks[chainID]
		require.Contains(t, check, "error", "the avadata check must be the failing one: %s", r.raw)
		require.Contains(t, jsonString(t, check["error"], "error"), "follower P is stopped")
	}
	r := rpcHealth(t, ctx, "health.health", nil)
	require.False(t, r.healthy, "%s", r.raw)
	_, r = getHealth(t, ctx, "/ext/health", env.Net(t).SubnetID().String())
	require.False(t, r.healthy, "the subnet's filter includes the failing check: %s", r.raw)

	// Filtered to the primary network, the node is healthy.
	status, r := getHealth(t, ctx, "/ext/health", primary)
	require.Equal(t, http.StatusOK, status, "%s", r.raw)
	require.NotContains(t, r.checks, chainID)
	require.True(t, rpcHealth(t, ctx, "health.health", map[string]any{"tags": []string{primary}}).healthy)
	for _, path := range []string{"/ext/health/readiness", "/ext/health/liveness"} {
		status, r := getHealth(t, ctx, path)
		require.Equal(t, http.StatusOK, status, "GET %s while a chain check fails: %s", path, r.raw)
	}

	harness.CallRPC(t, ctx, avadataRPC, "avadata.resumeFollower", map[string]string{"chain": "P"})
	resumed = true
	r = waitHealthStatus(t, ctx, http.StatusOK, "/ext/health")
	require.NotContains(t, r.checks[chainID], "error")
}
