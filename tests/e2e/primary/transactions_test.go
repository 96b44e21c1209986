package primary

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// listLatestPrimaryNetworkTransactions (GET
// .../blockchains/{blockchainId}/transactions) for the scenario's key A on P,
// X and C, checked against the node: which txs, in which blocks at which
// times, what they consumed, emitted and burned.

// addressFor is how the tests name A on chain: with the chain prefix on P
// and X ("P-local1..."), the bare bech32 on C (C-chain atomic lookups take
// bech32 or 0x addresses).
func (s *primaryScenario) addressFor(t *testing.T, chain string) string {
	if chain == "C" {
		return s.bech32(t)
	}
	return s.chainAddr(t, chain)
}

func txHashes(txs []dataapi.PrimaryTx) []string {
	out := make([]string, len(txs))
	for i, tx := range txs {
		out[i] = tx.TxHash
	}
	return out
}

func scenarioHashes(txs []*scenarioTx) []string {
	out := make([]string, len(txs))
	for i, tx := range txs {
		out[i] = tx.id.String()
	}
	return out
}

// TestPrimaryTxsOfAddress: A's list on each chain is exactly the scenario's
// txs involving A, each matching the node field by field.
func TestPrimaryTxsOfAddress(t *testing.T) {
	s, ctx := primaryFixture(t)
	for _, chain := range []string{"P", "X", "C"} {
		t.Run(chain, func(t *testing.T) {
			want := s.txsOn(chain, true)
			q := url.Values{"addresses": {s.addressFor(t, chain)}, "pageSize": {"100"}}
			got := listPrimaryTxs(t, ctx, chain, q)
			require.ElementsMatch(t, scenarioHashes(want), txHashes(got), "%s txs of A: want the scenario's %v", chain, want)
			var blocks []truth.IndexedBlock
			if chain != "C" {
				blocks = truth.IndexedBlocks(t, ctx, env.URI(t), chain)
			}
			byHash := map[string]dataapi.PrimaryTx{}
			for _, tx := range got {
				byHash[tx.TxHash] = tx
			}
			for _, sc := range want {
				checkPrimaryTx(t, ctx, s, sc, byHash[sc.id.String()], blocks)
			}
		})
	}
}

// TestPrimaryTxsOfEVMAddress: on C, A's 0x address finds the same atomic
// txs as its bech32 address (the import paid A's EVM address, the exports
// spent from it).
func TestPrimaryTxsOfEVMAddress(t *testing.T) {
	s, ctx := primaryFixture(t)
	got := listPrimaryTxs(t, ctx, "C", url.Values{"addresses": {s.evm.Hex()}})
	require.ElementsMatch(t, scenarioHashes(s.txsOn("C", true)), txHashes(got), "C txs of %s", s.evm.Hex())
}

