package e2e

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

// snowmanBlock is a P or X block as platform/avm.getBlockByHeight shows it
// in json encoding.
type snowmanBlock struct {
	height   uint64
	time     int64
	id       string // the inner (platformvm/avm) block ID
	parentID string
	txIDs    []ids.ID
}

// nodeSnowmanBlockTxs reads block h of chain: the block's "txs" (standard
// blocks) or "tx" (proposal/atomic blocks) carry each tx's "id".
func nodeSnowmanBlockTxs(t *testing.T, ctx context.Context, uri, chain string, h uint64) snowmanBlock {
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
	require.NoError(t, callJSON(ctx, uri+"/ext/bc/"+chain, method, args, &reply), "%s block %d", chain, h)
	b := snowmanBlock{height: uint64(reply.Block.Height), time: int64(reply.Block.Time), id: reply.Block.ID, parentID: reply.Block.ParentID}
	for _, tx := range reply.Block.Txs {
		b.txIDs = append(b.txIDs, tx.ID)
	}
	if reply.Block.Tx != nil {
		b.txIDs = append(b.txIDs, reply.Block.Tx.ID)
	}
	require.Equal(t, h, b.height, "%s block %d: height in the reply", chain, h)
	return b
}

// locateAtomicTx finds the C-chain block of an accepted atomic tx:
// avax.getAtomicTxStatus gives "status" and "blockHeight", the eth API the
// block's time and hash.
func locateAtomicTx(t *testing.T, ctx context.Context, uri string, txID ids.ID) (height uint64, blockTime int64, hash string) {
	t.Helper()
	var status struct {
		Status      string          `json:"status"`
		BlockHeight *avajson.Uint64 `json:"blockHeight"`
	}
	require.NoError(t, callJSON(ctx, uri+"/ext/bc/C/avax", "avax.getAtomicTxStatus", map[string]any{"txID": txID}, &status))
	require.Equal(t, "Accepted", status.Status, "C atomic tx %s", txID)
	require.NotNil(t, status.BlockHeight, "C atomic tx %s: no blockHeight", txID)
	var blk struct {
		Hash      string         `json:"hash"`
		Timestamp hexutil.Uint64 `json:"timestamp"`
	}
	h := uint64(*status.BlockHeight)
	require.NoError(t, ethClient(t, ctx, uri).CallContext(ctx, &blk, "eth_getBlockByNumber", hexutil.Uint64(h), false))
	return h, int64(blk.Timestamp), blk.Hash
}

// pBalance is platform.getBalance's per-asset maps ("unlockeds",
// "lockedStakeables", "lockedNotStakeables"), keyed by asset ID.
type pBalance struct {
	Unlocked, LockedStakeable, LockedNotStakeable map[ids.ID]uint64
	UTXOs                                         int // len("utxoIDs")
}

func nodePBalance(t *testing.T, ctx context.Context, uri, addr string) pBalance {
	t.Helper()
	var reply struct {
		Unlockeds           map[ids.ID]avajson.Uint64 `json:"unlockeds"`
		LockedStakeables    map[ids.ID]avajson.Uint64 `json:"lockedStakeables"`
		LockedNotStakeables map[ids.ID]avajson.Uint64 `json:"lockedNotStakeables"`
		UTXOIDs             []json.RawMessage         `json:"utxoIDs"`
	}
	require.NoError(t, callJSON(ctx, uri+"/ext/bc/P", "platform.getBalance", map[string]any{"addresses": []string{addr}}, &reply))
	conv := func(m map[ids.ID]avajson.Uint64) map[ids.ID]uint64 {
		out := map[ids.ID]uint64{}
		for k, v := range m {
			if v != 0 {
				out[k] = uint64(v)
			}
		}
		return out
	}
	return pBalance{Unlocked: conv(reply.Unlockeds), LockedStakeable: conv(reply.LockedStakeables),
		LockedNotStakeable: conv(reply.LockedNotStakeables), UTXOs: len(reply.UTXOIDs)}
}

