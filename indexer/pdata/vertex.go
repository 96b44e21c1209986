package pdata

import "github.com/ava-labs/avalanchego/ids"

// Vertex is one accepted vertex of the pre-Cortina X-chain DAG, as the
// node's vertex index (/ext/index/X/vtx) holds it. The vertex follower
// moves vertices in index order: Number (index position + 1) is the
// follower's height, Index the acceptance index itself. (The DAG height is
// DAGHeight: Height is the chaindata.Block method, which returns Number.)
type Vertex struct {
	Number    uint64 // Index + 1: the follower's height
	ID        ids.ID
	ParentIDs []ids.ID
	DAGHeight uint64 // the vertex's height in the DAG
	Index     uint64 // acceptance index in the node's vertex index
	// Timestamp is the time the node accepted the vertex (the index
	// container's timestamp), in Unix seconds; 0 when unknown. DAG vertices
	// carry no time of their own, and a node that bootstrapped the DAG
	// accepted every vertex at bootstrap time, so this is the node's
	// acceptance time, not the time the network accepted it.
	Timestamp int64
	TxIDs     []ids.ID
	// Txs are the vertex's txs decoded (TxIDs[i] is Txs[i].ID), as the
	// source gives them: the vertex writer indexes them as X-chain txs. The
	// store's vertex rows keep only TxIDs, so a vertex read back has none.
	Txs  []*Tx
	Size int // bytes of the vertex
}

// Height is the follower's height of the vertex (Number), not its DAG
// height.
func (v *Vertex) Height() uint64 { return v.Number }
func (v *Vertex) Time() int64    { return v.Timestamp }
func (v *Vertex) TxCount() int   { return len(v.TxIDs) }
