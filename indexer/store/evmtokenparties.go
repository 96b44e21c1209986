package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/libevm/common"

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
	out, err := s.addressesOfKind(ctx, tokenPartyPrefix(chain, token), kind, after, limit)
	if err != nil {
		return nil, fmt.Errorf("listing %s parties of token %s: %w", chain, token, err)
	}
	return out, nil
}
