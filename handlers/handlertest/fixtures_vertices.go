package handlertest

import (
	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/pdata"
)

// FixtureVertices: index i at DAG height i/2 (two vertices per height).
func FixtureVertices() *Vertices {
	f := &Vertices{}
	for i := range uint64(5) {
		f.Vs = append(f.Vs, pdata.Vertex{Number: i + 1, ID: ids.ID{'v', byte(i)}, ParentIDs: []ids.ID{{'p', byte(i)}},
			DAGHeight: i / 2, Index: i, Timestamp: 1_600_000_000 + int64(i), TxIDs: []ids.ID{{'t', byte(i)}}, Size: 100 + int(i)})
	}
	return f
}
