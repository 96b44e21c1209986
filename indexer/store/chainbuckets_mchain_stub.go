package store

import (
	"context"
	"errors"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// MERGE NOTE (branch mchain): a placeholder so that this branch builds
// before the store's ChainBuckets (branch mstore, same signature) is
// merged. Delete this file when merging mstore: the two definitions
// cannot coexist.

// ChainBuckets is a placeholder: the store has no EVM metric rows yet.
func (s *Store) ChainBuckets(context.Context, netinfo.Chain, metricdata.Granularity, int64, int64, int) ([]metricdata.ChainBucket, error) {
	return nil, errors.New("the EVM chain metric rows are not in this build (branch mchain without mstore)")
}
