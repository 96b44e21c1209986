package nodeapi

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// End-to-end checks of avalanchego's admin API on the node hosting avadata
// (started with --api-admin-enabled=true). Info: info_test.go; health:
// health_test.go; X-chain: avm_test.go.

// logLevelNames are the level names the node accepts and reports.
var logLevelNames = []string{"VERBO", "DEBUG", "TRACE", "INFO", "WARN", "ERROR", "FATAL", "OFF"}

// localGenesis is what the local network's genesis fixes: the X- and
// C-chain IDs and the AVAX asset ID, computed here from the genesis the
// node itself is built with, independently of the node's answers.
type localGenesis struct {
	xChainID, cChainID, avaxAssetID ids.ID
}

func readLocalGenesis(t *testing.T) localGenesis {
	t.Helper()
	genesisBytes, avaxAssetID, err := genesis.FromConfig(genesis.GetConfig(constants.LocalID))
	require.NoError(t, err)
	xTx, err := genesis.VMGenesis(genesisBytes, constants.AVMID)
	require.NoError(t, err)
	cTx, err := genesis.VMGenesis(genesisBytes, constants.EVMID)
	require.NoError(t, err)
	return localGenesis{xChainID: xTx.ID(), cChainID: cTx.ID(), avaxAssetID: avaxAssetID}
}

// chainAliases is admin.getChainAliases' result for chain.
func chainAliases(t *testing.T, ctx context.Context, chain string) []string {
	t.Helper()
	obj := jsonObject(t, harness.CallRPC(t, ctx, extURL(t, "admin"), "admin.getChainAliases", map[string]string{"chain": chain}), "admin.getChainAliases")
	requireExactKeys(t, obj, "admin.getChainAliases", "aliases")
	return jsonStrings(t, obj["aliases"], "aliases")
}

func TestNodeAPIAdminAlias(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	admin := extURL(t, "admin")
	alias := "info-" + uniqueSuffix()
	requireEmptyObject(t, harness.CallRPC(t, ctx, admin, "admin.alias", map[string]string{"endpoint": "info", "alias": alias}), "admin.alias")

	// The API answers under the alias, and still under its original path.
	for _, path := range []string{alias, "info"} {
		obj := jsonObject(t, harness.CallRPC(t, ctx, extURL(t, path), "info.getNetworkName", nil), path)
		require.Equal(t, "local", jsonString(t, obj["networkName"], "networkName"), "POST /ext/%s", path)
	}

	// Alias length: 512 characters is the limit.
	long := alias + "-" + strings.Repeat("a", 512-len(alias)-1)
	require.Len(t, long, 512)
	requireEmptyObject(t, harness.CallRPC(t, ctx, admin, "admin.alias", map[string]string{"endpoint": "info", "alias": long}), "admin.alias 512")
	jsonObject(t, harness.CallRPC(t, ctx, extURL(t, long), "info.getNetworkID", nil), "via 512-character alias")
	e := harness.CallRPCError(t, ctx, admin, "admin.alias", map[string]string{"endpoint": "info", "alias": long + "b"})
	require.Contains(t, e.Message, "too long")

	// An alias already taken is refused.
	e = harness.CallRPCError(t, ctx, admin, "admin.alias", map[string]string{"endpoint": "health", "alias": alias})
	require.Contains(t, e.Message, "already")
}

func TestNodeAPIAdminAliasChain(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	g := readLocalGenesis(t)
	admin := extURL(t, "admin")

	// The X-chain under a new alias: its API, and every lookup by ID.
	xAlias := "x-" + uniqueSuffix()
	requireEmptyObject(t, harness.CallRPC(t, ctx, admin, "admin.aliasChain",
		map[string]string{"chain": g.xChainID.String(), "alias": xAlias}), "admin.aliasChain X")
	jsonDecimalString(t, jsonObject(t, harness.CallRPC(t, ctx, extURL(t, "bc/"+xAlias), "avm.getHeight", nil), "avm.getHeight")["height"],
		"avm.getHeight via alias")
	require.Contains(t, chainAliases(t, ctx, g.xChainID.String()), xAlias)
	obj := jsonObject(t, harness.CallRPC(t, ctx, extURL(t, "info"), "info.getBlockchainID", map[string]string{"alias": xAlias}), "info.getBlockchainID")
	require.Equal(t, g.xChainID.String(), jsonString(t, obj["blockchainID"], "blockchainID"))
	obj = jsonObject(t, harness.CallRPC(t, ctx, extURL(t, "info"), "info.isBootstrapped", map[string]string{"chain": xAlias}), "info.isBootstrapped")
	require.True(t, jsonBool(t, obj["isBootstrapped"], "isBootstrapped"))

	// The avadata chain under a second alias (its own "data" is left alone).
	chainID := env.Net(t).ChainID().String()
	dAlias := "avadata-" + uniqueSuffix()
	requireEmptyObject(t, harness.CallRPC(t, ctx, admin, "admin.aliasChain",
		map[string]string{"chain": chainID, "alias": dAlias}), "admin.aliasChain avadata")
	status, _, body := harness.HTTPDo(t, ctx, http.MethodGet, extURL(t, "bc/"+dAlias+"/v1/status"), nil)
	require.Equal(t, http.StatusOK, status, "GET /ext/bc/%s/v1/status: %s", dAlias, body)
	requireKeys(t, jsonObject(t, body, "avadata status via alias"), "avadata status", "chains")
	aliases := chainAliases(t, ctx, chainID)
	for _, want := range []string{chainID, "data", dAlias} {
		require.Contains(t, aliases, want)
	}

	// A chain that does not exist cannot be aliased.
	e := harness.CallRPCError(t, ctx, admin, "admin.aliasChain", map[string]string{"chain": ids.GenerateTestID().String(), "alias": "nochain-" + uniqueSuffix()})
	require.NotEmpty(t, e.Message)
}