// nodeXBalances is avm.getAllBalances of addr: unlocked outputs owned by
// addr alone, per asset. The reply's "asset" is the asset's alias when it
// has one ("AVAX"), else its ID.
func nodeXBalances(t *testing.T, ctx context.Context, uri, addr string, avaxID ids.ID) map[ids.ID]uint64 {
	t.Helper()
	var reply struct {
		Balances []struct {
			Asset   string         `json:"asset"`
			Balance avajson.Uint64 `json:"balance"`
		} `json:"balances"`
	}
	require.NoError(t, callJSON(ctx, uri+"/ext/bc/X", "avm.getAllBalances", map[string]any{"address": addr}, &reply))
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

// nodeUTXO is one UTXO as a node's getUTXOs returned it, decoded.
type nodeUTXO struct {
	id       ids.ID // avax.UTXOID.InputID(), the Data API utxoId
	txID     ids.ID
	index    uint32
	asset    ids.ID
	amount   uint64
	locktime uint64 // the owners' (platform) locktime
	stake    uint64 // stakeable.LockOut locktime, P only
	addrs    []ids.ShortID
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

// nodeUTXOs pages through getUTXOs of addr on chain (sourceChain set: the
// atomic UTXOs exported from it to chain and not yet imported).
func nodeUTXOs(t *testing.T, ctx context.Context, uri, chain, sourceChain, addr string) []nodeUTXO {
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
	var out []nodeUTXO
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
		require.NoError(t, callJSON(ctx, endpoint, method, args, &reply))
		for _, s := range reply.UTXOs {
			b, err := formatting.Decode(formatting.Hex, s)
			require.NoError(t, err)
			var u avax.UTXO
			_, err = utxoCodec(chain).Unmarshal(b, &u)
			require.NoError(t, err, "%s UTXO %s", method, s)
			out = append(out, decodeNodeUTXO(t, &u))
		}
		if len(reply.UTXOs) < 1024 {
			return out
		}
		start = &reply.EndIndex
	}
}

func decodeNodeUTXO(t *testing.T, u *avax.UTXO) nodeUTXO {
	t.Helper()
	n := nodeUTXO{id: u.InputID(), txID: u.TxID, index: u.OutputIndex, asset: u.AssetID()}
	out := u.Out
	if lock, ok := out.(*stakeable.LockOut); ok {
		n.stake = lock.Locktime
		out = lock.TransferableOut
	}
	tr, ok := out.(*secp256k1fx.TransferOutput)
	require.True(t, ok, "UTXO %s: output %T", n.id, out)
	n.amount, n.locktime, n.addrs = tr.Amt, tr.Locktime, tr.Addrs
	return n
}

// nodeAtomicUTXOs is what chain dest holds in atomic memory for addr,
// exported from chain src.
func nodeAtomicUTXOs(t *testing.T, ctx context.Context, uri, dest, src, addr string) []nodeUTXO {
	t.Helper()
	return nodeUTXOs(t, ctx, uri, dest, src, addr)
}

// sumByAsset adds the UTXOs' amounts per asset.
func sumByAsset(utxos []nodeUTXO) map[ids.ID]uint64 {
	out := map[ids.ID]uint64{}
	for _, u := range utxos {
		out[u.asset] += u.amount
	}
	return out
}

// nodeTx is a P or X tx as platform/avm.getTx shows it in json encoding:
// the parts the Data API's tx fields come from.
type nodeTx struct {
	id   ids.ID
	memo []byte
	// ins are the consumed UTXOs (regular and imported inputs), outs the
	// outputs in the order of their output index (regular outputs, then
	// exported ones).
	ins  []nodeIn
	outs []nodeOut
	// sourceChain / destinationChain of an import / export.
	sourceChain, destinationChain string
	raw                           json.RawMessage
}

type nodeIn struct {
	utxoID ids.ID // InputID of (txID, outputIndex)
	asset  ids.ID
	amount uint64
}

type nodeOut struct {
	index    uint32
	asset    ids.ID
	amount   uint64
	locktime uint64
	addrs    []string // as the node prints them ("P-local1..." or "X-local1...")
}

// nodeGetTx reads a P or X tx with getTx (json encoding).
func nodeGetTx(t *testing.T, ctx context.Context, uri, chain string, txID ids.ID) nodeTx {
	t.Helper()
	var reply struct {
		Tx json.RawMessage `json:"tx"`
	}
	method := map[string]string{"P": "platform.getTx", "X": "avm.getTx"}[chain]
	require.NoError(t, callJSON(ctx, uri+"/ext/bc/"+chain, method, map[string]any{"txID": txID, "encoding": "json"}, &reply))
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
	n := nodeTx{id: txID, sourceChain: u.SourceChain, destinationChain: u.DestinationChain, raw: reply.Tx}
	if u.Memo != "" && u.Memo != "0x" {
		var err error
		n.memo, err = hexutil.Decode(u.Memo)
		require.NoError(t, err, "memo %q", u.Memo)
	}
	for _, in := range append(append([]jsonInput{}, u.Inputs...), u.ImportedInputs...) {
		n.ins = append(n.ins, in.decode(t))
	}
	for _, out := range append(append([]jsonOutput{}, u.Outputs...), u.ExportedOutputs...) {
		n.outs = append(n.outs, out.decode(t, uint32(len(n.outs))))
	}
	// A CreateAssetTx's initial states are outputs too, after the regular
	// ones (indexing.md §3.1), of the asset the tx creates.
	for _, st := range u.States {
		for _, o := range st.Outputs {
			n.outs = append(n.outs, nodeOut{index: uint32(len(n.outs)), asset: txID, amount: uint64(o.Amount),
				locktime: uint64(o.Locktime), addrs: o.Addresses})
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

func (in jsonInput) decode(t *testing.T) nodeIn {
	amount := uint64(in.Input.Amount)
	if in.Input.Input != nil {
		amount = uint64(in.Input.Input.Amount)
	}
	return nodeIn{utxoID: in.TxID.Prefix(uint64(in.OutputIndex)), asset: in.AssetID, amount: amount}
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

func (o jsonOutput) decode(t *testing.T, index uint32) nodeOut {
	inner := o.Output.jsonOwnedOutput
	inner.Locktime = o.Output.Locktime
	if o.Output.Output != nil {
		inner = *o.Output.Output
	}
	return nodeOut{index: index, asset: o.AssetID, amount: uint64(inner.Amount), locktime: uint64(inner.Locktime), addrs: inner.Addresses}
}

type jsonFxStates struct {
	Outputs []jsonOwnedOutput `json:"outputs"`
}

// nodeAtomicTx reads a C-chain atomic tx with avax.getAtomicTx (hex; the
// json encoding is not offered there) and decodes it with coreth's codec.
func nodeAtomicTx(t *testing.T, ctx context.Context, uri string, txID ids.ID) *atomic.Tx {
	t.Helper()
	var reply struct {
		Tx string `json:"tx"`
	}
	require.NoError(t, callJSON(ctx, uri+"/ext/bc/C/avax", "avax.getAtomicTx", map[string]any{"txID": txID, "encoding": "hex"}, &reply))
	b, err := formatting.Decode(formatting.Hex, reply.Tx)
	require.NoError(t, err)
	tx, err := atomic.ExtractAtomicTx(b, atomic.Codec)
	require.NoError(t, err, "C atomic tx %s", txID)
	require.Equal(t, txID, tx.ID(), "C atomic tx ID")
	return tx
}

// indexedBlock is one accepted block from the node's index API
// (/ext/index/{P,X,C}/block), parsed with avalanchego's proposervm parser:
// the outer block ID, its proposer and the inner block it wraps.
type indexedBlock struct {
	outerID      ids.ID
	parentID     ids.ID
	proposer     ids.NodeID // empty for options and unsigned blocks
	pChainHeight uint64
	timestamp    int64
	signed       bool
	// innerID is the inner block's ID: sha256 of its bytes for P and X,
	// the eth block hash (keccak of the RLP header) for C.
	innerID string
	size    int
}

// nodeIndexedBlocks reads every container of chain's block index. A fresh
// local network indexes from genesis on, so container i is block i+1.
func nodeIndexedBlocks(t *testing.T, ctx context.Context, uri, chain string) []indexedBlock {
	t.Helper()
	endpoint := uri + "/ext/index/" + chain + "/block"
	var out []indexedBlock
	for {
		var reply struct {
			Containers []struct {
				ID    ids.ID         `json:"id"`
				Bytes string         `json:"bytes"`
				Index avajson.Uint64 `json:"index"`
			} `json:"containers"`
		}
		args := map[string]any{"startIndex": avajson.Uint64(len(out)), "numToFetch": avajson.Uint64(1024), "encoding": "hex"}
		err := callJSON(ctx, endpoint, "index.getContainerRange", args, &reply)
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

func parseIndexedBlock(t *testing.T, chain string, id ids.ID, b []byte) indexedBlock {
	t.Helper()
	blk, err := block.ParseWithoutVerification(b)
	require.NoError(t, err, "%s container %s", chain, id)
	require.Equal(t, id, blk.ID(), "%s container ID", chain)
	ib := indexedBlock{outerID: blk.ID(), parentID: blk.ParentID(), size: len(b)}
	if s, ok := blk.(block.SignedBlock); ok {
		ib.signed = true
		ib.proposer, ib.pChainHeight, ib.timestamp = s.Proposer(), s.PChainHeight(), s.Timestamp().Unix()
	}
	inner := blk.Block()
	if chain != "C" {
		ib.innerID = ids.ID(hashing.ComputeHash256Array(inner)).String()
		return ib
	}
	list, _, err := rlp.SplitList(inner)
	require.NoError(t, err, "C block RLP")
	_, _, rest, err := rlp.Split(list)
	require.NoError(t, err, "C header RLP")
	ib.innerID = crypto.Keccak256Hash(list[:len(list)-len(rest)]).Hex()
	return ib
}

// String names the block in failure messages.
func (b indexedBlock) String() string {
	return fmt.Sprintf("outer %s inner %s proposer %s", b.outerID, b.innerID, b.proposer)
}
