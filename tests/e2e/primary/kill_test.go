package primary

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api"
	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestPrimaryKillDuringCatchUpResumesExactly builds a backlog of blocks (on
// P, a rewarded delegation: a proposal block and its commit among them), makes
// avadata re-index it from genesis, kills the node with SIGKILL in the
// middle of that catch-up, restarts it, and checks that the finished index
// (TPS, every P and X tx with its UTXOs, balances) equals the one built
// without interruption, and the TPS the node's own blocks give.
func TestPrimaryKillDuringCatchUpResumesExactly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	config := harness.ChainConfig()
	config["batchSize"] = 1 // one block per commit: the longest catch-up
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(t.TempDir(), "node"),
		ChainConfig: config, ExtraFlags: harness.NodeFlags(),
	})
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()

	issuer := harness.NewTxIssuer(t, ctx, net.URI())
	issuer.IssueX(t, ctx, 120)
	issuer.IssueP(t, ctx, 60)
	// A rewarded delegation puts a proposal block and its commit in the
	// middle of the P-chain backlog.
	staking := delegateBriefly(t, ctx, issuer)
	issuer.IssueP(t, ctx, 60)
	issuer.IssueC(t, ctx, 4)
	heights := map[string]uint64{}
	for _, chain := range []string{"P", "X", "C"} {
		heights[chain] = truth.Height(t, ctx, net.URI(), chain)
	}
	base := net.ChainURL()
	harness.WaitIndexed(t, ctx, base, heights)
	uninterrupted := tpsByChain(t, ctx, base)
	addrs := ewoqAndDest(t, issuer)
	uninterruptedPrimary := primarySnapshot(t, ctx, base, addrs)
	requireRewardListed(t, uninterruptedPrimary, staking)

	killed := false
	for attempt := 1; attempt <= 3 && !killed; attempt++ {
		require.NoError(t, net.Stop(ctx))
		harness.RemoveIndex(t, net.DataDir())
		killed = harness.RestartAndKillMidCatchUp(t, ctx, net, base, heights)
		t.Logf("attempt %d: killed during catch-up: %v", attempt, killed)
	}
	require.True(t, killed, "never caught avadata in the middle of catching up")

	require.NoError(t, net.Restart(ctx))
	harness.WaitIndexed(t, ctx, base, heights)
	resumed := tpsByChain(t, ctx, base)
	require.Equal(t, uninterrupted, resumed)
	require.Equal(t, uninterruptedPrimary, primarySnapshot(t, ctx, base, addrs),
		"P/X txs, UTXOs and balances after a kill -9 in the middle of catching up")
	for chain, h := range heights {
		want := expectedTPS(nodeBlocks(t, ctx, net.URI(), chain, h))
		require.Len(t, resumed[chain], len(want), chain)
		for i := range want {
			require.Equal(t, want[i].Timestamp, resumed[chain][i].Timestamp, chain)
			require.InDelta(t, want[i].Value, resumed[chain][i].Value, 1e-12, chain)
		}
	}
}