func TestNodeAPIAdminGetChainAliases(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	g := readLocalGenesis(t)
	for _, tc := range []struct {
		chain ids.ID
		want  []string
	}{
		{constants.PlatformChainID, []string{"P", "platform"}},
		{g.xChainID, []string{"X", "avm"}},
		{g.cChainID, []string{"C", "evm"}},
		{env.Net(t).ChainID(), []string{"data"}},
	} {
		aliases := chainAliases(t, ctx, tc.chain.String())
		for _, want := range append(tc.want, tc.chain.String()) {
			require.Contains(t, aliases, want, "aliases of %s", tc.chain)
		}
	}
	// The parameter is a blockchain ID; an alias is not looked up.
	e := harness.CallRPCError(t, ctx, extURL(t, "admin"), "admin.getChainAliases", map[string]string{"chain": "X"})
	require.NotEmpty(t, e.Message)
}

// loggerLevels decodes an admin.getLoggerLevel/setLoggerLevel result:
// {loggerLevels: name -> {logLevel, displayLevel}}.
func loggerLevels(t *testing.T, raw json.RawMessage, what string) map[string][2]string {
	t.Helper()
	obj := jsonObject(t, raw, what)
	requireExactKeys(t, obj, what, "loggerLevels")
	out := map[string][2]string{}
	for name, lv := range jsonObject(t, obj["loggerLevels"], what+".loggerLevels") {
		levels := jsonObject(t, lv, what+"."+name)
		requireExactKeys(t, levels, what+"."+name, "logLevel", "displayLevel")
		logLevel := jsonString(t, levels["logLevel"], name+".logLevel")
		displayLevel := jsonString(t, levels["displayLevel"], name+".displayLevel")
		require.Contains(t, logLevelNames, logLevel, "%s: %s", what, raw)
		require.Contains(t, logLevelNames, displayLevel, "%s: %s", what, raw)
		out[name] = [2]string{logLevel, displayLevel}
	}
	return out
}

func TestNodeAPIAdminLoggerLevel(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	admin := extURL(t, "admin")
	get := func(params any) map[string][2]string {
		t.Helper()
		return loggerLevels(t, harness.CallRPC(t, ctx, admin, "admin.getLoggerLevel", params), "admin.getLoggerLevel")
	}
	set := func(params map[string]string) map[string][2]string {
		t.Helper()
		return loggerLevels(t, harness.CallRPC(t, ctx, admin, "admin.setLoggerLevel", params), "admin.setLoggerLevel")
	}

	// loggerName omitted: every logger, the same whichever way it is omitted.
	all := get(nil)
	for _, name := range []string{"main", "P", "X", "C", env.Net(t).ChainID().String()} {
		require.Contains(t, all, name, "loggers: %v", all)
	}
	require.Equal(t, all, get(map[string]string{}))
	require.Equal(t, all, get(map[string]string{"loggerName": ""}))
	require.Equal(t, map[string][2]string{"X": all["X"]}, get(map[string]string{"loggerName": "X"}))
	harness.CallRPCError(t, ctx, admin, "admin.getLoggerLevel", map[string]string{"loggerName": "no-such-logger"})

	t.Cleanup(func() { // put every logger back as it was
		ctx := nodeAPIContext(t, 30*time.Second)
		for name, lv := range all {
			harness.CallRPC(t, ctx, admin, "admin.setLoggerLevel",
				map[string]string{"loggerName": name, "logLevel": lv[0], "displayLevel": lv[1]})
		}
	})

	// One logger's log level, then its display level; read back each time.
	// The API reference gives the result as {}; the node returns the levels
	// of the loggers it changed (the getLoggerLevel shape).
	x := all["X"]
	require.Equal(t, map[string][2]string{"X": {"DEBUG", x[1]}}, set(map[string]string{"loggerName": "X", "logLevel": "DEBUG"}))
	require.Equal(t, [2]string{"DEBUG", x[1]}, get(map[string]string{"loggerName": "X"})["X"])
	require.Equal(t, map[string][2]string{"X": {"DEBUG", "WARN"}}, set(map[string]string{"loggerName": "X", "displayLevel": "WARN"}))
	require.Equal(t, [2]string{"DEBUG", "WARN"}, get(map[string]string{"loggerName": "X"})["X"])
	require.Equal(t, all["P"], get(map[string]string{"loggerName": "P"})["P"], "other loggers untouched")

	// loggerName omitted: every logger.
	changed := set(map[string]string{"displayLevel": "ERROR"})
	require.Len(t, changed, len(all))
	for name, lv := range get(nil) {
		require.Equal(t, "ERROR", lv[1], "display level of %s", name)
		require.Equal(t, changed[name], lv, name)
	}

	// Not both levels omitted; only known level names.
	for _, params := range []map[string]string{{}, {"loggerName": "X"}} {
		e := harness.CallRPCError(t, ctx, admin, "admin.setLoggerLevel", params)
		require.Contains(t, e.Message, "displayLevel or logLevel")
	}
	harness.CallRPCError(t, ctx, admin, "admin.setLoggerLevel", map[string]string{"loggerName": "X", "logLevel": "LOUD"})
}

