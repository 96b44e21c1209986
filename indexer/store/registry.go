package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
)

// The chain registry gives every followed chain other than P, X and C a small
// number that stays the chain's for the life of the store, because it is part
// of every key of the chain's data.

// maxRegisteredChains is how many chain numbers one byte leaves after P, X, C.
const maxRegisteredChains = 256 - int(netinfo.FirstRegistered)

// RegisterChain returns blockchainID's number, giving it the next free one the
// first time it is seen.
func (s *Store) RegisterChain(ctx context.Context, blockchainID ids.ID) (netinfo.Chain, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	var chain netinfo.Chain
	err := s.db.Update(func(txn *badger.Txn) error {
		k := key{tagChainReg}.id(blockchainID)
		item, err := txn.Get(k)
		if err == nil {
			return item.Value(func(v []byte) error {
				if len(v) != 1 {
					return fmt.Errorf("corrupt registry entry for %s", blockchainID)
				}
				chain = netinfo.Chain(v[0])
				return nil
			})
		}
		if !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		used, err := registeredCount(txn)
		if err != nil {
			return err
		}
		if used >= maxRegisteredChains {
			return fmt.Errorf("cannot follow %s: all %d chain numbers are taken", blockchainID, maxRegisteredChains)
		}
		chain = netinfo.FirstRegistered + netinfo.Chain(used)
		return txn.Set(k, []byte{byte(chain)})
	})
	if err != nil {
		return 0, fmt.Errorf("registering chain %s: %w", blockchainID, err)
	}
	return chain, nil
}

func registeredCount(txn *badger.Txn) (int, error) {
	it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte{tagChainReg}})
	defer it.Close()
	n := 0
	for it.Rewind(); it.Valid(); it.Next() {
		n++
	}
	return n, nil
}
