package store

import (
	"context"
	"encoding/binary"
	"fmt"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// DeployedBy lists the contracts deployer made (0x97: the creations it sent,
// and those it made as a factory), newest first, each with what the index
// knows of it: after the given position, in blocks up to pinned (0: every
// indexed block).
func (s *Store) DeployedBy(ctx context.Context, chain netinfo.Chain, deployer common.Address, after *evmdata.DeploymentPos,
	limit int, pinned uint64,
) ([]evmdata.DeployedContract, error) {
	var out []evmdata.DeployedContract
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := deployerPrefix(chain, deployer)
		lo, hi := blockBounds(prefix, evmdata.BlockRange{}, pinned)
		if after != nil {
			hi = minKey(hi, prefix.u64(after.Tx.Block).u32(after.Tx.Index).addr(after.Contract))
		}
		return scanRange(ctx, txn, prefix, lo, hi, true, func(item *badger.Item) (bool, error) {
			suffix := item.Key()[len(prefix):]
			if len(suffix) != 8+4+common.AddressLength {
				return false, fmt.Errorf("deployer row of %s has a %d-byte position", deployer, len(suffix))
			}
			pos := evmdata.DeploymentPos{
				Tx:       evmdata.TxPos{Block: binary.BigEndian.Uint64(suffix), Index: binary.BigEndian.Uint32(suffix[8:])},
				Contract: common.BytesToAddress(suffix[12:]),
			}
			c, _, err := readContract(txn, chain, pos.Contract)
			if err != nil {
				return false, err
			}
			out = append(out, evmdata.DeployedContract{Pos: pos, Contract: c})
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s contracts deployed by %s: %w", chain, deployer, err)
	}
	return out, nil
}

// HasActivity reports whether any indexed transaction of the chain involves
// addr (any role, transfers and internal txs included: a 0x82 or a native
// 0x95 row).
func (s *Store) HasActivity(ctx context.Context, chain netinfo.Chain, addr common.Address) (bool, error) {
	found := false
	err := s.read(ctx, func(txn *badger.Txn) error {
		for _, prefix := range [2]key{newKey(tagEVMAddr, chain).addr(addr), activityPrefix(chain, addr, activityNative)} {
			err := scanRange(ctx, txn, prefix, prefix, nil, false, func(*badger.Item) (bool, error) {
				found = true
				return false, nil
			})
			if err != nil || found {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("looking for %s activity of %s: %w", chain, addr, err)
	}
	return found, nil
}
