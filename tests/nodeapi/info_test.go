package nodeapi

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/staking"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/version"
	"github.com/ava-labs/avalanchego/vms/platformvm/signer"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/vm"
)

// End-to-end checks of avalanchego's info API on the node hosting avadata.

// avadataVMID is the avadata VM's ID, the plugin's file name.
const avadataVMID = "jvYiSef3EbLnfxvPEBXrjsHRrNoQBb4v7naspNVhz5GzZ42qj"

// infoResult calls an info method and returns its result object, whose
// keys must be exactly keys.
func infoResult(t *testing.T, ctx context.Context, method string, params any, keys ...string) map[string]json.RawMessage {
	t.Helper()
	obj := jsonObject(t, harness.CallRPC(t, ctx, extURL(t, "info"), method, params), method)
	requireExactKeys(t, obj, method, keys...)
	return obj
}

func TestNodeAPIInfoNetwork(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	// networkID: an integer in the table; the node writes it as a decimal
	// string, like the samples' 64-bit fields.
	for _, params := range []any{nil, map[string]any{}} {
		obj := infoResult(t, ctx, "info.getNetworkID", params, "networkID")
		require.EqualValues(t, constants.LocalID, jsonDecimalString(t, obj["networkID"], "networkID"))
		obj = infoResult(t, ctx, "info.getNetworkName", params, "networkName")
		require.Equal(t, constants.LocalName, jsonString(t, obj["networkName"], "networkName"))
	}
}

func TestNodeAPIInfoGetBlockchainID(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	g := readLocalGenesis(t)
	for alias, want := range map[string]ids.ID{
		"X": g.xChainID, "avm": g.xChainID, g.xChainID.String(): g.xChainID,
		"P": constants.PlatformChainID, "platform": constants.PlatformChainID,
		"C": g.cChainID, "evm": g.cChainID,
		"data": env.Net(t).ChainID(),
	} {
		obj := infoResult(t, ctx, "info.getBlockchainID", map[string]string{"alias": alias}, "blockchainID")
		require.Equal(t, want.String(), jsonString(t, obj["blockchainID"], "blockchainID"), "alias %q", alias)
	}
	harness.CallRPCError(t, ctx, extURL(t, "info"), "info.getBlockchainID", map[string]string{"alias": "no-such-chain"})
}

func TestNodeAPIInfoIsBootstrapped(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	g := readLocalGenesis(t)
	for _, chain := range []string{"P", "X", "C", g.xChainID.String(), env.Net(t).ChainID().String(), "data"} {
		obj := infoResult(t, ctx, "info.isBootstrapped", map[string]string{"chain": chain}, "isBootstrapped")
		require.True(t, jsonBool(t, obj["isBootstrapped"], "isBootstrapped"), "chain %s", chain)
	}
	e := harness.CallRPCError(t, ctx, extURL(t, "info"), "info.isBootstrapped", map[string]string{"chain": ids.GenerateTestID().String()})
	require.Contains(t, e.Message, "no chain")
	e = harness.CallRPCError(t, ctx, extURL(t, "info"), "info.isBootstrapped", map[string]string{})
	require.Contains(t, e.Message, "chain")
}

func TestNodeAPIInfoGetNodeID(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	obj := infoResult(t, ctx, "info.getNodeID", nil, "nodeID", "nodePOP")
	nodeID := jsonString(t, obj["nodeID"], "nodeID")
	require.True(t, strings.HasPrefix(nodeID, "NodeID-"), nodeID)

	pop := jsonObject(t, obj["nodePOP"], "nodePOP")
	requireExactKeys(t, pop, "nodePOP", "publicKey", "proofOfPossession")
	pk := hexBytes(t, jsonString(t, pop["publicKey"], "publicKey"), "publicKey")
	require.Len(t, pk, bls.PublicKeyLen, "publicKey: 48-byte BLS key")
	sig := hexBytes(t, jsonString(t, pop["proofOfPossession"], "proofOfPossession"), "proofOfPossession")
	require.Len(t, sig, bls.SignatureLen, "proofOfPossession: 96-byte BLS signature")
	var parsed signer.ProofOfPossession
	require.NoError(t, json.Unmarshal(obj["nodePOP"], &parsed))
	require.NoError(t, parsed.Verify(), "the proof of possession must verify against the public key")

	// Ground truth: the node's staking certificate and BLS key on disk.
	stakingDir := filepath.Join(env.Net(t).DataDir(), "staking")
	certPEM, err := os.ReadFile(filepath.Join(stakingDir, "staker.crt"))
	require.NoError(t, err)
	block, _ := pem.Decode(certPEM)
	require.NotNil(t, block, "staker.crt is not PEM")
	cert, err := staking.ParseCertificate(block.Bytes)
	require.NoError(t, err)
	require.Equal(t, ids.NodeIDFromCert(cert).String(), nodeID)
	blsKey, err := localsigner.FromFile(filepath.Join(stakingDir, "signer.key"))
	require.NoError(t, err)
	require.Equal(t, bls.PublicKeyToCompressedBytes(blsKey.PublicKey()), pk)
}

