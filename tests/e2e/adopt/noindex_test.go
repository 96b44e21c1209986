//go:build e2e

package adopt

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/scripts/seed"
	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// noIndexTimeout bounds the whole test: a node start, the seeding, the
// indexing and the checks.
const noIndexTimeout = 8 * time.Minute

// TestAdoptWithoutIndexAPI runs avadata on a node started without
// --index-enabled. The P- and X-chain followers then read
// platform/avm.getBlockByHeight: after real X, X→P, P→C and C activity (the
// seeder's), every P and X block, tx, balance and UTXO avadata serves is
// checked against the node's own APIs; the proposer details are omitted,
// /v1/status names what cannot be known and the flag, and the operations
// that need the index API answer a 400 naming it.
func TestAdoptWithoutIndexAPI(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), noIndexTimeout)
	defer cancel()
	began := time.Now()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	flags := harness.NodeFlags()
	flags["index-enabled"] = "false"
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(t.TempDir(), "node"),
		ChainConfig: harness.ChainConfig(), ExtraFlags: flags,
	})
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()
	uri, base := net.URI(), net.ChainURL()
	t.Logf("node up without the index API in %v", time.Since(began).Round(time.Millisecond))

	// The node really serves no index API.
	status, _, err := harness.HTTPGet(ctx, uri+"/ext/index/P/block")
	require.NoError(t, err)
	require.Equal(t, http.StatusNotFound, status, "the node serves no index API")

	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	harness.FundOnX(t, ctx, uri, key, seed.SeedXAVAX)
	s, err := seed.Run(ctx, seed.Config{URI: uri, BaseURL: base, Key: key, Logf: t.Logf})
	require.NoError(t, err, "seeding")
	rewardee := delegateAndWaitReward(t, ctx, uri)
	heights := map[string]uint64{"P": truth.Height(t, ctx, uri, "P"), "X": truth.Height(t, ctx, uri, "X"), "C": s.Heights["C"]}
	harness.WaitIndexed(t, ctx, base, heights)
	t.Logf("seeded, delegated, rewarded and indexed after %v (heights %v)", time.Since(began).Round(time.Millisecond), heights)

	c := &noIndexCheck{uri: uri, api: base + "/v1/networks/" + s.Network + "/blockchains/"}
	for _, chain := range []string{"P", "X"} {
		t.Run(chain+" blocks", func(t *testing.T) { c.blocks(t, ctx, chain, heights[chain]) })
	}
	t.Run("txs", func(t *testing.T) {
		seeded := map[ids.ID]bool{}
		for _, tx := range s.PrimaryTxs {
			if tx.Chain != "C" {
				seeded[tx.ID] = true
			}
		}
		// Every tx of every block; the seeded ones (base, import, export)
		// also UTXO by UTXO.
		for _, chain := range []string{"P", "X"} {
			for h := uint64(1); h <= heights[chain]; h++ {
				for _, id := range truth.SnowmanBlockTxs(t, ctx, uri, chain, h).TxIDs {
					c.tx(t, ctx, chain, id, seeded[id])
					delete(seeded, id)
				}
			}
		}
		require.Empty(t, seeded, "every seeded P/X tx is in a block")
	})
	t.Run("balances and UTXOs", func(t *testing.T) {
		avax := c.avaxID(t, ctx)
		c.balances(t, ctx, "P", s.Sender.P, avax, true)
		c.balances(t, ctx, "X", s.Sender.X, avax, true)
		c.balances(t, ctx, "X", s.Recipient.X, avax, true)
		c.balances(t, ctx, "P", s.Recipient.P, avax, false)
		// The delegation's rewards owner: what the reward tx (a proposal
		// block's, decided by its option) paid.
		c.balances(t, ctx, "P", rewardee, avax, false)
	})
	t.Run("status", func(t *testing.T) { c.status(t, ctx, base) })
	t.Run("refused", func(t *testing.T) { c.refused(t, ctx) })

	// The node restarted with its index API on (incomplete: it starts at the
	// restart, hence index-allow-incomplete): the index built from
	// getBlockByHeight keeps reading there, names new blocks as before and
	// still says what it cannot know.
	require.NoError(t, net.Stop(ctx))
	flags["index-enabled"], flags["index-allow-incomplete"] = "true", "true"
	net, err = localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: net.DataDir(),
		ChainConfig: harness.ChainConfig(), ExtraFlags: flags,
	})
	require.NoError(t, err)
	status, _, err = harness.HTTPGet(ctx, uri+"/ext/index/P/block")
	require.NoError(t, err)
	require.NotEqual(t, http.StatusNotFound, status, "the node serves its index API now")
	harness.FundOnX(t, ctx, uri, key, units.Avax)
	after := map[string]uint64{"P": truth.Height(t, ctx, uri, "P"), "X": truth.Height(t, ctx, uri, "X")}
	harness.WaitIndexed(t, ctx, base, after)
	require.Greater(t, after["X"], heights["X"], "a new X block")
	t.Run("after a restart with the index API", func(t *testing.T) {
		for _, chain := range []string{"P", "X"} {
			c.blocks(t, ctx, chain, after[chain])
		}
		c.status(t, ctx, base)
		c.refused(t, ctx)
	})
	t.Logf("TestAdoptWithoutIndexAPI took %v", time.Since(began).Round(time.Millisecond))
}

