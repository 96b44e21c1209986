//go:build e2e

package adopt

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	ethcommon "github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
	"github.com/avadata/avadata/tests/evmtest"
)

// cHistoryBlocks is how many C-chain blocks the test makes before indexing
// the C-chain from a recent height; cRecent how far below the head that
// index starts.
const (
	cHistoryBlocks = 24
	cRecent        = 6
)

// cTraffic is EWOQ's C-chain traffic: value transfers (EVM txs) and
// atomic txs (X-chain exports to the C-chain and their imports, a C-chain
// export to the X-chain), all real txs through the node.
type cTraffic struct {
	wallet  *primary.Wallet
	evm     *evmtest.Client
	xChain  ids.ID
	cChain  ids.ID
	ewoq    ids.ShortID
	waiting ids.ShortID // holds an export to the C-chain never imported
	exports int         // C-chain exports: each takes an EVM nonce of EWOQ
}

func (c *cTraffic) opts(ctx context.Context) []common.Option {
	return []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
}

func (c *cTraffic) out(to ids.ShortID, amount uint64) *avax.TransferableOutput {
	return &avax.TransferableOutput{
		Asset: avax.Asset{ID: c.wallet.X().Builder().Context().AVAXAssetID},
		Out: &secp256k1fx.TransferOutput{Amt: amount, OutputOwners: secp256k1fx.OutputOwners{
			Threshold: 1, Addrs: []ids.ShortID{to}}},
	}
}

// importRound exports AVAX from the X-chain to the C-chain and imports it
// into EWOQ's account: one atomic tx in a C block.
func (c *cTraffic) importRound(ctx context.Context) error {
	if _, err := c.wallet.X().IssueExportTx(c.cChain, []*avax.TransferableOutput{c.out(c.ewoq, 2*units.Avax)}, c.opts(ctx)...); err != nil {
		return fmt.Errorf("X export to C: %w", err)
	}
	if _, err := c.wallet.C().IssueImportTx(c.xChain, genesis.EWOQKey.EthAddress(), c.opts(ctx)...); err != nil {
		return fmt.Errorf("C import from X: %w", err)
	}
	return nil
}

// sendValue sends one EVM value transfer and waits for its receipt.
func (c *cTraffic) sendValue(ctx context.Context, i int64) error {
	h, err := c.evm.SendValue(ctx, ethcommon.BigToAddress(big.NewInt(700+i%3)), big.NewInt(i+1))
	if err != nil {
		return err
	}
	_, err = c.evm.WaitReceipt(ctx, h)
	return err
}

