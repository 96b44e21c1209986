package truth

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/codec"
	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/ava-labs/avalanchego/utils/hashing"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/stakeable"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/proposervm/block"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	xbuilder "github.com/ava-labs/avalanchego/wallet/chain/x/builder"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/crypto"
	"github.com/ava-labs/libevm/rlp"
	"github.com/stretchr/testify/require"
)

// Ground truth for the primary-network tests: what the node's own JSON APIs
// say (platform.*, avm.*, avax.* on C, the index API), read without
// avadata's parsers. Field names are the node's (v1.14.2).

// SnowmanBlock is a P or X block as platform/avm.getBlockByHeight shows it
// in json encoding.
type SnowmanBlock struct {
	Height   uint64
	Time     int64
	ID       string // the inner (platformvm/avm) block ID
	ParentID string
	TxIDs    []ids.ID
}

// SnowmanBlockTxs reads block h of chain: the block's "txs" (standard
// blocks) or "tx" (proposal/atomic blocks) carry each tx's "id".
func SnowmanBlockTxs(t *testing.T, ctx context.Context, uri, chain string, h uint64) SnowmanBlock {
	t.Helper()
	type jsonTx struct {
		ID ids.ID `json:"id"`
	}
	var reply struct {
		Block struct {
			ID       string          `json:"id"`
			ParentID string          `json:"parentID"`
			Height   avajson.Uint64  `json:"height"`
			Time     uint64          `json:"time"`
			Txs      []jsonTx        `json:"txs"`
			Tx       *jsonTx         `json:"tx"`
			Raw      json.RawMessage `json:"-"`
		} `json:"block"`
	}
	method := map[string]string{"P": "platform.getBlockByHeight", "X": "avm.getBlockByHeight"}[chain]
	args := map[string]any{"height": avajson.Uint64(h), "encoding": "json"}
	require.NoError(t, Call(ctx, uri+"/ext/bc/"+chain, method, args, &reply), "%s block %d", chain, h)
	b := SnowmanBlock{Height: uint64(reply.Block.Height), Time: int64(reply.Block.Time), ID: reply.Block.ID, ParentID: reply.Block.ParentID}
	for _, tx := range reply.Block.Txs {
		b.TxIDs = append(b.TxIDs, tx.ID)
	}
	if reply.Block.Tx != nil {
		b.TxIDs = append(b.TxIDs, reply.Block.Tx.ID)
	}
	require.Equal(t, h, b.Height, "%s block %d: height in the reply", chain, h)
	return b
}

