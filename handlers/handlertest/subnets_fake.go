package handlertest

import (
	"bytes"
	"context"
	"slices"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/pdata"
)

// The registry of the Primary fake: subnets and blockchains kept in
// creation order, listed and paged the way the store does; a subnet's
// Blockchains are filled in from the chains added on it.

// AddSubnet registers a subnet (its Blockchains are ignored: add them
// with AddBlockchain).
func (f *Primary) AddSubnet(s pdata.Subnet) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	s.Blockchains = nil
	f.SubnetList = append(f.SubnetList, s)
	slices.SortFunc(f.SubnetList, func(a, b pdata.Subnet) int {
		return cmpRegistryPos(registryPos(a.Created, a.ID), registryPos(b.Created, b.ID))
	})
}

// AddBlockchain registers a blockchain.
func (f *Primary) AddBlockchain(b pdata.IndexedBlockchain) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.ChainList = append(f.ChainList, b)
	slices.SortFunc(f.ChainList, func(a, b pdata.IndexedBlockchain) int {
		return cmpRegistryPos(registryPos(a.Created, a.ID), registryPos(b.Created, b.ID))
	})
}

func registryPos(created pdata.TxPos, id ids.ID) pdata.RegistryPos {
	return pdata.RegistryPos{Created: created, ID: id}
}

func cmpRegistryPos(a, b pdata.RegistryPos) int {
	if c := cmpPTxPos(a.Created, b.Created); c != 0 {
		return c
	}
	return bytes.Compare(a.ID[:], b.ID[:])
}

func (f *Primary) Subnet(_ context.Context, id ids.ID) (pdata.Subnet, bool, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Err != nil {
		return pdata.Subnet{}, false, f.Err
	}
	for _, s := range f.SubnetList {
		if s.ID == id {
			return f.withChainsLocked(s), true, nil
		}
	}
	return pdata.Subnet{}, false, nil
}

func (f *Primary) Subnets(_ context.Context, q pdata.RegistryQuery) ([]pdata.Subnet, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Err != nil {
		return nil, f.Err
	}
	page := registryPage(f.SubnetList, q, func(s *pdata.Subnet) pdata.RegistryPos { return registryPos(s.Created, s.ID) })
	for i := range page {
		page[i] = f.withChainsLocked(page[i])
	}
	return page, nil
}

func (f *Primary) Blockchain(_ context.Context, id ids.ID) (pdata.IndexedBlockchain, bool, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Err != nil {
		return pdata.IndexedBlockchain{}, false, f.Err
	}
	for _, b := range f.ChainList {
		if b.ID == id {
			return b, true, nil
		}
	}
	return pdata.IndexedBlockchain{}, false, nil
}

func (f *Primary) Blockchains(_ context.Context, q pdata.RegistryQuery) ([]pdata.IndexedBlockchain, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Err != nil {
		return nil, f.Err
	}
	return registryPage(f.ChainList, q, func(b *pdata.IndexedBlockchain) pdata.RegistryPos { return registryPos(b.Created, b.ID) }), nil
}

func (f *Primary) withChainsLocked(s pdata.Subnet) pdata.Subnet {
	s.Blockchains = nil
	for _, b := range f.ChainList {
		if b.Subnet == s.ID {
			s.Blockchains = append(s.Blockchains, b)
		}
	}
	return s
}

// registryPage is one page of list (ascending by position) as q asks.
func registryPage[T any](list []T, q pdata.RegistryQuery, posOf func(*T) pdata.RegistryPos) []T {
	var out []T
	for i := range list {
		item := list[i]
		if q.Desc {
			item = list[len(list)-1-i]
		}
		if q.After != nil {
			c := cmpRegistryPos(posOf(&item), *q.After)
			if (!q.Desc && c <= 0) || (q.Desc && c >= 0) {
				continue
			}
		}
		out = append(out, item)
		if q.Limit > 0 && len(out) == q.Limit {
			break
		}
	}
	return out
}
