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

// Holdings as of a pinned height, from the history keyspaces (keys.go
// 0x92-0x94): each change is a row keyed by its block, so the state at
// height H is, per group (a holder, or an owner's token), the last row at
// or below H. Listings pinned to the height of their first page read these,
// so paging while transfers keep arriving never repeats, skips or mixes
// states.

// latestAsOf walks the groups of a history keyspace (prefix | group(groupLen)
// | height(8)) in group order, starting at the first key at or after from,
// and calls visit with each group's last value at or below pinned (groups
// with none are skipped). Two seeks per group, whatever its history length.
func latestAsOf(ctx context.Context, txn *badger.Txn, prefix []byte, groupLen int, from []byte, pinned uint64,
	visit func(group, value []byte) (bool, error),
) error {
	fwd := txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	defer fwd.Close()
	rev := txn.NewIterator(badger.IteratorOptions{Prefix: prefix, Reverse: true})
	defer rev.Close()
	fwd.Seek(from)
	for n := 0; fwd.ValidForPrefix(prefix); n++ {
		if n%256 == 255 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		k := fwd.Item().Key()
		if len(k) != len(prefix)+groupLen+8 {
			return fmt.Errorf("history key of %d bytes", len(k))
		}
		groupKey := append([]byte(nil), k[:len(prefix)+groupLen]...)
		rev.Seek(binary.BigEndian.AppendUint64(append([]byte(nil), groupKey...), pinned))
		if rev.ValidForPrefix(groupKey) {
			v, err := rev.Item().ValueCopy(nil)
			if err != nil {
				return err
			}
			more, err := visit(groupKey[len(prefix):], v)
			if err != nil || !more {
				return err
			}
		}
		fwd.Seek(groupEnd(groupKey))
	}
	return ctx.Err()
}

// groupEnd is a key past every row of groupKey's group (no block has the
// height 2^64-1).
func groupEnd(groupKey []byte) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(nil), groupKey...), ^uint64(0))
}

// holdersAsOf lists holders of contract at pinned, after the given address.
func holdersAsOf(ctx context.Context, txn *badger.Txn, chain netinfo.Chain, contract common.Address,
	after *common.Address, limit int, pinned uint64,
) ([]evmdata.Holder, evmdata.Collection, error) {
	var coll evmdata.Collection
	collPrefix := newKey(tagCollH, chain).addr(contract)
	rev := txn.NewIterator(badger.IteratorOptions{Prefix: collPrefix, Reverse: true})
	rev.Seek(collPrefix.u64(pinned))
	if rev.ValidForPrefix(collPrefix) {
		v, err := rev.Item().ValueCopy(nil)
		if err != nil {
			rev.Close()
			return nil, coll, err
		}
		coll = decodeCollection(v)
	}
	rev.Close()
	prefix := newKey(tagHolderH, chain).addr(contract)
	from := []byte(prefix)
	if after != nil {
		from = groupEnd(prefix.addr(*after))
	}
	var out []evmdata.Holder
	err := latestAsOf(ctx, txn, prefix, common.AddressLength, from, pinned, func(group, v []byte) (bool, error) {
		if len(v) != 8 {
			return false, fmt.Errorf("holder history row of %d bytes", len(v))
		}
		if tokens := binary.BigEndian.Uint64(v); tokens > 0 {
			out = append(out, evmdata.Holder{Address: common.BytesToAddress(group), Tokens: tokens})
		}
		return len(out) < limit, nil
	})
	return out, coll, err
}

// nftsAsOf lists owner's NFTs at pinned (of one contract when set), after
// the given position.
func nftsAsOf(ctx context.Context, txn *badger.Txn, chain netinfo.Chain, owner common.Address, contract *common.Address,
	after *evmdata.NFTPos, limit int, pinned uint64,
) ([]evmdata.NFT, error) {
	scan := newNFTHistoryScan(chain, owner, contract, after)
	var out []evmdata.NFT
	err := latestAsOf(ctx, txn, scan.prefix, scan.groupLen, scan.from, pinned, func(group, v []byte) (bool, error) {
		if len(v) == 0 || evmdata.ErcType(v[0]) == evmdata.ErcUnknown {
			return true, nil // given away by then
		}
		nft := scan.nft(group)
		nft.Kind, nft.Balance = evmdata.ErcType(v[0]), big.NewInt(1)
		if nft.Kind == evmdata.Erc1155 {
			nft.Balance = new(big.Int).SetBytes(v[1:])
		}
		var err error
		if nft.Metadata, err = readNFTMetadata(txn, chain, nft.Contract, nft.TokenID); err != nil {
			return false, err
		}
		out = append(out, nft)
		return len(out) < limit, nil
	})
	return out, err
}

// nftHistoryScan is where a walk of owner's NFT history rows (0x94) runs:
// its prefix (of one contract when set) and the group length under it,
// from the first group after the given position.
type nftHistoryScan struct {
	owner       common.Address
	ownerPrefix key
	prefix      key
	groupLen    int
	from        []byte
}

func newNFTHistoryScan(chain netinfo.Chain, owner common.Address, contract *common.Address, after *evmdata.NFTPos) nftHistoryScan {
	ownerPrefix := newKey(tagNFTByH, chain).addr(owner)
	scan := nftHistoryScan{owner: owner, ownerPrefix: ownerPrefix, prefix: ownerPrefix, groupLen: common.AddressLength + 32}
	if contract != nil {
		scan.prefix, scan.groupLen = ownerPrefix.addr(*contract), 32
	}
	scan.from = scan.prefix
	if after != nil {
		scan.from = maxKey(scan.from, groupEnd(ownerPrefix.addr(after.Contract).tokenID(after.TokenID)))
	}
	return scan
}

// nft is the holding a group names (contract and token id).
func (sc nftHistoryScan) nft(group []byte) evmdata.NFT {
	full := append(append([]byte(nil), sc.prefix[len(sc.ownerPrefix):]...), group...)
	return evmdata.NFT{
		Contract: common.BytesToAddress(full[:common.AddressLength]),
		TokenID:  new(big.Int).SetBytes(full[common.AddressLength:]),
		Owner:    sc.owner,
	}
}
