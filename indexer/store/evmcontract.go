package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Contract returns what the index knows of addr; found is false when addr
// was never seen as a contract (no deployment, no token transfer).
func (s *Store) Contract(ctx context.Context, chain netinfo.Chain, addr common.Address) (evmdata.Contract, bool, error) {
	gen := s.contracts.generation(chain) // before the read: a later commit ends it
	if c, found, ok := s.contracts.get(chain, addr); ok {
		return c, found, ctx.Err()
	}
	var c evmdata.Contract
	found := false
	err := s.read(ctx, func(txn *badger.Txn) error {
		var err error
		c, found, err = readContract(txn, chain, addr)
		return err
	})
	if err != nil {
		return evmdata.Contract{}, false, fmt.Errorf("reading %s contract %s: %w", chain, addr, err)
	}
	s.contracts.put(chain, addr, c, found, gen)
	return c, found, nil
}

func readContract(txn *badger.Txn, chain netinfo.Chain, addr common.Address) (evmdata.Contract, bool, error) {
	c := evmdata.Contract{Address: addr}
	v, err := getValue(txn, newKey(tagContract, chain).addr(addr))
	if err != nil {
		return c, false, err
	}
	if v == nil {
		// No deployment row either: the writer notes every contract it
		// sees deployed (writeCreations), so one lookup answers for the
		// externally owned accounts most lookups are.
		return c, false, nil
	}
	found := true
	if c, err = decodeContract(addr, v); err != nil {
		return c, false, err
	}
	d, err := getValue(txn, newKey(tagDeploy, chain).addr(addr))
	if err != nil || d == nil {
		return c, found, err
	}
	dep, err := decodeDeployment(addr, d)
	if err != nil {
		return c, false, err
	}
	c.Deployment = &dep
	return c, true, nil
}

// SetContractMetadata stores what was read on chain of a contract and takes
// it off the queue of contracts to read.
//
// c is what the describer read of the contract some time ago (a pending
// contract), with the name, symbol and decimals it read since. Blocks
// indexed meanwhile may have changed the row: a first transfer reveals the
// token standard of a contract deployed earlier. The row is therefore
// merged, not overwritten: the standard stored now stands over c's (the
// logs' word stands over ERC-165's, as describe says), and the write
// happens under the chain's commit lock, so no block commit reads the row
// in between (it would fail with badger.ErrConflict and set the follower
// back) and none writes it between this read and this write.
func (s *Store) SetContractMetadata(ctx context.Context, chain netinfo.Chain, c evmdata.Contract) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.MetadataRead = true
	k := newKey(tagContract, chain).addr(c.Address)
	unlock := s.chainLocks.lock(chain)
	err := s.db.Update(func(txn *badger.Txn) error {
		v, err := getValue(txn, k)
		if err != nil {
			return err
		}
		if v != nil {
			stored, err := decodeContract(c.Address, v)
			if err != nil {
				return err
			}
			if stored.Kind != evmdata.ErcUnknown {
				c.Kind = stored.Kind
			}
		}
		if err := txn.Set(k, encodeContract(&c)); err != nil {
			return err
		}
		return txn.Delete(newKey(tagMetaQ, chain).addr(c.Address))
	})
	unlock()
	s.contracts.invalidate(chain)
	if err != nil {
		return fmt.Errorf("storing %s contract metadata of %s: %w", chain, c.Address, err)
	}
	return nil
}

// PendingContracts returns up to limit contracts whose on-chain metadata is
// still to be read, with what is known of them.
func (s *Store) PendingContracts(ctx context.Context, chain netinfo.Chain, limit int) ([]evmdata.Contract, error) {
	return readQueue(ctx, s, chain, tagMetaQ, limit, "contracts", func(txn *badger.Txn, suffix, _ []byte) (evmdata.Contract, error) {
		c, _, err := readContract(txn, chain, common.BytesToAddress(suffix))
		return c, err
	})
}

