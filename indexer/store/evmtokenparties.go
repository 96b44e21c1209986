package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The candidates of a token's holders: the index says which addresses sent
// or received the token, the node's state at the asked block says how much
// each holds (the explorer reads it). A party may hold nothing any more.

// TokenParties lists the addresses that sent or received a transfer of
// token of one standard (keys.go 0x9F, the reverse of 0x96 that TokensOf
// reads), by address, after the given one. A store indexed before 0x9F
// existed has no rows for the blocks it held then.
func (s *Store) TokenParties(ctx context.Context, chain netinfo.Chain, token common.Address, kind evmdata.ErcType,
	after *common.Address, limit int,
) ([]common.Address, error) {
	prefix := tokenPartyPrefix(chain, token)
	lo := []byte(prefix)
	if after != nil {
		lo = successor(tokenPartyPrefix(chain, token).addr(*after))
	}
	var out []common.Address
	if limit <= 0 {
		return out, nil
	}
	err := s.read(ctx, func(txn *badger.Txn) error {
		return scanRange(ctx, txn, prefix, lo, nil, false, func(item *badger.Item) (bool, error) {
			k := item.Key()
			if len(k) != len(prefix)+common.AddressLength {
				return false, fmt.Errorf("token-party key of %d bytes", len(k))
			}
			var rowKind byte
			if err := item.Value(func(v []byte) error {
				if len(v) != 1 {
					return fmt.Errorf("token-party row of %d bytes", len(v))
				}
				rowKind = v[0]
				return nil
			}); err != nil {
				return false, err
			}
			if evmdata.ErcType(rowKind) == kind {
				out = append(out, common.BytesToAddress(k[len(prefix):]))
			}
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s parties of token %s: %w", chain, token, err)
	}
	return out, nil
}
