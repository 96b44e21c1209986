package store

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The candidates of an address's token balances: the index says which
// tokens an address may hold, the node's state at the asked block says how
// much (handlers/evm reads it). A candidate may turn out to hold nothing.

// TokensOf lists the tokens of one standard that addr sent or received a
// transfer of (keys.go 0x96), by token address, after the given one. The
// rows carry no height: a token first moved after a pinned block is still
// listed, and its balance at that block is what the node says (zero).
func (s *Store) TokensOf(ctx context.Context, chain netinfo.Chain, addr common.Address, kind evmdata.ErcType,
	after *common.Address, limit int,
) ([]common.Address, error) {
	out, err := s.addressesOfKind(ctx, addrTokenPrefix(chain, addr), kind, after, limit)
	if err != nil {
		return nil, fmt.Errorf("listing %s tokens of %s: %w", chain, addr, err)
	}
	return out, nil
}

// addressesOfKind lists, after the given one, the addresses that end the
// keys below prefix whose one-byte value is kind, up to limit: the rows of
// 0x96 (an address's tokens) and 0x9F (a token's parties), which have the
// same shape.
func (s *Store) addressesOfKind(ctx context.Context, prefix key, kind evmdata.ErcType, after *common.Address,
	limit int,
) ([]common.Address, error) {
	lo := []byte(prefix)
	if after != nil {
		lo = successor(prefix.addr(*after))
	}
	var out []common.Address
	if limit <= 0 {
		return out, nil
	}
	err := s.read(ctx, func(txn *badger.Txn) error {
		return scanRange(ctx, txn, prefix, lo, nil, false, func(item *badger.Item) (bool, error) {
			k := item.Key()
			if len(k) != len(prefix)+common.AddressLength {
				return false, fmt.Errorf("key of %d bytes below %x", len(k), []byte(prefix[:1]))
			}
			var rowKind byte
			if err := item.Value(func(v []byte) error {
				if len(v) != 1 {
					return fmt.Errorf("row of %d bytes below %x", len(v), []byte(prefix[:1]))
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
	return out, err
}

// NFTCandidates lists, by contract then token id and after the given
// position, the NFTs owner had received by block pinned (keys.go 0x94),
// optionally of one contract and of one standard (ErcUnknown: both):
// ERC-721 tokens it still owns at pinned (the index follows their
// ownership), and every ERC-1155 id it ever held by then, whether or not
// its Transfer logs leave it a balance (Balance is that log-derived
// balance, zero when none: the node's balanceOf is the one to show).
func (s *Store) NFTCandidates(ctx context.Context, chain netinfo.Chain, owner common.Address, contract *common.Address,
	kind evmdata.ErcType, after *evmdata.NFTPos, limit int, pinned uint64,
) ([]evmdata.NFT, error) {
	scan := newNFTHistoryScan(chain, owner, contract, after)
	var out []evmdata.NFT
	err := s.read(ctx, func(txn *badger.Txn) error {
		first := txn.NewIterator(badger.IteratorOptions{Prefix: scan.prefix})
		defer first.Close()
		return latestAsOf(ctx, txn, scan.prefix, scan.groupLen, scan.from, pinned, func(group, v []byte) (bool, error) {
			if len(v) == 0 {
				return false, fmt.Errorf("empty NFT history row")
			}
			nft := scan.nft(group)
			nft.Kind, nft.Balance = evmdata.ErcType(v[0]), new(big.Int)
			switch nft.Kind {
			case evmdata.Erc721:
				nft.Balance.SetInt64(1)
			case evmdata.Erc1155:
				nft.Balance.SetBytes(v[1:])
			default: // no longer held: its standard is its first row's
				standard, err := firstKind(first, append(append([]byte(nil), scan.prefix...), group...))
				if err != nil || standard != evmdata.Erc1155 {
					return err == nil, err
				}
				nft.Kind = standard
			}
			if kind != evmdata.ErcUnknown && nft.Kind != kind {
				return true, nil
			}
			var err error
			if nft.Metadata, err = readNFTMetadata(txn, chain, nft.Contract, nft.TokenID); err != nil {
				return false, err
			}
			out = append(out, nft)
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s NFT candidates of %s: %w", chain, owner, err)
	}
	return out, nil
}

// firstKind is the standard of a holding's first history row: the row of
// the transfer that brought it (a row that gives a holding away always
// follows one that brought it).
func firstKind(it *badger.Iterator, groupKey []byte) (evmdata.ErcType, error) {
	it.Seek(groupKey)
	if !it.ValidForPrefix(groupKey) {
		return evmdata.ErcUnknown, nil
	}
	var kind evmdata.ErcType
	err := it.Item().Value(func(v []byte) error {
		if len(v) > 0 {
			kind = evmdata.ErcType(v[0])
		}
		return nil
	})
	return kind, err
}