// NFTsOf lists the NFTs owner holds (ERC-721 tokens and ERC-1155 ids with a
// positive balance), ordered by contract then token id, optionally of one
// contract, after the given position: as of block pinned, or now when
// pinned is 0.
func (s *Store) NFTsOf(ctx context.Context, chain netinfo.Chain, owner common.Address, contract *common.Address,
	after *evmdata.NFTPos, limit int, pinned uint64,
) ([]evmdata.NFT, error) {
	var out []evmdata.NFT
	err := s.read(ctx, func(txn *badger.Txn) error {
		if pinned != 0 {
			var err error
			out, err = nftsAsOf(ctx, txn, chain, owner, contract, after, limit, pinned)
			return err
		}
		prefix := newKey(tagNFTBy, chain).addr(owner)
		if contract != nil {
			prefix = prefix.addr(*contract)
		}
		lo := []byte(prefix)
		if after != nil {
			lo = maxKey(lo, successor(newKey(tagNFTBy, chain).addr(owner).addr(after.Contract).tokenID(after.TokenID)))
		}
		base := 2 + common.AddressLength
		return scanRange(ctx, txn, prefix, lo, nil, false, func(item *badger.Item) (bool, error) {
			k := item.Key()
			nft := evmdata.NFT{
				Contract: common.BytesToAddress(k[base : base+common.AddressLength]),
				TokenID:  new(big.Int).SetBytes(k[base+common.AddressLength:]),
				Owner:    owner,
				Balance:  big.NewInt(1),
			}
			err := item.Value(func(v []byte) error {
				if len(v) == 0 {
					return fmt.Errorf("empty NFT holding row")
				}
				nft.Kind = evmdata.ErcType(v[0])
				if nft.Kind == evmdata.Erc1155 {
					nft.Balance = new(big.Int).SetBytes(v[1:])
				}
				return nil
			})
			if err != nil {
				return false, err
			}
			if nft.Metadata, err = readNFTMetadata(txn, chain, nft.Contract, nft.TokenID); err != nil {
				return false, err
			}
			out = append(out, nft)
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s NFTs of %s: %w", chain, owner, err)
	}
	return out, nil
}

// Holders lists the addresses that hold tokens of an NFT contract, by
// address, after the given one, with the collection's totals: as of block
// pinned, or now when pinned is 0.
func (s *Store) Holders(ctx context.Context, chain netinfo.Chain, contract common.Address, after *common.Address,
	limit int, pinned uint64,
) ([]evmdata.Holder, evmdata.Collection, error) {
	var out []evmdata.Holder
	var coll evmdata.Collection
	err := s.read(ctx, func(txn *badger.Txn) error {
		if pinned != 0 {
			var err error
			out, coll, err = holdersAsOf(ctx, txn, chain, contract, after, limit, pinned)
			return err
		}
		v, err := getValue(txn, newKey(tagColl, chain).addr(contract))
		if err != nil {
			return err
		}
		coll = decodeCollection(v)
		prefix := newKey(tagHolder, chain).addr(contract)
		lo := []byte(prefix)
		if after != nil {
			lo = successor(prefix.addr(*after))
		}
		return scanRange(ctx, txn, prefix, lo, nil, false, func(item *badger.Item) (bool, error) {
			h := evmdata.Holder{Address: common.BytesToAddress(item.Key()[len(prefix):])}
			err := item.Value(func(v []byte) error {
				if len(v) != 8 {
					return fmt.Errorf("holder row has %d bytes", len(v))
				}
				h.Tokens = binary.BigEndian.Uint64(v)
				return nil
			})
			if err != nil {
				return false, err
			}
			out = append(out, h)
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, evmdata.Collection{}, fmt.Errorf("listing %s holders of %s: %w", chain, contract, err)
	}
	return out, coll, nil
}

// NFTOwner returns the current owner of an ERC-721 token (zero when none).
func (s *Store) NFTOwner(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int) (common.Address, error) {
	var owner common.Address
	err := s.read(ctx, func(txn *badger.Txn) error {
		v, err := getValue(txn, newKey(tagNFTOwner, chain).addr(contract).tokenID(id))
		if v != nil {
			owner = common.BytesToAddress(v)
		}
		return err
	})
	return owner, err
}