// checkPrimaryTx compares one listed tx with the node.
func checkPrimaryTx(t *testing.T, ctx context.Context, s *primaryScenario, sc *scenarioTx, got dataapi.PrimaryTx, blocks []truth.IndexedBlock) {
	t.Helper()
	require.Equal(t, sc.txType, got.TxType, "%s: txType", sc)
	require.Equal(t, sc.height, got.Height(t), "%s: block height (node: %d)", sc, sc.height)
	require.Equal(t, sc.blockTime, got.Time(t), "%s: block time (node block %d time %d)", sc, sc.height, sc.blockTime)
	if sc.chain == "C" {
		require.Equal(t, strings.ToLower(sc.blockID), strings.ToLower(got.BlockHash), "%s: blockHash = the eth block hash", sc)
	} else {
		require.Greater(t, len(blocks), int(sc.height-1), "%s: index API has no block %d", sc, sc.height)
		b := blocks[sc.height-1]
		require.Equal(t, sc.blockID, b.InnerID, "%s: index container %d wraps block %d", sc, sc.height-1, sc.height)
		require.Equal(t, b.OuterID.String(), got.BlockHash, "%s: blockHash = the accepted (proposervm) block ID", sc)
	}
	if sc.sourceChain != ids.Empty {
		require.Equal(t, sc.sourceChain.String(), got.SourceChain, "%s: sourceChain", sc)
		require.Equal(t, sc.destinationChain.String(), got.DestinationChain, "%s: destinationChain", sc)
	}
	if sc.chain == "C" {
		checkAtomicTxEffects(t, ctx, s, sc, got)
		return
	}
	node := truth.GetTx(t, ctx, env.URI(t), sc.chain, sc.id)
	if sc.chain == "X" {
		// The memo is hex ("0x..."); an empty memo may be "" or "0x".
		if len(node.Memo) > 0 {
			require.Equal(t, hexutil.Encode(node.Memo), got.Memo, "%s: memo", sc)
			require.Equal(t, sc.memo, node.Memo, "%s: the node's memo is the one sent", sc)
		} else {
			require.Contains(t, []string{"", "0x"}, got.Memo, "%s: memo of a tx without one", sc)
		}
	}
	// Emitted: every output, regular then exported, as UTXO ID → amount.
	wantOut, wantIn := map[string]uint64{}, map[string]uint64{}
	burned := map[ids.ID]int64{}
	for _, o := range node.Outs {
		wantOut[sc.id.Prefix(uint64(o.Index)).String()] = o.Amount
		burned[o.Asset] -= int64(o.Amount)
	}
	for _, in := range node.Ins {
		wantIn[in.UTXOID.String()] = in.Amount
		burned[in.Asset] += int64(in.Amount)
	}
	require.Equal(t, wantOut, listedUTXOAmounts(t, sc, "emittedUtxos", got.EmittedUTXOs), "%s: emitted UTXOs (node getTx outputs)", sc)
	require.Equal(t, wantIn, listedUTXOAmounts(t, sc, "consumedUtxos", got.ConsumedUTXOs), "%s: consumed UTXOs (node getTx inputs)", sc)
	for _, u := range got.EmittedUTXOs {
		creator := u.TxHash
		if sc.chain == "X" {
			creator = u.CreationTxHash
		}
		require.Equal(t, sc.id.String(), creator, "%s: emitted UTXO %s: creating tx", sc, u.UTXOID)
		require.Equal(t, sc.chain, chainOfID(s, u.CreatedOnChainID), "%s: emitted UTXO %s: createdOnChainId", sc, u.UTXOID)
	}
	requireFee(t, sc, got, positive(burned))
}

// checkAtomicTxEffects compares a C-chain atomic tx with the tx the node
// returns from avax.getAtomicTx.
func checkAtomicTxEffects(t *testing.T, ctx context.Context, s *primaryScenario, sc *scenarioTx, got dataapi.PrimaryTx) {
	t.Helper()
	tx := truth.AtomicTx(t, ctx, env.URI(t), sc.id)
	burned := map[ids.ID]int64{}
	switch utx := tx.UnsignedAtomicTx.(type) {
	case *atomic.UnsignedImportTx:
		wantIn := map[string]uint64{}
		for _, in := range utx.ImportedInputs {
			wantIn[in.InputID().String()] = in.Input().Amount()
			burned[in.AssetID()] += int64(in.Input().Amount())
		}
		require.Equal(t, wantIn, listedUTXOAmounts(t, sc, "consumedUtxos", got.ConsumedUTXOs), "%s: consumed UTXOs (ImportedInputs)", sc)
		require.Len(t, got.EVMOutputs, len(utx.Outs), "%s: evmOutputs", sc)
		for i, out := range utx.Outs {
			require.True(t, strings.EqualFold(out.Address.Hex(), got.EVMOutputs[i].ToAddress), "%s: evmOutputs[%d].toAddress", sc, i)
			require.Equal(t, strconv.FormatUint(out.Amount, 10), got.EVMOutputs[i].Asset.Amount, "%s: evmOutputs[%d] amount", sc, i)
			burned[out.AssetID] -= int64(out.Amount)
		}
	case *atomic.UnsignedExportTx:
		wantOut := map[string]uint64{}
		for i, out := range utx.ExportedOutputs {
			wantOut[sc.id.Prefix(uint64(i)).String()] = out.Out.Amount()
			burned[out.AssetID()] -= int64(out.Out.Amount())
		}
		require.Equal(t, wantOut, listedUTXOAmounts(t, sc, "emittedUtxos", got.EmittedUTXOs), "%s: emitted UTXOs (ExportedOutputs)", sc)
		require.Len(t, got.EVMInputs, len(utx.Ins), "%s: evmInputs", sc)
		for i, in := range utx.Ins {
			require.True(t, strings.EqualFold(in.Address.Hex(), got.EVMInputs[i].FromAddress), "%s: evmInputs[%d].fromAddress", sc, i)
			require.True(t, strings.EqualFold(s.evm.Hex(), in.Address.Hex()), "%s: the node's export spent from A's EVM address", sc)
			require.Equal(t, strconv.FormatUint(in.Amount, 10), got.EVMInputs[i].Asset.Amount, "%s: evmInputs[%d] amount", sc, i)
			burned[in.AssetID] += int64(in.Amount)
		}
	default:
		t.Fatalf("%s: node returned %T", sc, utx)
	}
	requireFee(t, sc, got, positive(burned))
}