// TestAdoptBackfillCChain indexes the C-chain of a node that keeps every
// block from a recent height, then asks for it from genesis: the
// back-fill fills it down to block 1 (at a bounded pace) while EWOQ keeps
// sending EVM txs and X-to-C imports. Before, the C-chain's atomic-memory
// balances and UTXOs are refused (400) and getAvaxSupply leaves out
// totalCBurned and totalSupply; after, the index serves exactly what one
// built from genesis serves (the C blocks with their cumulative tx
// counts, EWOQ's txs, the C-chain's atomic txs, atomic-memory balances
// and UTXOs, the AVAX supply with the C-chain's burns), and what the node
// says (tx counts, receipts, the blocks' atomic txs and fees,
// avax.getUTXOs with sourceChain, platform.getCurrentSupply).
func TestAdoptBackfillCChain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	config := harness.ChainConfig()
	// A bounded pace: the fill of a few dozen blocks lasts long enough for
	// new C blocks to arrive while it runs.
	config["batchSize"], config["fetchers"], config["backfillBlocksPerSecond"] = 1, 1, 2
	cfg := localnet.Config{AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: t.TempDir(),
		ChainConfig: config, ExtraFlags: harness.NodeFlags(), SkipSubnetEVM: true}
	began := time.Now()
	net, err := localnet.Start(ctx, cfg)
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()
	uri, base := net.URI(), net.ChainURL()
	cChain := net.EVMChains()[0]
	cURL := base + "/v1/chains/" + fmt.Sprint(cChain.EVMChainID)
	api := base + "/v1/networks/local/blockchains/c-chain"

	// The C-chain's history: atomic txs first (an import, an export to X,
	// an export to the C-chain left waiting for its import), then EVM txs.
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	w, err := primary.MakeWallet(ctx, uri, kc, kc, primary.WalletConfig{})
	require.NoError(t, err)
	tr := &cTraffic{wallet: w, xChain: w.X().Builder().Context().BlockchainID, cChain: cChain.BlockchainID,
		ewoq: genesis.EWOQKey.Address(), waiting: ids.ShortID{0xC, 0xB, 0xF}}
	require.NoError(t, tr.importRound(ctx))
	_, err = w.C().IssueExportTx(tr.xChain, []*secp256k1fx.TransferOutput{{Amt: units.Avax / 2,
		OutputOwners: secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{tr.ewoq}}}}, tr.opts(ctx)...)
	require.NoError(t, err, "C export to X")
	tr.exports++
	_, err = w.X().IssueExportTx(tr.cChain, []*avax.TransferableOutput{tr.out(tr.waiting, 3*units.Avax)}, tr.opts(ctx)...)
	require.NoError(t, err, "X export to C, never imported")
	tr.evm, err = evmtest.Dial(ctx, cChain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer tr.evm.Close()
	sent := int64(0)
	head := uint64(0)
	for head < cHistoryBlocks {
		require.NoError(t, tr.sendValue(ctx, sent))
		sent++
		head, err = tr.evm.BlockNumber(ctx)
		require.NoError(t, err)
	}
	t.Logf("%d C blocks made in %s", head, time.Since(began).Round(time.Second))

	// An index of the C-chain from a recent height only.
	recent := head - cRecent
	require.NoError(t, net.Stop(ctx))
	harness.RemoveIndex(t, net.DataDir())
	setIndexFrom(t, net, map[string]any{"C": recent})
	require.NoError(t, net.Restart(ctx))
	harness.WaitIndexed(t, ctx, base, map[string]uint64{"C": head})
	s, ok := statusOf(t, ctx, base, "C")
	require.True(t, ok)
	require.Equal(t, recent, s.HistoryFrom, "%+v", s)
	addrs := []string{bech32(t, tr.waiting), bech32(t, tr.ewoq)}
	for _, what := range []string{"balances", "utxos"} {
		r := harness.Get(t, ctx, api+"/"+what+"?addresses="+url.QueryEscape(addrs[0]))
		harness.RequireErrorBody(t, r, http.StatusBadRequest, fmt.Sprintf("starts at block %d", recent))
	}
	var partial map[string]string
	harness.GetOK(t, ctx, base+"/v1/avax/supply", &partial)
	require.NotContains(t, partial, "totalCBurned", "the C-chain's burns are unknown from a later height")
	require.NotContains(t, partial, "totalSupply")
	require.Contains(t, partial, "totalPBurned")

	// Now from genesis: the back-fill runs while txs keep arriving.
	require.NoError(t, net.Stop(ctx))
	setIndexFrom(t, net, map[string]any{"C": "genesis"})
	restarted := time.Now()
	require.NoError(t, net.Restart(ctx))
	require.NoError(t, tr.evm.Resync(ctx)) // the restarted node forgot nothing, but its mempool is new
	sendErr := make(chan error, 1)
	stop := make(chan struct{})
	go func() {
		defer close(sendErr)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			var err error
			if i%4 == 1 {
				err = tr.importRound(ctx)
			} else {
				err = tr.sendValue(ctx, sent+int64(i))
			}
			if err != nil {
				sendErr <- err
				return
			}
		}
	}()
	var unfinished []chainStatus
	for {
		s, ok := statusOf(t, ctx, base, "C")
		if ok && s.Backfill != nil {
			require.Empty(t, s.Backfill.LastError)
			if s.Backfill.State == "done" {
				require.Equal(t, uint64(1), s.HistoryFrom)
				break
			}
			unfinished = append(unfinished, s)
		}
		select {
		case err := <-sendErr:
			require.NoError(t, err, "sending during the back-fill")
		case <-ctx.Done():
			t.Fatalf("the back-fill did not finish: %+v", s)
		case <-time.After(100 * time.Millisecond):
		}
	}
	close(stop)
	require.NoError(t, <-sendErr)
	t.Logf("back-fill of %d C blocks done %s after the restart began; %d status reads showed it unfinished",
		recent-1, time.Since(restarted).Round(time.Millisecond), len(unfinished))
	require.NotEmpty(t, unfinished)
	n := len(unfinished)
	t.Logf("while the back-fill ran the follower went from %d to %d", unfinished[0].IndexedHeight, unfinished[n-1].IndexedHeight)
	require.Greater(t, unfinished[n-1].IndexedHeight, unfinished[0].IndexedHeight,
		"the follower indexed new C blocks while the back-fill ran")
	for _, s := range unfinished {
		require.Equal(t, s.Backfill.FirstHeight, s.HistoryFrom, "historyFrom follows the fill")
	}
	final, err := tr.evm.BlockNumber(ctx)
	require.NoError(t, err)
	tips := map[string]uint64{"P": truth.Height(t, ctx, uri, "P"), "X": truth.Height(t, ctx, uri, "X"), "C": final}
	harness.WaitIndexed(t, ctx, base, tips)
	// The back-fill is done (its re-derive too): the C-chain's burns are
	// known again, as from genesis.
	require.Contains(t, cSupply(t, ctx, base), "totalCBurned", "the C-chain's burns after the back-fill reached genesis")
	backfilled := cIndexSnapshot(t, ctx, base, cURL, api, addrs)

	// The same chains indexed from genesis in one go.
	rebuild := time.Now()
	require.NoError(t, net.Stop(ctx))
	harness.RemoveIndex(t, net.DataDir())
	require.NoError(t, net.Restart(ctx))
	harness.WaitIndexed(t, ctx, base, tips)
	t.Logf("from-genesis index in %s", time.Since(rebuild).Round(time.Millisecond))
	fromGenesis := cIndexSnapshot(t, ctx, base, cURL, api, addrs)
	checkCAgainstNode(t, ctx, uri, fromGenesis, tr, final, addrs)
	require.Equal(t, fromGenesis, backfilled)
	t.Logf("test took %s", time.Since(began).Round(time.Second))
}