// hexBytes decodes a hex string with or without the 0x prefix.
func hexBytes(t *testing.T, s, what string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	require.NoError(t, err, "%s: not hex: %q", what, s)
	return b
}

func TestNodeAPIInfoGetNodeIP(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	obj := infoResult(t, ctx, "info.getNodeIP", nil, "ip")
	ip := jsonString(t, obj["ip"], "ip")
	ap, err := netip.ParseAddrPort(ip)
	require.NoError(t, err, "ip %q is not host:port", ip)
	// The node runs with --public-ip=127.0.0.1; the port is the staking
	// port, not the HTTP one.
	require.Equal(t, "127.0.0.1", ap.Addr().String())
	require.NotZero(t, ap.Port())
	require.NotContains(t, env.URI(t), ":"+strconv.Itoa(int(ap.Port())), "ip must give the staking port")
}

func TestNodeAPIInfoGetNodeVersion(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	obj := infoResult(t, ctx, "info.getNodeVersion", nil,
		"version", "databaseVersion", "gitCommit", "rpcProtocolVersion", "vmVersions")
	v := jsonString(t, obj["version"], "version")
	require.Contains(t, v, "avalanchego/1.14.2")
	require.Equal(t, version.Current.String(), v)
	require.Equal(t, version.CurrentDatabase, jsonString(t, obj["databaseVersion"], "databaseVersion"))
	jsonString(t, obj["gitCommit"], "gitCommit") // empty for a node built from the module cache
	require.Equal(t, "45", jsonString(t, obj["rpcProtocolVersion"], "rpcProtocolVersion"))
	require.EqualValues(t, version.RPCChainVMProtocol, jsonDecimalString(t, obj["rpcProtocolVersion"], "rpcProtocolVersion"))

	vmVersions := jsonObject(t, obj["vmVersions"], "vmVersions")
	for _, name := range []string{"avm", "evm", "platform"} {
		require.NotEmpty(t, jsonString(t, member(t, vmVersions, name, "vmVersions"), name))
	}
	// A plugin VM without an alias is listed under its VM ID.
	require.Equal(t, vm.Version, jsonString(t, member(t, vmVersions, avadataVMID, "vmVersions"), "avadata version"))
}

func TestNodeAPIInfoGetVMs(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	require.Equal(t, avadataVMID, vm.ID.String())
	// The API reference gives {vms}; the node adds fxs (feature extension ID
	// -> name).
	obj := infoResult(t, ctx, "info.getVMs", nil, "vms", "fxs")
	vms := map[string][]string{}
	for id, aliases := range jsonObject(t, obj["vms"], "vms") {
		vms[id] = jsonStrings(t, aliases, "vms."+id)
	}
	require.Equal(t, []string{"avm"}, vms[constants.AVMID.String()])
	require.Equal(t, []string{"evm"}, vms[constants.EVMID.String()])
	require.Equal(t, []string{"platform"}, vms[constants.PlatformVMID.String()])
	require.Contains(t, vms, avadataVMID)
	for id, name := range jsonObject(t, obj["fxs"], "fxs") {
		require.NotEmpty(t, jsonString(t, name, "fxs."+id))
	}
}

func TestNodeAPIInfoGetTxFee(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	keys := []string{
		"txFee", "createAssetTxFee", "createSubnetTxFee", "transformSubnetTxFee", "createBlockchainTxFee",
		"addPrimaryNetworkValidatorFee", "addPrimaryNetworkDelegatorFee", "addSubnetValidatorFee", "addSubnetDelegatorFee",
	}
	obj := infoResult(t, ctx, "info.getTxFee", nil, keys...)
	for _, k := range keys {
		jsonDecimalString(t, obj[k], k)
	}
	// txFee and createAssetTxFee are the X-chain's, as avm.getTxFee says.
	x := jsonObject(t, harness.CallRPC(t, ctx, extURL(t, "bc/X"), "avm.getTxFee", nil), "avm.getTxFee")
	require.Equal(t, jsonDecimalString(t, x["txFee"], "avm txFee"), jsonDecimalString(t, obj["txFee"], "txFee"))
	require.Equal(t, jsonDecimalString(t, x["createAssetTxFee"], "avm createAssetTxFee"),
		jsonDecimalString(t, obj["createAssetTxFee"], "createAssetTxFee"))
	require.Positive(t, jsonDecimalString(t, obj["txFee"], "txFee"))
}