func TestNodeAPIAdminLoadVMs(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	for range 2 {
		raw := harness.CallRPC(t, ctx, extURL(t, "admin"), "admin.loadVMs", nil)
		obj := jsonObject(t, raw, "admin.loadVMs")
		// failedVMs appears only when a VM fails to load; none does here.
		requireExactKeys(t, obj, "admin.loadVMs", "newVMs")
		// Every VM in the plugin dir (avadata's) was loaded at start-up,
		// so a reload finds nothing new.
		newVMs := jsonObject(t, obj["newVMs"], "newVMs")
		for id, aliases := range newVMs {
			jsonStrings(t, aliases, "newVMs."+id)
		}
		require.Empty(t, newVMs, "%s", raw)
	}
	// The avadata VM is still registered.
	vms := jsonObject(t, jsonObject(t, harness.CallRPC(t, ctx, extURL(t, "info"), "info.getVMs", nil), "info.getVMs")["vms"], "vms")
	require.Contains(t, vms, avadataVMID)
}

func TestNodeAPIAdminProfiles(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	admin := extURL(t, "admin")
	// The node writes profiles to --profile-dir, <data-dir>/profiles by default.
	dir := filepath.Join(env.Net(t).DataDir(), "profiles")
	requireWritten := func(name string, since time.Time) {
		t.Helper()
		fi, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err, "profile %s", name)
		require.Positive(t, fi.Size(), "%s is empty", name)
		require.False(t, fi.ModTime().Before(since), "%s not rewritten (mtime %s, call at %s)", name, fi.ModTime(), since)
	}
	// Whole-second slack: file mtimes may be coarser than the clock.
	since := time.Now().Add(-time.Second)

	requireEmptyObject(t, harness.CallRPC(t, ctx, admin, "admin.lockProfile", nil), "admin.lockProfile")
	requireWritten("lock.profile", since)
	requireEmptyObject(t, harness.CallRPC(t, ctx, admin, "admin.memoryProfile", nil), "admin.memoryProfile")
	requireWritten("mem.profile", since)

	requireEmptyObject(t, harness.CallRPC(t, ctx, admin, "admin.startCPUProfiler", nil), "admin.startCPUProfiler")
	t.Cleanup(func() { // never leave the profiler running for later tests
		_, _ = harness.PostRPC(t, nodeAPIContext(t, 10*time.Second), admin, "admin.stopCPUProfiler", nil)
	})
	e := harness.CallRPCError(t, ctx, admin, "admin.startCPUProfiler", nil)
	require.Contains(t, e.Message, "already running")
	requireEmptyObject(t, harness.CallRPC(t, ctx, admin, "admin.stopCPUProfiler", nil), "admin.stopCPUProfiler")
	requireWritten("cpu.profile", since)
	e = harness.CallRPCError(t, ctx, admin, "admin.stopCPUProfiler", nil)
	require.Contains(t, e.Message, "doesn't exist")

	// The API reference names the files; nothing else lands in the profile dir.
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	names := make([]string, 0, len(entries))
	for _, en := range entries {
		names = append(names, en.Name())
	}
	slices.Sort(names)
	require.Equal(t, []string{"cpu.profile", "lock.profile", "mem.profile"}, names)
}