func bech32(t *testing.T, a ids.ShortID) string {
	t.Helper()
	s, err := address.FormatBech32(constants.GetHRP(constants.LocalID), a[:])
	require.NoError(t, err)
	return s
}

func cSupply(t *testing.T, ctx context.Context, base string) map[string]string {
	t.Helper()
	var out map[string]string
	harness.GetOK(t, ctx, base+"/v1/avax/supply", &out)
	return out
}

// cIndex is what an index serves of the C-chain: its blocks (with their
// cumulative tx counts), EWOQ's txs, the atomic txs
// (listLatestPrimaryNetworkTransactions), the atomic-memory balances and
// UTXOs of two addresses, and the AVAX supply. Page tokens are left out
// (signed with a key each index makes anew).
type cIndex struct {
	Blocks    []json.RawMessage
	EWOQTxs   []json.RawMessage
	AtomicTxs []json.RawMessage
	Balances  map[string]json.RawMessage
	UTXOs     map[string]json.RawMessage
	Supply    map[string]string
}

func cIndexSnapshot(t *testing.T, ctx context.Context, base, cURL, api string, addrs []string) cIndex {
	t.Helper()
	s := cIndex{
		Blocks:    harness.PageThrough(t, ctx, cURL+"/blocks", "blocks", 100),
		EWOQTxs:   harness.PageThrough(t, ctx, cURL+"/addresses/"+genesis.EWOQKey.EthAddress().Hex()+"/transactions", "transactions", 100),
		AtomicTxs: harness.PageThrough(t, ctx, api+"/transactions", "transactions", 100),
		Balances:  map[string]json.RawMessage{},
		UTXOs:     map[string]json.RawMessage{},
		Supply:    cSupply(t, ctx, base),
	}
	for _, a := range addrs {
		var b map[string]json.RawMessage
		harness.GetOK(t, ctx, api+"/balances?addresses="+url.QueryEscape(a), &b)
		s.Balances[a] = b["balances"]
		var u map[string]json.RawMessage
		harness.GetOK(t, ctx, api+"/utxos?pageSize=100&addresses="+url.QueryEscape(a), &u)
		require.NotContains(t, u, "nextPageToken")
		s.UTXOs[a] = u["utxos"]
	}
	return s
}