func TestNodeAPIInfoPeers(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	self := jsonString(t, infoResult(t, ctx, "info.getNodeID", nil, "nodeID", "nodePOP")["nodeID"], "nodeID")
	for _, params := range []any{
		nil,
		map[string]any{},
		map[string]any{"nodeIDs": []string{}},
		// Not connected: omitted rather than an error.
		map[string]any{"nodeIDs": []string{ids.GenerateTestNodeID().String()}},
		map[string]any{"nodeIDs": []string{self}}, // a node is not its own peer
	} {
		obj := infoResult(t, ctx, "info.peers", params, "numPeers", "peers")
		// A single node has no peers. numPeers is written as a decimal string.
		require.Zero(t, jsonDecimalString(t, obj["numPeers"], "numPeers"), "params %v", params)
		require.Empty(t, jsonArray(t, obj["peers"], "peers"), "params %v", params)
	}
}

func TestNodeAPIInfoUptime(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	// The percentages come as decimal strings with four fraction digits.
	percent := regexp.MustCompile(`^[0-9]+\.[0-9]{4}$`)
	var first map[string]json.RawMessage
	for _, params := range []any{
		nil,
		map[string]any{},
		// v1.14.2's info.uptime takes no arguments: a subnetID (even one
		// that is no subnet) is ignored and the primary network's uptime
		// comes back.
		map[string]any{"subnetID": env.Net(t).SubnetID().String()},
		map[string]any{"subnetID": constants.PrimaryNetworkID.String()},
		map[string]any{"subnetID": ids.GenerateTestID().String()},
	} {
		obj := infoResult(t, ctx, "info.uptime", params, "rewardingStakePercentage", "weightedAveragePercentage")
		for _, k := range []string{"rewardingStakePercentage", "weightedAveragePercentage"} {
			s := jsonString(t, obj[k], k)
			require.Regexp(t, percent, s, k)
			f, err := strconv.ParseFloat(s, 64)
			require.NoError(t, err)
			// With sybil protection off the node is the only primary-network
			// validator, so all the stake (its own) sees it up.
			require.InDelta(t, 100.0, f, 1e-9, "%s with params %v", k, params)
		}
		if first == nil {
			first = obj
		}
		require.Equal(t, first, obj, "params %v", params)
	}
}

func TestNodeAPIInfoUpgrades(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	raw := harness.CallRPC(t, ctx, extURL(t, "info"), "info.upgrades", nil)
	obj := jsonObject(t, raw, "info.upgrades")
	for _, k := range []string{
		"apricotPhase1Time", "apricotPhase2Time", "apricotPhase3Time", "apricotPhase4Time", "apricotPhase5Time",
		"apricotPhasePre6Time", "apricotPhase6Time", "apricotPhasePost6Time", "banffTime", "cortinaTime",
		"durangoTime", "etnaTime", "fortunaTime", "graniteTime",
	} {
		jsonTime(t, member(t, obj, k, "info.upgrades"), k)
	}
	jsonInteger(t, member(t, obj, "apricotPhase4MinPChainHeight", "info.upgrades"), "apricotPhase4MinPChainHeight")
	_, err := ids.FromString(jsonString(t, member(t, obj, "cortinaXChainStopVertexID", "info.upgrades"), "cortinaXChainStopVertexID"))
	require.NoError(t, err)

	// The values are the local network's schedule.
	var got upgrade.Config
	require.NoError(t, json.Unmarshal(raw, &got))
	require.Equal(t, upgrade.GetConfig(constants.LocalID), got, "%s", raw)
}

func TestNodeAPIInfoACPs(t *testing.T) {
	ctx := nodeAPIContext(t, time.Minute)
	obj := infoResult(t, ctx, "info.acps", nil, "acps")
	acps := jsonObject(t, obj["acps"], "acps")
	// Without peers the map holds just the ACPs this node version counts
	// as current, each with all the weight abstaining.
	got := make([]string, 0, len(acps))
	for num, raw := range acps {
		got = append(got, num)
		_, err := strconv.ParseUint(num, 10, 32)
		require.NoError(t, err, "acps key %q is not a uint32", num)
		acp := jsonObject(t, raw, "acp "+num)
		requireExactKeys(t, acp, "acp "+num, "supportWeight", "supporters", "objectWeight", "objectors", "abstainWeight")
		for _, k := range []string{"supportWeight", "objectWeight", "abstainWeight"} {
			jsonDecimalString(t, acp[k], k)
		}
		jsonStrings(t, acp["supporters"], "supporters")
		jsonStrings(t, acp["objectors"], "objectors")
	}
	want := make([]string, 0, constants.CurrentACPs.Len())
	for num := range constants.CurrentACPs {
		want = append(want, strconv.FormatUint(uint64(num), 10))
	}
	require.ElementsMatch(t, want, got, "acps: %s", obj["acps"])
}