type noIndexCheck struct {
	uri string
	api string // {base}/v1/networks/{network}/blockchains/
}

func chainPath(chain string) string { return strings.ToLower(chain) + "-chain" }

// blocks: every block 1..head listed by listLatestPrimaryNetworkBlocks is
// the node's getBlockByHeight block (the VM's block ID, parent, txs), with
// no proposer details; getBlockById finds each by that ID.
func (c *noIndexCheck) blocks(t *testing.T, ctx context.Context, chain string, head uint64) {
	listed := map[uint64]dataapi.Block{}
	path := c.api + chainPath(chain) + "/blocks?pageSize=100"
	next := path
	for next != "" {
		var page struct {
			Blocks        []dataapi.Block `json:"blocks"`
			NextPageToken string          `json:"nextPageToken"`
		}
		r := harness.Get(t, ctx, next)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", next, r.Body)
		r.Decode(t, &page)
		for _, b := range page.Blocks {
			h, err := strconv.ParseUint(b.BlockNumber, 10, 64)
			require.NoError(t, err)
			listed[h] = b
		}
		next = ""
		if page.NextPageToken != "" {
			next = path + "&pageToken=" + url.QueryEscape(page.NextPageToken)
		}
	}
	require.GreaterOrEqual(t, uint64(len(listed)), head, "%s: every block up to %d listed", chain, head)
	types := map[string]int{}
	for _, b := range listed {
		types[b.BlockType]++
	}
	t.Logf("%s blocks 1..%d by type: %v", chain, head, types)
	if chain == "P" {
		require.Positive(t, types["BanffProposalBlock"], "the reward tx's proposal block")
		require.Positive(t, types["BanffCommitBlock"]+types["BanffAbortBlock"], "its option")
	}
	for h := uint64(1); h <= head; h++ {
		want := truth.SnowmanBlockTxs(t, ctx, c.uri, chain, h)
		got, ok := listed[h]
		require.True(t, ok, "%s block %d listed", chain, h)
		require.Equal(t, want.ID, got.BlockHash, "%s block %d: the VM's block ID", chain, h)
		require.Equal(t, want.ParentID, got.ParentHash, "%s block %d parent", chain, h)
		wantTxs := []string{}
		for _, id := range want.TxIDs {
			wantTxs = append(wantTxs, id.String())
		}
		require.Equal(t, wantTxs, append([]string{}, got.Transactions...), "%s block %d txs", chain, h)
		require.Equal(t, len(wantTxs), got.TxCount)
		require.Nil(t, got.ProposerDetails, "%s block %d: no proposer without the index API", chain, h)
		if want.Time != 0 {
			require.Equal(t, want.Time, got.BlockTimestamp, "%s block %d time", chain, h)
		}

		r := harness.Get(t, ctx, c.api+chainPath(chain)+"/blocks/"+want.ID)
		require.Equal(t, http.StatusOK, r.Status, "getBlockById %s block %d: %s", chain, h, r.Body)
		var byID dataapi.Block
		r.Decode(t, &byID)
		require.Equal(t, got, byID, "%s block %d by ID", chain, h)
	}
}

