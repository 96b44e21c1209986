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

// The tokens of one NFT collection, from the current ownership rows the EVM
// writer keeps (keys.go): an ERC-721 token is listed while it has an owner
// (0x8A), an ERC-1155 id while its supply is positive (0x8E); each with its
// URI and metadata once read (0x90).

// collectionTag is the keyspace that lists a standard's tokens.
func collectionTag(kind evmdata.ErcType) (byte, bool) {
	switch kind {
	case evmdata.Erc721:
		return tagNFTOwner, true
	case evmdata.Erc1155:
		return tag1155, true
	default:
		return 0, false
	}
}

// CollectionTokens lists up to limit tokens of an NFT contract of standard
// kind, by token id, after the given id (nil: from the first).
func (s *Store) CollectionTokens(ctx context.Context, chain netinfo.Chain, contract common.Address, kind evmdata.ErcType,
	after *big.Int, limit int,
) ([]evmdata.CollectionToken, error) {
	tag, ok := collectionTag(kind)
	if !ok {
		return nil, nil
	}
	var out []evmdata.CollectionToken
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := newKey(tag, chain).addr(contract)
		lo := []byte(prefix)
		if after != nil {
			lo = successor(prefix.tokenID(after))
		}
		return scanRange(ctx, txn, prefix, lo, nil, false, func(item *badger.Item) (bool, error) {
			id := new(big.Int).SetBytes(item.Key()[len(prefix):])
			v, err := item.ValueCopy(nil)
			if err != nil {
				return false, err
			}
			t, err := collectionToken(txn, chain, contract, kind, id, v)
			if err != nil {
				return false, err
			}
			out = append(out, t)
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s tokens of %s: %w", chain, contract, err)
	}
	return out, nil
}

// CollectionToken returns one token of an NFT contract; found is false when
// the index holds no such token now (never minted, or burnt).
func (s *Store) CollectionToken(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int) (
	evmdata.CollectionToken, bool, error,
) {
	var out evmdata.CollectionToken
	found := false
	err := s.read(ctx, func(txn *badger.Txn) error {
		for _, kind := range []evmdata.ErcType{evmdata.Erc721, evmdata.Erc1155} {
			tag, _ := collectionTag(kind)
			v, err := getValue(txn, newKey(tag, chain).addr(contract).tokenID(id))
			if err != nil || v == nil {
				if err != nil {
					return err
				}
				continue
			}
			found = true
			out, err = collectionToken(txn, chain, contract, kind, id, v)
			return err
		}
		return nil
	})
	if err != nil {
		return evmdata.CollectionToken{}, false, fmt.Errorf("reading %s token %s #%s: %w", chain, contract, id, err)
	}
	return out, found, nil
}

// collectionToken decodes one ownership row (0x8A: the owner; 0x8E: the
// supply) and reads the token's metadata.
func collectionToken(txn *badger.Txn, chain netinfo.Chain, contract common.Address, kind evmdata.ErcType, id *big.Int,
	v []byte,
) (evmdata.CollectionToken, error) {
	t := evmdata.CollectionToken{Kind: kind, TokenID: id}
	if kind == evmdata.Erc721 {
		if len(v) != common.AddressLength {
			return t, fmt.Errorf("owner row of %s #%s has %d bytes", contract, id, len(v))
		}
		t.Owner = common.BytesToAddress(v)
	} else {
		t.Supply = new(big.Int).SetBytes(v)
	}
	var err error
	t.Metadata, err = readNFTMetadata(txn, chain, contract, id)
	return t, err
}