// requireFee: P lists the fee in amountBurned; X and C as amountUnlocked -
// amountCreated.
func requireFee(t *testing.T, sc *scenarioTx, got dataapi.PrimaryTx, fee map[ids.ID]uint64) {
	t.Helper()
	if sc.chain == "P" {
		require.Equal(t, fee, dataapi.Amounts(t, sc.String()+" amountBurned", got.AmountBurned), "%s: amountBurned = inputs - outputs on the node", sc)
		return
	}
	unlocked := dataapi.Amounts(t, sc.String()+" amountUnlocked", got.AmountUnlocked)
	created := dataapi.Amounts(t, sc.String()+" amountCreated", got.AmountCreated)
	diff := map[ids.ID]uint64{}
	for asset, n := range unlocked {
		require.GreaterOrEqual(t, n, created[asset], "%s: amountCreated exceeds amountUnlocked for %s", sc, asset)
		if n > created[asset] {
			diff[asset] = n - created[asset]
		}
	}
	require.Equal(t, fee, diff, "%s: amountUnlocked - amountCreated = inputs - outputs on the node", sc)
}

// positive keeps the assets a tx burned (inputs exceed outputs): an asset
// it mints (a CreateAssetTx's initial states) comes out of nothing, and is
// no fee.
func positive(m map[ids.ID]int64) map[ids.ID]uint64 {
	out := map[ids.ID]uint64{}
	for k, v := range m {
		if v > 0 {
			out[k] = uint64(v)
		}
	}
	return out
}

// utxoAmounts maps listed UTXOs' utxoId to asset.amount, failing on a
// repeated ID.
func listedUTXOAmounts(t *testing.T, sc *scenarioTx, field string, utxos []dataapi.UTXO) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for _, u := range utxos {
		n, err := strconv.ParseUint(u.Asset.Amount, 10, 64)
		require.NoError(t, err, "%s: %s %s: asset.amount %q", sc, field, u.UTXOID, u.Asset.Amount)
		_, dup := out[u.UTXOID]
		require.False(t, dup, "%s: %s lists %s twice", sc, field, u.UTXOID)
		out[u.UTXOID] = n
	}
	return out
}

// chainOfID names a chain ID "P", "X" or "C" (or returns the ID).
func chainOfID(s *primaryScenario, id string) string {
	for _, c := range []string{"P", "X", "C"} {
		if s.chainID(c).String() == id {
			return c
		}
	}
	return id
}

