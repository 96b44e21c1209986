package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// Readers of the subnet and blockchain registry (subnetwrite.go). Each
// reads in one snapshot, so a subnet and its blockchains agree.

// Subnet returns the subnet id with its blockchains; found is false when
// the index holds none (no such subnet, or the P-chain follower has not
// reached its CreateSubnetTx).
func (r *PrimaryReader) Subnet(ctx context.Context, id ids.ID) (s pdata.Subnet, found bool, err error) {
	err = r.s.read(ctx, func(txn *badger.Txn) error {
		s, found, err = readSubnet(ctx, txn, id)
		return err
	})
	if err != nil {
		return pdata.Subnet{}, false, fmt.Errorf("reading subnet %s: %w", id, err)
	}
	return s, found, nil
}

// Subnets lists subnets, with their blockchains, in creation order.
func (r *PrimaryReader) Subnets(ctx context.Context, q pdata.RegistryQuery) ([]pdata.Subnet, error) {
	var out []pdata.Subnet
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		return scanRegistry(ctx, txn, key{tagSubOrder}, q, func(id ids.ID) error {
			s, found, err := readSubnet(ctx, txn, id)
			if err != nil {
				return err
			}
			if !found {
				return fmt.Errorf("subnet %s is listed but not stored", id)
			}
			out = append(out, s)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing subnets: %w", err)
	}
	return out, nil
}

// Blockchain returns the blockchain id; found is false when the index
// holds none.
func (r *PrimaryReader) Blockchain(ctx context.Context, id ids.ID) (b pdata.IndexedBlockchain, found bool, err error) {
	err = r.s.read(ctx, func(txn *badger.Txn) error {
		b, found, err = readBlockchain(txn, id)
		return err
	})
	if err != nil {
		return pdata.IndexedBlockchain{}, false, fmt.Errorf("reading blockchain %s: %w", id, err)
	}
	return b, found, nil
}

// Blockchains lists blockchains in creation order.
func (r *PrimaryReader) Blockchains(ctx context.Context, q pdata.RegistryQuery) ([]pdata.IndexedBlockchain, error) {
	var out []pdata.IndexedBlockchain
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		return scanRegistry(ctx, txn, key{tagBchOrder}, q, func(id ids.ID) error {
			b, err := readListedBlockchain(txn, id)
			out = append(out, b)
			return err
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing blockchains: %w", err)
	}
	return out, nil
}

// scanRegistry visits the IDs of the order rows under prefix as q pages
// them.
func scanRegistry(ctx context.Context, txn *badger.Txn, prefix key, q pdata.RegistryQuery, visit func(ids.ID) error) error {
	lo, hi := []byte(prefix), []byte(nil)
	if q.After != nil {
		after := registryOrderKey(prefix, *q.After)
		if q.Desc {
			hi = after
		} else {
			lo = append(after, 0) // the first key past it
		}
	}
	n := 0
	return scanRange(ctx, txn, prefix, lo, hi, q.Desc, func(item *badger.Item) (bool, error) {
		pos, ok := registryPosOf(item.Key()[len(prefix):])
		if !ok {
			return false, fmt.Errorf("malformed order row %x", item.Key())
		}
		if err := visit(pos.ID); err != nil {
			return false, err
		}
		n++
		return q.Limit <= 0 || n < q.Limit, nil
	})
}

func readSubnet(ctx context.Context, txn *badger.Txn, id ids.ID) (pdata.Subnet, bool, error) {
	v, err := getValue(txn, subnetKey(id))
	if err != nil || v == nil {
		return pdata.Subnet{}, false, err
	}
	s, err := decodeSubnet(id, v)
	if err != nil {
		return pdata.Subnet{}, false, fmt.Errorf("subnet %s: %w", id, err)
	}
	err = scanRegistry(ctx, txn, subnetChainPrefix(id), pdata.RegistryQuery{}, func(chain ids.ID) error {
		b, err := readListedBlockchain(txn, chain)
		s.Blockchains = append(s.Blockchains, b)
		return err
	})
	if err != nil {
		return pdata.Subnet{}, false, fmt.Errorf("the blockchains of subnet %s: %w", id, err)
	}
	return s, true, nil
}

func readBlockchain(txn *badger.Txn, id ids.ID) (pdata.IndexedBlockchain, bool, error) {
	v, err := getValue(txn, blockchainKey(id))
	if err != nil || v == nil {
		return pdata.IndexedBlockchain{}, false, err
	}
	b, err := decodeBlockchain(id, v)
	if err != nil {
		return pdata.IndexedBlockchain{}, false, fmt.Errorf("blockchain %s: %w", id, err)
	}
	return b, true, nil
}

// readListedBlockchain reads a blockchain an order row names: it must be
// stored.
func readListedBlockchain(txn *badger.Txn, id ids.ID) (pdata.IndexedBlockchain, error) {
	b, found, err := readBlockchain(txn, id)
	if err == nil && !found {
		err = fmt.Errorf("blockchain %s is listed but not stored", id)
	}
	return b, err
}
