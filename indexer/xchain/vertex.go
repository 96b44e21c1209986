package xchain

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/indexer"
	"github.com/ava-labs/avalanchego/snow/engine/avalanche/vertex"

	"github.com/avadata/avadata/indexer/blockindex"
	"github.com/avadata/avadata/indexer/pdata"
)

// VertexIndexPath is the node's index of accepted X-chain vertices (the
// pre-Cortina DAG), under the node's URI.
const VertexIndexPath = "/ext/index/X/vtx"

// vertexRequestTimeout bounds one index call (the index client uses
// http.DefaultClient, which has none).
const vertexRequestTimeout = 30 * time.Second

// VertexSource is the follower.Source of the X-chain's DAG vertices: the
// node's vertex index, parsed. Index position i is follower height i+1
// (there is no genesis vertex to skip; height 0 is "nothing yet"). It keeps
// no state between fetches.
type VertexSource struct {
	client *indexer.Client
	d      *Decoder
}

// NewVertexSource returns the vertex source of the node at uri (for
// example http://127.0.0.1:9650).
func NewVertexSource(uri string) (*VertexSource, error) {
	d, err := NewDecoder()
	if err != nil {
		return nil, err
	}
	return &VertexSource{client: indexer.NewClient(strings.TrimRight(uri, "/") + VertexIndexPath), d: d}, nil
}

// noVertices says the node has no DAG history to serve: the vertex index is
// not there (404: indexing disabled, or no DAG on the network) or it holds
// nothing (every network born after Cortina, such as a local one).
func noVertices(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "no containers have been accepted") || strings.Contains(msg, "404")
}

// Head returns the follower height of the last indexed vertex (0: none).
func (s *VertexSource) Head(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, vertexRequestTimeout)
	defer cancel()
	_, index, err := s.client.GetLastAccepted(ctx)
	if err != nil {
		if noVertices(err) {
			return 0, nil
		}
		return 0, fmt.Errorf("vertex index.getLastAccepted: %w", err)
	}
	return index + 1, nil
}

// Fetch returns the vertices of follower heights from.. (at most max).
func (s *VertexSource) Fetch(ctx context.Context, from uint64, max int) ([]*pdata.Vertex, error) {
	if from == 0 {
		return nil, fmt.Errorf("vertex height 0 is not in the index")
	}
	max = min(max, blockindex.MaxRange)
	ctx, cancel := context.WithTimeout(ctx, vertexRequestTimeout)
	defer cancel()
	containers, err := s.client.GetContainerRange(ctx, from-1, max)
	if err != nil {
		msg := err.Error()
		if noVertices(err) || strings.Contains(msg, "> last accepted index") {
			return nil, nil
		}
		return nil, fmt.Errorf("vertex index.getContainerRange(%d, %d): %w", from-1, max, err)
	}
	out := make([]*pdata.Vertex, len(containers))
	for i, c := range containers {
		v, err := s.d.DecodeVertex(from-1+uint64(i), c.Bytes, c.Timestamp)
		if err != nil {
			return nil, fmt.Errorf("vertex %s at index %d: %w", c.ID, from-1+uint64(i), err)
		}
		if v.ID != c.ID {
			return nil, fmt.Errorf("vertex at index %d: the index says %s, the bytes hash to %s", v.Index, c.ID, v.ID)
		}
		out[i] = v
	}
	return out, nil
}

// DecodeVertex parses the vertex bytes found at acceptance index index,
// accepted by the node at acceptedAt (the index container's timestamp,
// Unix seconds: vertices carry no time), and decodes its txs exactly as a
// linear block's (a stop vertex has none). A tx that does not decode fails
// the whole vertex, as a bad tx fails its block: the follower reports the
// error and retries rather than index the DAG with a hole in it.
func (d *Decoder) DecodeVertex(index uint64, b []byte, acceptedAt int64) (*pdata.Vertex, error) {
	vtx, err := vertex.Parse(b)
	if err != nil {
		return nil, fmt.Errorf("parsing vertex: %w", err)
	}
	out := &pdata.Vertex{
		Number:    index + 1,
		ID:        vtx.ID(),
		ParentIDs: vtx.ParentIDs(),
		DAGHeight: vtx.Height(),
		Index:     index,
		Timestamp: acceptedAt,
		Size:      len(b),
	}
	if len(out.ParentIDs) == 0 {
		out.ParentIDs = nil // a DAG root: as the store reads it back
	}
	if raw := vtx.Txs(); len(raw) > 0 {
		out.TxIDs = make([]ids.ID, len(raw))
		out.Txs = make([]*pdata.Tx, len(raw))
		for i, txBytes := range raw {
			tx, err := d.DecodeTx(txBytes)
			if err != nil {
				return nil, fmt.Errorf("vertex %s tx %d: %w", out.ID, i, err)
			}
			out.TxIDs[i], out.Txs[i] = tx.ID, tx
		}
	}
	return out, nil
}