// LocateAtomicTx finds the C-chain block of an accepted atomic tx:
// avax.getAtomicTxStatus gives "status" and "blockHeight", the eth API the
// block's time and hash.
func LocateAtomicTx(t *testing.T, ctx context.Context, uri string, txID ids.ID) (height uint64, blockTime int64, hash string) {
	t.Helper()
	var status struct {
		Status      string          `json:"status"`
		BlockHeight *avajson.Uint64 `json:"blockHeight"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/bc/C/avax", "avax.getAtomicTxStatus", map[string]any{"txID": txID}, &status))
	require.Equal(t, "Accepted", status.Status, "C atomic tx %s", txID)
	require.NotNil(t, status.BlockHeight, "C atomic tx %s: no blockHeight", txID)
	var blk struct {
		Hash      string         `json:"hash"`
		Timestamp hexutil.Uint64 `json:"timestamp"`
	}
	h := uint64(*status.BlockHeight)
	require.NoError(t, EthClient(t, ctx, uri).CallContext(ctx, &blk, "eth_getBlockByNumber", hexutil.Uint64(h), false))
	return h, int64(blk.Timestamp), blk.Hash
}

// PBalance is platform.getBalance's per-asset maps ("unlockeds",
// "lockedStakeables", "lockedNotStakeables"), keyed by asset ID.
type PBalance struct {
	Unlocked, LockedStakeable, LockedNotStakeable map[ids.ID]uint64
	UTXOs                                         int // len("utxoIDs")
}

// BalanceOnP is platform.getBalance of addr.
func BalanceOnP(t *testing.T, ctx context.Context, uri, addr string) PBalance {
	t.Helper()
	var reply struct {
		Unlockeds           map[ids.ID]avajson.Uint64 `json:"unlockeds"`
		LockedStakeables    map[ids.ID]avajson.Uint64 `json:"lockedStakeables"`
		LockedNotStakeables map[ids.ID]avajson.Uint64 `json:"lockedNotStakeables"`
		UTXOIDs             []json.RawMessage         `json:"utxoIDs"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/bc/P", "platform.getBalance", map[string]any{"addresses": []string{addr}}, &reply))
	conv := func(m map[ids.ID]avajson.Uint64) map[ids.ID]uint64 {
		out := map[ids.ID]uint64{}
		for k, v := range m {
			if v != 0 {
				out[k] = uint64(v)
			}
		}
		return out
	}
	return PBalance{Unlocked: conv(reply.Unlockeds), LockedStakeable: conv(reply.LockedStakeables),
		LockedNotStakeable: conv(reply.LockedNotStakeables), UTXOs: len(reply.UTXOIDs)}
}

// BalancesOnX is avm.getAllBalances of addr: unlocked outputs owned by
// addr alone, per asset. The reply's "asset" is the asset's alias when it
// has one ("AVAX"), else its ID.
func BalancesOnX(t *testing.T, ctx context.Context, uri, addr string, avaxID ids.ID) map[ids.ID]uint64 {
	t.Helper()
	var reply struct {
		Balances []struct {
			Asset   string         `json:"asset"`
			Balance avajson.Uint64 `json:"balance"`
		} `json:"balances"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/bc/X", "avm.getAllBalances", map[string]any{"address": addr}, &reply))
	out := map[ids.ID]uint64{}
	for _, b := range reply.Balances {
		id := avaxID
		if b.Asset != "AVAX" {
			var err error
			id, err = ids.FromString(b.Asset)
			require.NoError(t, err, "avm.getAllBalances asset %q", b.Asset)
		}
		out[id] += uint64(b.Balance)
	}
	return out
}

// UTXO is one UTXO as a node's getUTXOs returned it, decoded.
type UTXO struct {
	ID            ids.ID // avax.UTXOID.InputID(), the Data API utxoId
	TxID          ids.ID
	Index         uint32
	Asset         ids.ID
	Amount        uint64
	Locktime      uint64 // the owners' (platform) locktime
	StakeLocktime uint64 // stakeable.LockOut locktime, P only
	Addrs         []ids.ShortID
}

// utxoCodecs are the codecs each chain's getUTXOs marshals with.
func utxoCodec(chain string) codec.Manager {
	switch chain {
	case "P":
		return txs.Codec
	case "X":
		return xbuilder.Parser.Codec()
	default:
		return atomic.Codec
	}
}

// UTXOs pages through getUTXOs of addr on chain (sourceChain set: the
// atomic UTXOs exported from it to chain and not yet imported).
func UTXOs(t *testing.T, ctx context.Context, uri, chain, sourceChain, addr string) []UTXO {
	t.Helper()
	endpoint, method := map[string][2]string{
		"P": {uri + "/ext/bc/P", "platform.getUTXOs"},
		"X": {uri + "/ext/bc/X", "avm.getUTXOs"},
		"C": {uri + "/ext/bc/C/avax", "avax.getUTXOs"},
	}[chain][0], map[string]string{"P": "platform.getUTXOs", "X": "avm.getUTXOs", "C": "avax.getUTXOs"}[chain]
	type index struct {
		Address string `json:"address"`
		UTXO    string `json:"utxo"`
	}
	var out []UTXO
	var start *index
	for {
		args := map[string]any{"addresses": []string{addr}, "limit": 1024, "encoding": "hex"}
		if sourceChain != "" {
			args["sourceChain"] = sourceChain
		}
		if start != nil {
			args["startIndex"] = start
		}
		var reply struct {
			NumFetched avajson.Uint64 `json:"numFetched"`
			UTXOs      []string       `json:"utxos"`
			EndIndex   index          `json:"endIndex"`
		}
		require.NoError(t, Call(ctx, endpoint, method, args, &reply))
		for _, s := range reply.UTXOs {
			b, err := formatting.Decode(formatting.Hex, s)
			require.NoError(t, err)
			var u avax.UTXO
			_, err = utxoCodec(chain).Unmarshal(b, &u)
			require.NoError(t, err, "%s UTXO %s", method, s)
			out = append(out, DecodeUTXO(t, &u))
		}
		if len(reply.UTXOs) < 1024 {
			return out
		}
		start = &reply.EndIndex
	}
}

// DecodeUTXO is u as the tests compare it.
func DecodeUTXO(t *testing.T, u *avax.UTXO) UTXO {
	t.Helper()
	n := UTXO{ID: u.InputID(), TxID: u.TxID, Index: u.OutputIndex, Asset: u.AssetID()}
	out := u.Out
	if lock, ok := out.(*stakeable.LockOut); ok {
		n.StakeLocktime = lock.Locktime
		out = lock.TransferableOut
	}
	switch o := out.(type) {
	case *secp256k1fx.TransferOutput:
		n.Amount, n.Locktime, n.Addrs = o.Amt, o.Locktime, o.Addrs
	case *secp256k1fx.MintOutput:
		// A variable-cap asset's mint right: owners, no amount.
		n.Locktime, n.Addrs = o.Locktime, o.Addrs
	default:
		require.Failf(t, "unexpected output", "UTXO %s: output %T", n.ID, out)
	}
	return n
}

// AtomicUTXOs is what chain dest holds in atomic memory for addr,
// exported from chain src.
func AtomicUTXOs(t *testing.T, ctx context.Context, uri, dest, src, addr string) []UTXO {
	t.Helper()
	return UTXOs(t, ctx, uri, dest, src, addr)
}

// SumByAsset adds the UTXOs' amounts per asset.
func SumByAsset(utxos []UTXO) map[ids.ID]uint64 {
	out := map[ids.ID]uint64{}
	for _, u := range utxos {
		out[u.Asset] += u.Amount
	}
	return out
}

// Tx is a P or X tx as platform/avm.getTx shows it in json encoding:
// the parts the Data API's tx fields come from.
type Tx struct {
	ID   ids.ID
	Memo []byte
	// Ins are the consumed UTXOs (regular and imported inputs), outs the
	// outputs in the order of their output index (regular outputs, then
	// exported ones).
	Ins  []In
	Outs []Out
	// SourceChain / destinationChain of an import / export.
	SourceChain, DestinationChain string
	Raw                           json.RawMessage
}

// In is one consumed UTXO of a Tx.
type In struct {
	UTXOID ids.ID // InputID of (txID, outputIndex)
	Asset  ids.ID
	Amount uint64
}

// Out is one output of a Tx.
type Out struct {
	Index    uint32
	Asset    ids.ID
	Amount   uint64
	Locktime uint64
	Addrs    []string // as the node prints them ("P-local1..." or "X-local1...")
}

// GetTx reads a P or X tx with getTx (json encoding).
func GetTx(t *testing.T, ctx context.Context, uri, chain string, txID ids.ID) Tx {
	t.Helper()
	var reply struct {
		Tx json.RawMessage `json:"tx"`
	}
	method := map[string]string{"P": "platform.getTx", "X": "avm.getTx"}[chain]
	require.NoError(t, Call(ctx, uri+"/ext/bc/"+chain, method, map[string]any{"txID": txID, "encoding": "json"}, &reply))
	var tx struct {
		Unsigned struct {
			Memo             string         `json:"memo"`
			Inputs           []jsonInput    `json:"inputs"`
			Outputs          []jsonOutput   `json:"outputs"`
			ImportedInputs   []jsonInput    `json:"importedInputs"`
			ExportedOutputs  []jsonOutput   `json:"exportedOutputs"`
			SourceChain      string         `json:"sourceChain"`
			DestinationChain string         `json:"destinationChain"`
			States           []jsonFxStates `json:"initialStates"`
		} `json:"unsignedTx"`
		ID ids.ID `json:"id"`
	}
	require.NoError(t, json.Unmarshal(reply.Tx, &tx), "%s: %s", method, reply.Tx)
	require.Equal(t, txID, tx.ID, "%s id", method)
	u := tx.Unsigned
	n := Tx{ID: txID, SourceChain: u.SourceChain, DestinationChain: u.DestinationChain, Raw: reply.Tx}
	if u.Memo != "" && u.Memo != "0x" {
		var err error
		n.Memo, err = hexutil.Decode(u.Memo)
		require.NoError(t, err, "memo %q", u.Memo)
	}
	for _, in := range append(append([]jsonInput{}, u.Inputs...), u.ImportedInputs...) {
		n.Ins = append(n.Ins, in.decode(t))
	}
	for _, out := range append(append([]jsonOutput{}, u.Outputs...), u.ExportedOutputs...) {
		n.Outs = append(n.Outs, out.decode(t, uint32(len(n.Outs))))
	}
	// A CreateAssetTx's initial states are outputs too, after the regular
	// ones, of the asset the tx creates.
	for _, st := range u.States {
		for _, o := range st.Outputs {
			n.Outs = append(n.Outs, Out{Index: uint32(len(n.Outs)), Asset: txID, Amount: uint64(o.Amount),
				Locktime: uint64(o.Locktime), Addrs: o.Addresses})
		}
	}
	return n
}

type jsonInput struct {
	TxID        ids.ID `json:"txID"`
	OutputIndex uint32 `json:"outputIndex"`
	AssetID     ids.ID `json:"assetID"`
	Input       struct {
		Amount avajson.Uint64 `json:"amount"`
		// A stakeable.LockIn nests the transfer input.
		Input *struct {
			Amount avajson.Uint64 `json:"amount"`
		} `json:"input"`
	} `json:"input"`
}

func (in jsonInput) decode(t *testing.T) In {
	amount := uint64(in.Input.Amount)
	if in.Input.Input != nil {
		amount = uint64(in.Input.Input.Amount)
	}
	return In{UTXOID: in.TxID.Prefix(uint64(in.OutputIndex)), Asset: in.AssetID, Amount: amount}
}

type jsonOwnedOutput struct {
	Addresses []string       `json:"addresses"`
	Amount    avajson.Uint64 `json:"amount"`
	Locktime  avajson.Uint64 `json:"locktime"`
	Threshold avajson.Uint32 `json:"threshold"`
}

type jsonOutput struct {
	AssetID ids.ID `json:"assetID"`
	Output  struct {
		jsonOwnedOutput
		// A stakeable.LockOut nests the transfer output.
		Locktime avajson.Uint64   `json:"locktime"`
		Output   *jsonOwnedOutput `json:"output"`
	} `json:"output"`
}

func (o jsonOutput) decode(t *testing.T, index uint32) Out {
	inner := o.Output.jsonOwnedOutput
	inner.Locktime = o.Output.Locktime
	if o.Output.Output != nil {
		inner = *o.Output.Output
	}
	return Out{Index: index, Asset: o.AssetID, Amount: uint64(inner.Amount), Locktime: uint64(inner.Locktime), Addrs: inner.Addresses}
}

type jsonFxStates struct {
	Outputs []jsonOwnedOutput `json:"outputs"`
}

// AtomicTx reads a C-chain atomic tx with avax.getAtomicTx (hex; the
// json encoding is not offered there) and decodes it with coreth's codec.
func AtomicTx(t *testing.T, ctx context.Context, uri string, txID ids.ID) *atomic.Tx {
	t.Helper()
	var reply struct {
		Tx string `json:"tx"`
	}
	require.NoError(t, Call(ctx, uri+"/ext/bc/C/avax", "avax.getAtomicTx", map[string]any{"txID": txID, "encoding": "hex"}, &reply))
	b, err := formatting.Decode(formatting.Hex, reply.Tx)
	require.NoError(t, err)
	tx, err := atomic.ExtractAtomicTx(b, atomic.Codec)
	require.NoError(t, err, "C atomic tx %s", txID)
	require.Equal(t, txID, tx.ID(), "C atomic tx ID")
	return tx
}

// IndexedBlock is one accepted block from the node's index API
// (/ext/index/{P,X,C}/block), parsed with avalanchego's proposervm parser:
// the outer block ID, its proposer and the inner block it wraps.
type IndexedBlock struct {
	OuterID      ids.ID
	ParentID     ids.ID
	Proposer     ids.NodeID // empty for options and unsigned blocks
	PChainHeight uint64
	Timestamp    int64
	Signed       bool
	// InnerID is the inner block's ID: sha256 of its bytes for P and X,
	// the eth block hash (keccak of the RLP header) for C.
	InnerID string
	Size    int
}

// IndexedBlocks reads every container of chain's block index. A fresh
// local network indexes from genesis on, so container i is block i+1.
func IndexedBlocks(t *testing.T, ctx context.Context, uri, chain string) []IndexedBlock {
	t.Helper()
	endpoint := uri + "/ext/index/" + chain + "/block"
	var out []IndexedBlock
	for {
		var reply struct {
			Containers []struct {
				ID    ids.ID         `json:"id"`
				Bytes string         `json:"bytes"`
				Index avajson.Uint64 `json:"index"`
			} `json:"containers"`
		}
		args := map[string]any{"startIndex": avajson.Uint64(len(out)), "numToFetch": avajson.Uint64(1024), "encoding": "hex"}
		err := Call(ctx, endpoint, "index.getContainerRange", args, &reply)
		if err != nil && len(out) > 0 && strings.Contains(err.Error(), "start index") {
			return out // past the last accepted container
		}
		require.NoError(t, err)
		for _, c := range reply.Containers {
			require.Equal(t, uint64(len(out)), uint64(c.Index), "%s index order", chain)
			b, err := formatting.Decode(formatting.Hex, c.Bytes)
			require.NoError(t, err)
			out = append(out, parseIndexedBlock(t, chain, c.ID, b))
		}
		if len(reply.Containers) < 1024 {
			return out
		}
	}
}

func parseIndexedBlock(t *testing.T, chain string, id ids.ID, b []byte) IndexedBlock {
	t.Helper()
	blk, err := block.ParseWithoutVerification(b)
	require.NoError(t, err, "%s container %s", chain, id)
	require.Equal(t, id, blk.ID(), "%s container ID", chain)
	ib := IndexedBlock{OuterID: blk.ID(), ParentID: blk.ParentID(), Size: len(b)}
	if s, ok := blk.(block.SignedBlock); ok {
		ib.Signed = true
		ib.Proposer, ib.PChainHeight, ib.Timestamp = s.Proposer(), s.PChainHeight(), s.Timestamp().Unix()
	}
	inner := blk.Block()
	if chain != "C" {
		ib.InnerID = ids.ID(hashing.ComputeHash256Array(inner)).String()
		return ib
	}
	list, _, err := rlp.SplitList(inner)
	require.NoError(t, err, "C block RLP")
	_, _, rest, err := rlp.Split(list)
	require.NoError(t, err, "C header RLP")
	ib.InnerID = crypto.Keccak256Hash(list[:len(list)-len(rest)]).Hex()
	return ib
}

// String names the block in failure messages.
func (b IndexedBlock) String() string {
	return fmt.Sprintf("outer %s inner %s proposer %s", b.OuterID, b.InnerID, b.Proposer)
}
