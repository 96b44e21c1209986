package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// X-chain DAG vertices (keys.go 0x42, 0x43, 0x46): one record per vertex
// keyed by its acceptance index, a DAG-height index row and a vertex-ID row
// beside it; their txs go through dagtx.go.

func vertexKey(index uint64) []byte { return key{tagVertex}.u64(index) }

func vertexHeightPrefix(dagHeight uint64) key { return key{tagVtxH}.u64(dagHeight) }

func vertexIDKey(id ids.ID) []byte { return key{tagVtxID}.id(id) }

func encodeVertex(v *pdata.Vertex) []byte {
	w := rowWriter{buf: make([]byte, 0, 64+32*(len(v.ParentIDs)+len(v.TxIDs)))}
	w.byte(rowVersion1)
	w.id(v.ID)
	writeIDs(&w, v.ParentIDs)
	w.uint(v.DAGHeight)
	w.int(v.Timestamp)
	w.uint(uint64(v.Size))
	writeIDs(&w, v.TxIDs)
	return w.buf
}

func decodeVertex(index uint64, b []byte) (pdata.Vertex, error) {
	r := rowReader{buf: b}
	if ver := r.byte(); ver != rowVersion1 {
		return pdata.Vertex{}, fmt.Errorf("vertex row version %d", ver)
	}
	v := pdata.Vertex{Number: index + 1, Index: index}
	v.ID = r.id()
	v.ParentIDs = readIDs(&r)
	v.DAGHeight = r.uint()
	v.Timestamp = r.int()
	v.Size = int(r.uint())
	v.TxIDs = readIDs(&r)
	// Empty lists read back as nil, as the source gives them.
	if len(v.ParentIDs) == 0 {
		v.ParentIDs = nil
	}
	if len(v.TxIDs) == 0 {
		v.TxIDs = nil
	}
	return v, r.done()
}

// VertexWriter writes the X-chain vertex follower's vertices and their txs
// (a follower.Sink[*pdata.Vertex]) under the X-chain's StreamVertices
// cursor.
type VertexWriter struct{ s *Store }

// VertexWriter returns the X-chain vertex writer.
func (s *Store) VertexWriter() *VertexWriter { return &VertexWriter{s: s} }

// Cursor is the vertex stream's cursor (NextHeight = next index + 1).
func (w *VertexWriter) Cursor(ctx context.Context) (Cursor, error) {
	return w.s.Cursor(ctx, netinfo.X, StreamVertices)
}

// Start makes the stream, never written yet, begin at height first.
func (w *VertexWriter) Start(ctx context.Context, first uint64) error {
	return w.s.StartStream(ctx, netinfo.X, StreamVertices, first)
}

// Apply writes vertices (consecutive from the cursor) and advances it.
func (w *VertexWriter) Apply(ctx context.Context, vertices []*pdata.Vertex, now time.Time) error {
	return commitBlocks(ctx, w.s, netinfo.X, StreamVertices, vertices, now, writeVertex)
}

func writeVertex(txn *blockTxn, v *pdata.Vertex) error {
	if v.Number != v.Index+1 {
		return fmt.Errorf("vertex %s: number %d for index %d", v.ID, v.Number, v.Index)
	}
	if err := txn.set(vertexKey(v.Index), encodeVertex(v)); err != nil {
		return err
	}
	if err := txn.set(vertexHeightPrefix(v.DAGHeight).u64(v.Index), nil); err != nil {
		return err
	}
	if err := txn.set(vertexIDKey(v.ID), binary.BigEndian.AppendUint64(nil, v.Index)); err != nil {
		return err
	}
	return writeVertexTxs(txn, v)
}

// LatestVertices lists the indexed vertices newest (highest acceptance
// index) first, continuing below index *after when after is set; at most
// limit (no bound when <= 0).
func (s *Store) LatestVertices(ctx context.Context, after *uint64, limit int) ([]pdata.Vertex, error) {
	var out []pdata.Vertex
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := key{tagVertex}
		var hi []byte
		if after != nil {
			hi = vertexKey(*after)
		}
		return scanRange(ctx, txn, prefix, prefix, hi, true, func(item *badger.Item) (bool, error) {
			index := beUint64(item.Key()[len(prefix):])
			err := item.Value(func(b []byte) error {
				v, err := decodeVertex(index, b)
				out = append(out, v)
				return err
			})
			return limit <= 0 || len(out) < limit, err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing vertices: %w", err)
	}
	return out, nil
}

// VerticesAtHeight lists the vertices of DAG height dagHeight by acceptance
// index (descending when desc), continuing after index *after when after is
// set; at most limit (no bound when <= 0).
func (s *Store) VerticesAtHeight(ctx context.Context, dagHeight uint64, desc bool, after *uint64, limit int) ([]pdata.Vertex, error) {
	var out []pdata.Vertex
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := vertexHeightPrefix(dagHeight)
		lo := []byte(prefix)
		var hi []byte
		if after != nil {
			if desc {
				hi = prefix.u64(*after)
			} else {
				lo = successor(prefix.u64(*after))
			}
		}
		return scanRange(ctx, txn, prefix, lo, hi, desc, func(item *badger.Item) (bool, error) {
			index := beUint64(item.Key()[len(prefix):])
			b, err := getValue(txn, vertexKey(index))
			if err != nil {
				return false, err
			}
			if b == nil {
				return false, fmt.Errorf("height row of vertex %d without the vertex", index)
			}
			v, err := decodeVertex(index, b)
			if err != nil {
				return false, fmt.Errorf("vertex %d: %w", index, err)
			}
			out = append(out, v)
			return limit <= 0 || len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing vertices of DAG height %d: %w", dagHeight, err)
	}
	return out, nil
}

// VertexByID returns the indexed vertex with that ID; false when none has
// it.
func (s *Store) VertexByID(ctx context.Context, id ids.ID) (pdata.Vertex, bool, error) {
	var v pdata.Vertex
	found := false
	err := s.read(ctx, func(txn *badger.Txn) error {
		b, err := getValue(txn, vertexIDKey(id))
		if err != nil || b == nil {
			return err
		}
		if len(b) != 8 {
			return fmt.Errorf("vertex ID row of %d bytes", len(b))
		}
		index := beUint64(b)
		rec, err := getValue(txn, vertexKey(index))
		if err != nil {
			return err
		}
		if rec == nil {
			return fmt.Errorf("vertex ID row names index %d, which has no vertex", index)
		}
		v, err = decodeVertex(index, rec)
		found = err == nil
		return err
	})
	if err != nil {
		return pdata.Vertex{}, false, fmt.Errorf("reading vertex %s: %w", id, err)
	}
	return v, found, nil
}