// checkCAgainstNode checks an index of the C-chain against the node: the
// blocks' cumulative tx counts are the node's tx counts summed, EWOQ's
// listed txs are its EVM txs (its nonce less its C-chain exports, each
// with the node's receipt), the listed atomic txs are those of the blocks'
// extra data, the atomic-memory UTXOs are avax.getUTXOs' with sourceChain
// X, and totalCBurned is the atomic txs' burns plus the blocks' fees,
// totalSupply platform.getCurrentSupply less the three chains' burns.
func checkCAgainstNode(t *testing.T, ctx context.Context, uri string, s cIndex, tr *cTraffic, head uint64, addrs []string) {
	t.Helper()
	client := truth.EthClient(t, ctx, uri)
	checkCumulativeTxs(t, ctx, client, s.Blocks, head)

	var listed []struct {
		Native struct {
			TxHash      ethcommon.Hash `json:"txHash"`
			BlockNumber string         `json:"blockNumber"`
		} `json:"nativeTransaction"`
	}
	require.NoError(t, json.Unmarshal([]byte(harness.MustJSON(s.EWOQTxs)), &listed))
	var nonce hexutil.Uint64
	require.NoError(t, client.CallContext(ctx, &nonce, "eth_getTransactionCount", genesis.EWOQKey.EthAddress(), hexutil.Uint64(head)))
	require.Len(t, listed, int(nonce)-tr.exports, "every EVM tx of EWOQ is listed once")
	for _, tx := range listed {
		r, err := tr.evm.Receipt(ctx, tx.Native.TxHash)
		require.NoError(t, err)
		require.NotNil(t, r, "listed tx %s has no receipt", tx.Native.TxHash)
		require.Equal(t, genesis.EWOQKey.EthAddress(), r.From)
		require.Equal(t, fmt.Sprint(r.BlockNumber), tx.Native.BlockNumber)
	}

	atomicIDs, atomicFees, evmFees := nodeCAtomic(t, ctx, client, uri, head)
	var atomicListed []struct {
		TxHash string `json:"txHash"`
	}
	require.NoError(t, json.Unmarshal([]byte(harness.MustJSON(s.AtomicTxs)), &atomicListed))
	var got []string
	for _, tx := range atomicListed {
		got = append(got, tx.TxHash)
	}
	slices.Sort(got)
	slices.Sort(atomicIDs)
	require.Equal(t, atomicIDs, got, "the C-chain's atomic txs")
	require.GreaterOrEqual(t, len(got), 3, "the test's atomic txs: an import and an export before, an import during the back-fill")

	for _, a := range addrs {
		var want []string
		for _, u := range truth.UTXOs(t, ctx, uri, "C", "X", "C-"+a) {
			want = append(want, u.ID.String())
		}
		var utxos []struct {
			ID string `json:"utxoId"`
		}
		require.NoError(t, json.Unmarshal(s.UTXOs[a], &utxos))
		var listed []string
		for _, u := range utxos {
			listed = append(listed, u.ID)
		}
		slices.Sort(want)
		slices.Sort(listed)
		require.Equal(t, want, listed, "C atomic-memory UTXOs of %s", a)
		if a == addrs[0] {
			require.Len(t, listed, 1, "the export never imported")
		}
	}

	nano := func(v uint64) *big.Int { return new(big.Int).Mul(new(big.Int).SetUint64(v), big.NewInt(1e9)) }
	cBurned := new(big.Int).Add(nano(atomicFees), evmFees)
	requireAVAXString(t, cBurned, s.Supply["totalCBurned"], "totalCBurned (atomic and EVM)")
	supply, _, err := platformvm.NewClient(uri).GetCurrentSupply(ctx, constants.PrimaryNetworkID)
	require.NoError(t, err)
	want := new(big.Rat).SetFrac(new(big.Int).Sub(nano(supply), cBurned), big.NewInt(1e18))
	for _, k := range []string{"totalPBurned", "totalXBurned"} {
		r, ok := new(big.Rat).SetString(s.Supply[k])
		require.True(t, ok, "%s: %q", k, s.Supply[k])
		want.Sub(want, r)
	}
	got2, ok := new(big.Rat).SetString(s.Supply["totalSupply"])
	require.True(t, ok, "totalSupply: %q", s.Supply["totalSupply"])
	require.Zero(t, want.Cmp(got2), "totalSupply: want %s, got %s", want.FloatString(18), s.Supply["totalSupply"])
}

func requireAVAXString(t *testing.T, wei *big.Int, got, what string) {
	t.Helper()
	r, ok := new(big.Rat).SetString(got)
	require.True(t, ok, "%s: %q", what, got)
	want := new(big.Rat).SetFrac(wei, big.NewInt(1e18))
	require.Zero(t, want.Cmp(r), "%s: want %s AVAX, got %s", what, want.FloatString(18), got)
}

// nodeCAtomic reads the C-chain's atomic txs up to height from the
// blocks' extra data, with what they burned (nAVAX), and the blocks'
// EVM fees (wei).
func nodeCAtomic(t *testing.T, ctx context.Context, client *rpc.Client, uri string, height uint64) (txIDs []string, atomicFees uint64, evmFees *big.Int) {
	t.Helper()
	headers, err := truth.EVMHeaders(ctx, client, height)
	require.NoError(t, err)
	evmFees = new(big.Int)
	for _, h := range headers {
		evmFees.Add(evmFees, h.FeesSpent)
	}
	var desc struct {
		AssetID ids.ID `json:"assetID"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/X", "avm.getAssetDescription", map[string]any{"assetID": "AVAX"}, &desc))
	for h := uint64(1); h <= height; h++ {
		var raw struct {
			ExtData hexutil.Bytes `json:"blockExtraData"`
		}
		require.NoError(t, client.CallContext(ctx, &raw, "eth_getBlockByNumber", hexutil.Uint64(h), false))
		if len(raw.ExtData) == 0 {
			continue
		}
		txs, err := atomic.ExtractAtomicTxs(raw.ExtData, true, atomic.Codec)
		require.NoError(t, err, "C block %d atomic txs", h)
		for _, tx := range txs {
			txIDs = append(txIDs, tx.ID().String())
			in, out := truth.AtomicAmounts(tx, desc.AssetID)
			require.GreaterOrEqual(t, in, out, "C atomic tx %s", tx.ID())
			atomicFees += in - out
		}
	}
	return txIDs, atomicFees, evmFees
}
