package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// DAG-era X-chain txs: the txs of the pre-Cortina vertices, which the vertex
// writer indexes as X-chain txs like a linear block's (keys.go 0x44 and the
// primary tx rows). The linearized chain starts from the DAG's stop vertex,
// so they sit between the genesis txs (height 0, index < dagTxIndexBase)
// and linear block 1: at height 0, index dagTxIndexBase + n for the n-th
// DAG tx in acceptance order. Listings by position then put them where they
// belong with no special case, and page tokens keep their shape.
//
// The vertex writer and the X block writer may run in either order or at
// once: a UTXO created in a vertex and spent in a block comes out the same
// whichever is written first (utxowrite.go reconciles a spend met before
// its creation).

// dagTxIndexBase is the index, at height 0, of the first DAG tx: the
// X-chain's genesis txs (one per genesis asset) take the indexes below it.
const dagTxIndexBase uint32 = 1 << 16

func vertexTxPrefix(txID ids.ID) key { return key{tagVtxTx}.id(txID) }

// inDAG reports whether an X-chain tx position is a DAG tx's.
func inDAG(pos pdata.TxPos) bool { return pos.Height == 0 && pos.Index >= dagTxIndexBase }

// writeVertexTxs writes v's txs as X-chain txs at the next DAG positions,
// stamped with v's acceptance time. A tx that an earlier vertex already
// holds (the DAG accepted some txs in several vertices) keeps its place and
// effects and only gains the vertex row.
func writeVertexTxs(txn *blockTxn, v *pdata.Vertex) error {
	if len(v.Txs) != len(v.TxIDs) {
		return fmt.Errorf("vertex %s: %d decoded txs for %d tx IDs", v.ID, len(v.Txs), len(v.TxIDs))
	}
	net := txn.s.network()
	for i, tx := range v.Txs {
		if tx.ID != v.TxIDs[i] {
			return fmt.Errorf("vertex %s tx %d: decoded %s, listed %s", v.ID, i, tx.ID, v.TxIDs[i])
		}
		if err := txn.set(vertexTxPrefix(tx.ID).u64(v.Index), nil); err != nil {
			return err
		}
		known, err := txn.has(ptxKey(tx.ID))
		if err != nil {
			return fmt.Errorf("looking up tx %s: %w", tx.ID, err)
		}
		if known {
			continue
		}
		pos, err := nextDAGTxPos(txn)
		if err != nil {
			return err
		}
		at := txPlace{chain: netinfo.X, pos: pos, block: v.ID, time: v.Timestamp}
		if err := writePrimaryTx(txn, net, at, tx); err != nil {
			return fmt.Errorf("vertex %s tx %s: %w", v.ID, tx.ID, err)
		}
	}
	return nil
}

// nextDAGTxPos hands out the next DAG tx position. The first call of a
// transaction finds it after the last DAG tx stored; later ones count on.
func nextDAGTxPos(txn *blockTxn) (pdata.TxPos, error) {
	if !txn.dagTxNextKnown {
		txn.dagTxNext, txn.dagTxNextKnown = firstFreeDAGTxIndex(txn), true
	}
	if txn.dagTxNext == math.MaxUint32 {
		return pdata.TxPos{}, fmt.Errorf("the X-chain DAG holds more txs than the %d positions kept for them",
			math.MaxUint32-dagTxIndexBase)
	}
	pos := pdata.TxPos{Height: 0, Index: txn.dagTxNext}
	txn.dagTxNext++
	return pos, nil
}

// firstFreeDAGTxIndex is the index after the last DAG tx stored, or
// dagTxIndexBase when there is none (height 0 may hold only genesis txs).
func firstFreeDAGTxIndex(txn *blockTxn) uint32 {
	prefix := newKey(tagPChainTx, netinfo.X).u64(0)
	it := txn.txn.NewIterator(badger.IteratorOptions{Prefix: prefix, Reverse: true})
	defer it.Close()
	it.Seek(prefix.u32(math.MaxUint32)) // every key of the prefix is <= this one
	if !it.ValidForPrefix(prefix) {
		return dagTxIndexBase
	}
	last := binary.BigEndian.Uint32(it.Item().Key()[len(prefix):])
	if last < dagTxIndexBase {
		return dagTxIndexBase
	}
	return last + 1
}

// txVertices lists the vertices that hold the DAG tx id, in acceptance
// order.
func txVertices(ctx context.Context, txn *badger.Txn, id ids.ID) ([]pdata.TxVertex, error) {
	var out []pdata.TxVertex
	prefix := vertexTxPrefix(id)
	err := scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
		index := beUint64(item.Key()[len(prefix):])
		b, err := getValue(txn, vertexKey(index))
		if err != nil {
			return false, err
		}
		if b == nil {
			return false, fmt.Errorf("tx %s names vertex %d, which is not stored", id, index)
		}
		v, err := decodeVertex(index, b)
		if err != nil {
			return false, fmt.Errorf("vertex %d: %w", index, err)
		}
		out = append(out, pdata.TxVertex{ID: v.ID, DAGHeight: v.DAGHeight, Timestamp: v.Timestamp})
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the vertices of tx %s: %w", id, err)
	}
	return out, nil
}