// tx: getTxByHash names the block getBlockByHeight holds it in, and its
// consumed and emitted UTXOs are those of the node's getTx.
func (c *noIndexCheck) tx(t *testing.T, ctx context.Context, chain string, id ids.ID, utxos bool) {
	r := harness.Get(t, ctx, c.api+chainPath(chain)+"/transactions/"+id.String())
	require.Equal(t, http.StatusOK, r.Status, "%s tx %s: %s", chain, id, r.Body)
	var got dataapi.PrimaryTx
	r.Decode(t, &got)
	require.Equal(t, id.String(), got.TxHash)
	blk := truth.SnowmanBlockTxs(t, ctx, c.uri, chain, got.Height(t))
	require.Contains(t, blk.TxIDs, id, "%s tx %s: in the block avadata names", chain, id)
	require.Equal(t, blk.ID, got.BlockHash, "%s tx %s: block ID is the VM's", chain, id)
	if !utxos {
		return
	}

	want := truth.GetTx(t, ctx, c.uri, chain, id)
	var wantIns, gotIns []string
	for _, in := range want.Ins {
		wantIns = append(wantIns, in.UTXOID.String())
	}
	for _, u := range got.ConsumedUTXOs {
		gotIns = append(gotIns, u.UTXOID)
	}
	slices.Sort(wantIns)
	slices.Sort(gotIns)
	require.Equal(t, wantIns, gotIns, "%s tx %s consumed UTXOs", chain, id)
	var wantOuts, gotOuts []string
	for _, o := range want.Outs {
		wantOuts = append(wantOuts, fmt.Sprintf("%s:%d", o.Asset, o.Amount))
	}
	for _, u := range got.EmittedUTXOs {
		wantAmount := u.Asset.Amount
		gotOuts = append(gotOuts, u.Asset.AssetID+":"+wantAmount)
	}
	slices.Sort(wantOuts)
	slices.Sort(gotOuts)
	require.Equal(t, wantOuts, gotOuts, "%s tx %s emitted UTXOs (asset:amount)", chain, id)
}

func (c *noIndexCheck) avaxID(t *testing.T, ctx context.Context) ids.ID {
	var reply struct {
		AssetID ids.ID `json:"assetID"`
	}
	require.NoError(t, truth.Call(ctx, c.uri+"/ext/bc/X", "avm.getAssetDescription",
		map[string]any{"assetID": "AVAX"}, &reply))
	return reply.AssetID
}

// balances: getBalancesByAddresses against platform.getBalance and
// avm.getAllBalances, getUtxosByAddresses against platform/avm.getUTXOs.
func (c *noIndexCheck) balances(t *testing.T, ctx context.Context, chain, addr string, avax ids.ID, holds bool) {
	{
		r := harness.Get(t, ctx, c.api+chainPath(chain)+"/balances?addresses="+url.QueryEscape(addr))
		require.Equal(t, http.StatusOK, r.Status, "%s balances of %s: %s", chain, addr, r.Body)
		var got dataapi.Balances
		r.Decode(t, &got)
		if chain == "P" {
			want := truth.BalanceOnP(t, ctx, c.uri, addr)
			require.Equal(t, nonZero(want.Unlocked), dataapi.Amounts(t, "unlockedUnstaked", got.Balances["unlockedUnstaked"]),
				"P unlocked of %s", addr)
		} else {
			want := truth.BalancesOnX(t, ctx, c.uri, addr, avax)
			require.Equal(t, nonZero(want), dataapi.Amounts(t, "unlocked", got.Balances["unlocked"]), "X unlocked of %s", addr)
		}

		r = harness.Get(t, ctx, c.api+chainPath(chain)+"/utxos?pageSize=100&addresses="+url.QueryEscape(addr))
		require.Equal(t, http.StatusOK, r.Status, "%s UTXOs of %s: %s", chain, addr, r.Body)
		var page struct {
			UTXOs []dataapi.UTXO `json:"utxos"`
		}
		r.Decode(t, &page)
		var wantIDs, gotIDs []string
		for _, u := range truth.UTXOs(t, ctx, c.uri, chain, "", addr) {
			wantIDs = append(wantIDs, u.ID.String())
		}
		for _, u := range page.UTXOs {
			gotIDs = append(gotIDs, u.UTXOID)
		}
		slices.Sort(wantIDs)
		slices.Sort(gotIDs)
		require.Equal(t, wantIDs, gotIDs, "%s UTXOs of %s", chain, addr)
		if holds {
			require.NotEmpty(t, wantIDs, "%s: %s holds something to compare", chain, addr)
		}
	}
}