// TestPrimaryTxsOrderAndPaging: asc is by block time (then height), desc is
// its reverse, and pageSize 1 walks the same list one tx a page.
func TestPrimaryTxsOrderAndPaging(t *testing.T) {
	s, ctx := primaryFixture(t)
	for _, chain := range []string{"P", "X", "C"} {
		t.Run(chain, func(t *testing.T) {
			addr := s.addressFor(t, chain)
			asc := listPrimaryTxs(t, ctx, chain, url.Values{"addresses": {addr}, "sortOrder": {"asc"}, "pageSize": {"100"}})
			desc := listPrimaryTxs(t, ctx, chain, url.Values{"addresses": {addr}, "sortOrder": {"desc"}, "pageSize": {"100"}})
			require.NotEmpty(t, asc)
			for i := 1; i < len(asc); i++ {
				prev, cur := asc[i-1], asc[i]
				require.True(t, prev.Time(t) < cur.Time(t) || prev.Time(t) == cur.Time(t) && prev.Height(t) <= cur.Height(t),
					"asc: %s (t %d, h %d) before %s (t %d, h %d)", prev.TxHash, prev.Time(t), prev.Height(t), cur.TxHash, cur.Time(t), cur.Height(t))
			}
			reversed := txHashes(desc)
			slices.Reverse(reversed)
			require.Equal(t, txHashes(asc), reversed, "desc is asc reversed")
			// The scenario's own order is the chain order: its txs are in
			// distinct seconds.
			require.Equal(t, scenarioHashes(s.txsOn(chain, true)), txHashes(asc), "asc = the order the scenario issued them")
			one := listPrimaryTxs(t, ctx, chain, url.Values{"addresses": {addr}, "sortOrder": {"asc"}, "pageSize": {"1"}})
			require.Equal(t, txHashes(asc), txHashes(one), "pageSize 1 paging")
			oneDesc := listPrimaryTxs(t, ctx, chain, url.Values{"addresses": {addr}, "pageSize": {"1"}, "sortOrder": {"desc"}})
			require.Equal(t, txHashes(desc), txHashes(oneDesc), "pageSize 1 paging, desc")
		})
	}
}

// TestPrimaryTxsTimeFilter: startTimestamp/endTimestamp keep the txs in the
// window. Scenario txs are a second or more apart; whether the bounds
// themselves are inclusive is not asserted.
func TestPrimaryTxsTimeFilter(t *testing.T) {
	s, ctx := primaryFixture(t)
	for _, chain := range []string{"P", "X", "C"} {
		t.Run(chain, func(t *testing.T) {
			txs := s.txsOn(chain, true)
			require.GreaterOrEqual(t, len(txs), 3, "the scenario makes at least 3 txs of A on %s", chain)
			start, end := txs[0].blockTime, txs[len(txs)-1].blockTime
			q := url.Values{"addresses": {s.addressFor(t, chain)}, "pageSize": {"100"},
				"startTimestamp": {strconv.FormatInt(start, 10)}, "endTimestamp": {strconv.FormatInt(end, 10)}}
			got := txHashes(listPrimaryTxs(t, ctx, chain, q))
			for _, tx := range txs {
				switch {
				case tx.blockTime > start && tx.blockTime < end:
					require.Contains(t, got, tx.id.String(), "%s at %d is inside [%d, %d]", tx, tx.blockTime, start, end)
				case tx.blockTime < start || tx.blockTime > end:
					require.NotContains(t, got, tx.id.String(), "%s at %d is outside [%d, %d]", tx, tx.blockTime, start, end)
				}
			}
			for _, h := range got {
				require.Contains(t, scenarioHashes(txs), h, "time filter listed %s, not a tx of A", h)
			}
			// A window before any of A's txs is empty.
			q.Set("startTimestamp", "1")
			q.Set("endTimestamp", strconv.FormatInt(s.snapshots[0].time, 10))
			require.Empty(t, listPrimaryTxs(t, ctx, chain, q), "txs of A before the scenario")
		})
	}
}

// TestPrimaryTxsTypeFilter: txTypes keeps only the named types.
func TestPrimaryTxsTypeFilter(t *testing.T) {
	s, ctx := primaryFixture(t)
	cases := []struct {
		chain string
		types []string
	}{
		{"X", []string{"ImportTx", "ExportTx"}},
		{"X", []string{"BaseTx"}},
		{"P", []string{"ImportTx"}},
		{"P", []string{"BaseTx", "ExportTx"}},
		{"C", []string{"ExportTx"}},
		{"X", []string{"AddValidatorTx"}},
	}
	for _, c := range cases {
		t.Run(c.chain+" "+strings.Join(c.types, ","), func(t *testing.T) {
			var want []string
			for _, tx := range s.txsOn(c.chain, true) {
				if slices.Contains(c.types, tx.txType) {
					want = append(want, tx.id.String())
				}
			}
			q := url.Values{"addresses": {s.addressFor(t, c.chain)}, "txTypes": {strings.Join(c.types, ",")}, "pageSize": {"100"}}
			got := listPrimaryTxs(t, ctx, c.chain, q)
			require.ElementsMatch(t, want, txHashes(got), "%s txTypes=%v", c.chain, c.types)
		})
	}
}
