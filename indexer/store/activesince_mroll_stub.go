package store

import (
	"context"
	"errors"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// MERGE NOTE (branch mroll): a placeholder so that this branch builds
// before the store's ActiveSince (branch mstore, same signature) is
// merged. Delete this file when merging mstore: the two definitions
// cannot coexist.

// ActiveSince is a placeholder: the store has no EVM metric rows yet.
func (s *Store) ActiveSince(context.Context, netinfo.Chain, metricdata.Role, int64) (uint64, error) {
	return 0, errors.New("the EVM chain metric rows are not in this build (branch mroll without mstore)")
}
