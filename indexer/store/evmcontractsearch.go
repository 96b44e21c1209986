package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// contractSearchScanBound is how many contract records (0x88 rows) one
// token search reads at most. The rows are ordered by address, not by
// name, so a search reads them one by one; this bound keeps the search
// box quick on a chain with very many contracts (a row decodes in well
// under a microsecond, so the bound costs tens of milliseconds at worst),
// at the price that on such a chain a token whose address sorts past the
// first contractSearchScanBound contracts is not found by name.
const contractSearchScanBound = 50_000

// SearchContracts lists up to limit contracts of chain whose name or symbol
// contains text, compared case folded, in address order: the explorer's
// search for a token by name or symbol, the one question no API operation
// answers. It reads at most contractSearchScanBound contract records.
func (s *Store) SearchContracts(ctx context.Context, chain netinfo.Chain, text string, limit int) ([]evmdata.Contract, error) {
	return s.searchContracts(ctx, chain, text, limit, contractSearchScanBound)
}

// searchContracts is SearchContracts reading at most bound records.
func (s *Store) searchContracts(ctx context.Context, chain netinfo.Chain, text string, limit, bound int) ([]evmdata.Contract, error) {
	want := strings.ToLower(strings.TrimSpace(text))
	if want == "" || limit <= 0 {
		return nil, nil
	}
	var out []evmdata.Contract
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := newKey(tagContract, chain)
		scanned := 0
		return scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
			scanned++
			k := item.Key()
			if len(k) != len(prefix)+common.AddressLength {
				return scanned < bound, nil
			}
			addr := common.BytesToAddress(k[len(prefix):])
			err := item.Value(func(v []byte) error {
				c, err := decodeContract(addr, v)
				if err != nil {
					return err
				}
				if (c.Name != "" && strings.Contains(strings.ToLower(c.Name), want)) ||
					(c.Symbol != "" && strings.Contains(strings.ToLower(c.Symbol), want)) {
					out = append(out, c)
				}
				return nil
			})
			if err != nil {
				return false, err
			}
			return len(out) < limit && scanned < bound, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("searching %s contracts for %q: %w", chain, text, err)
	}
	return out, nil
}