// delegateBriefly delegates EWOQ's AVAX to a genesis validator for a few
// seconds past the minimum staking period and waits until the node has
// rewarded it, so the chain holds a Banff proposal block (the
// RewardValidatorTx) and its commit block, with reward UTXOs that only the
// node's getRewardUTXOs shows. It returns the delegation tx ID.
func delegateBriefly(t *testing.T, ctx context.Context, x *harness.TxIssuer) ids.ID {
	t.Helper()
	platform := platformvm.NewClient(x.URI)
	vals, err := platform.GetCurrentValidators(ctx, constants.PrimaryNetworkID, nil)
	require.NoError(t, err)
	var node ids.NodeID
	for _, v := range vals {
		if time.Unix(int64(v.EndTime), 0).After(time.Now().Add(time.Hour)) {
			node = v.NodeID
			break
		}
	}
	require.NotEqual(t, ids.EmptyNodeID, node, "no validator lasting an hour")
	p := x.Wallet.P()
	// harness.NodeFlags sets a 20 s minimum staking period.
	end := time.Now().Add(25 * time.Second)
	owner := x.Owner()
	tx, err := p.IssueAddPermissionlessDelegatorTx(&txs.SubnetValidator{
		Validator: txs.Validator{NodeID: node, Start: uint64(time.Now().Unix()), End: uint64(end.Unix()), Wght: 25 * units.Avax},
		Subnet:    constants.PrimaryNetworkID,
	}, p.Builder().Context().AVAXAssetID, &owner, x.Opts(ctx)...)
	require.NoError(t, err, "delegating")
	for {
		rewards, err := platform.GetRewardUTXOs(ctx, &api.GetTxArgs{TxID: tx.ID()})
		require.NoError(t, err)
		if len(rewards) > 0 {
			return tx.ID()
		}
		select {
		case <-ctx.Done():
			t.Fatalf("delegation %s never rewarded: %v", tx.ID(), ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// primaryIndexSnapshot is what avadata serves of the P- and X-chain:
// every tx of each chain (page by page) and EWOQ's and the issuer's
// balances.
type primaryIndexSnapshot struct {
	Txs      map[string][]json.RawMessage
	Balances map[string]json.RawMessage
}

func primarySnapshot(t *testing.T, ctx context.Context, base string, addrs []string) primaryIndexSnapshot {
	t.Helper()
	snap := primaryIndexSnapshot{Txs: map[string][]json.RawMessage{}, Balances: map[string]json.RawMessage{}}
	for _, chain := range []string{"p-chain", "x-chain"} {
		list := base + "/v1/networks/" + primaryNetwork + "/blockchains/" + chain + "/transactions"
		snap.Txs[chain] = harness.PageThrough(t, ctx, list, "transactions", 100)
		for _, addr := range addrs {
			q := url.Values{"addresses": {addr}, "blockTimestamp": {"4102444800"}} // 2100: the same "now" both times
			r := harness.Get(t, ctx, base+"/v1/networks/"+primaryNetwork+"/blockchains/"+chain+"/balances?"+q.Encode())
			require.Equal(t, 200, r.Status, "%s balances of %s: %s", chain, addr, r.Body)
			snap.Balances[chain+" "+addr] = json.RawMessage(r.Body)
		}
	}
	return snap
}

// requireRewardListed checks that the P-chain listing holds the
// RewardValidatorTx of the staking tx: the catch-up went through a proposal
// block and its option.
func requireRewardListed(t *testing.T, snap primaryIndexSnapshot, staking ids.ID) {
	t.Helper()
	for _, raw := range snap.Txs["p-chain"] {
		var tx struct {
			TxType        string `json:"txType"`
			StakingTxHash string `json:"stakingTxHash"`
		}
		require.NoError(t, json.Unmarshal(raw, &tx))
		if tx.TxType == "RewardValidatorTx" && tx.StakingTxHash == staking.String() {
			return
		}
	}
	t.Fatalf("no RewardValidatorTx of %s among %d P-chain txs", staking, len(snap.Txs["p-chain"]))
}

// ewoqAndDest are the addresses whose balances the crash test compares.
func ewoqAndDest(t *testing.T, x *harness.TxIssuer) []string {
	t.Helper()
	hrp := constants.GetHRP(constants.LocalID)
	out := []string{}
	for _, a := range []ids.ShortID{genesis.EWOQKey.Address(), x.Dest} {
		s, err := address.FormatBech32(hrp, a.Bytes())
		require.NoError(t, err)
		out = append(out, s)
	}
	return out
}

// tpsByChain reads every chain's avg TPS results.
func tpsByChain(t *testing.T, ctx context.Context, base string) map[string][]tpsResult {
	t.Helper()
	out := map[string][]tpsResult{}
	for chain, id := range map[string]string{"P": "p-chain", "X": "x-chain", "C": "c-chain"} {
		r := harness.Get(t, ctx, base+"/metrics/v1/avg_tps/"+id)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", chain, r.Body)
		var body struct {
			Results []tpsResult `json:"results"`
		}
		r.Decode(t, &body)
		out[chain] = body.Results
	}
	return out
}