func nonZero(m map[ids.ID]uint64) map[ids.ID]uint64 {
	out := map[ids.ID]uint64{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// status: /v1/status says, for P and X, what cannot be known and the flag.
func (c *noIndexCheck) status(t *testing.T, ctx context.Context, base string) {
	r := harness.Get(t, ctx, base+"/v1/status")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var body struct {
		Chains []struct {
			Chain       string   `json:"chain"`
			LastError   string   `json:"lastError"`
			Unavailable []string `json:"unavailable"`
		} `json:"chains"`
	}
	r.Decode(t, &body)
	seen := map[string][]string{}
	for _, ch := range body.Chains {
		seen[ch.Chain] = ch.Unavailable
		if ch.Chain == "P" || ch.Chain == "X" {
			require.Empty(t, ch.LastError, "%s follower error", ch.Chain)
		}
	}
	for _, chain := range []string{"P", "X"} {
		u := strings.Join(seen[chain], " ")
		require.Contains(t, u, "proposer details of "+chain+"-chain blocks", "%s status: %v", chain, seen[chain])
		require.Contains(t, u, "--index-enabled=true", chain)
	}
	require.Contains(t, strings.Join(seen["X-vertices"], " "), "--index-enabled=true", "the vertex follower says why it idles")
	require.Empty(t, seen["C"], "the C-chain loses nothing")
	t.Logf("unavailable: P %q; X %q; X-vertices %q", seen["P"], seen["X"], seen["X-vertices"])
}

// refused: the blocks a node proposed and the vertex operations answer a
// 400 naming the flag.
func (c *noIndexCheck) refused(t *testing.T, ctx context.Context) {
	var node struct {
		NodeID ids.NodeID `json:"nodeID"`
	}
	require.NoError(t, truth.Call(ctx, c.uri+"/ext/info", "info.getNodeID", struct{}{}, &node))
	for _, path := range []string{
		c.api + "p-chain/nodes/" + node.NodeID.String() + "/blocks",
		c.api + "x-chain/nodes/" + node.NodeID.String() + "/blocks",
		c.api + "x-chain/vertices",
		c.api + "x-chain/vertices:listByHeight?vertexHeight=1",
		c.api + "x-chain/vertices/" + ids.GenerateTestID().String(),
	} {
		harness.RequireErrorBody(t, harness.Get(t, ctx, path), http.StatusBadRequest, "--index-enabled=true")
	}
}

// delegationPeriod is the delegation's length: the local minimum staking
// period (harness.NodeFlags) and a little.
const delegationPeriod = 25 * time.Second

// delegateAndWaitReward delegates from EWOQ's P funds to a genesis
// validator, rewards to a fresh address, and waits until the node accepted
// the RewardValidatorTx: a proposal block and its option, which the P
// follower decides by looking ahead. It returns the rewards owner (P-...).
func delegateAndWaitReward(t *testing.T, ctx context.Context, uri string) string {
	t.Helper()
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
	w, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(genesis.EWOQKey), primary.WalletConfig{})
	require.NoError(t, err)
	pctx := w.Builder().Context()
	vals, err := platformvm.NewClient(uri).GetCurrentValidators(ctx, constants.PrimaryNetworkID, nil)
	require.NoError(t, err)
	var target ids.NodeID
	for _, v := range vals {
		if time.Unix(int64(v.EndTime), 0).After(time.Now().Add(time.Hour)) {
			target = v.NodeID
		}
	}
	require.NotEqual(t, ids.EmptyNodeID, target, "no validator lasting an hour")
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	owner := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}
	tx, err := w.IssueAddPermissionlessDelegatorTx(&txs.SubnetValidator{Validator: txs.Validator{NodeID: target,
		End: uint64(time.Now().Add(delegationPeriod).Unix()), Wght: 25 * units.Avax}, Subnet: constants.PrimaryNetworkID},
		pctx.AVAXAssetID, owner, opts...)
	require.NoError(t, err, "delegating")
	// Rewarded once the delegator left the current set (the reward tx
	// removes it).
	for pc := platformvm.NewClient(uri); ; {
		cur, err := pc.GetCurrentValidators(ctx, constants.PrimaryNetworkID, []ids.NodeID{target})
		require.NoError(t, err)
		left := true
		for _, v := range cur {
			for _, d := range v.Delegators {
				left = left && d.TxID != tx.ID()
			}
		}
		if left {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("delegation %s never rewarded", tx.ID())
		case <-time.After(500 * time.Millisecond):
		}
	}
	addr, err := address.Format("P", constants.GetHRP(pctx.NetworkID), key.Address().Bytes())
	require.NoError(t, err)
	return addr
}
