package handlertest

import (
	"context"
	"slices"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The typed histories of the EVM fake, answered as the store answers them
// from its activity rows.

// HistoryQueries records the typed history queries the fake answered.
type HistoryQueries struct {
	Native    []evmdata.AddressTxQuery
	Transfers []evmdata.AddressTransferQuery
	Internal  []evmdata.AddressInternalQuery
}

func (f *EVM) AddressNativeTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTxQuery) ([]evmdata.IndexedTx, error) {
	f.mu.Lock()
	f.Histories.Native = append(f.Histories.Native, q)
	txs := slices.Clone(f.Txs[chain])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	if q.Desc {
		slices.Reverse(txs)
	}
	var out []evmdata.IndexedTx
	for _, itx := range txs {
		tx, pos := itx.Tx, txPosOf(itx)
		native := tx.From == q.Address || (tx.To != nil && *tx.To == q.Address) ||
			(tx.ContractAddress != nil && *tx.ContractAddress == q.Address)
		if !native || !inRange(q.Blocks, q.Pinned, pos.Block) || !afterTx(q, pos) {
			continue
		}
		if len(out) == q.Limit {
			break
		}
		itx.Tx.Transfers, itx.Tx.Internal = nil, nil
		out = append(out, itx)
	}
	return out, nil
}

func (f *EVM) AddressTransfers(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTransferQuery) ([]evmdata.IndexedTransfer, error) {
	f.mu.Lock()
	f.Histories.Transfers = append(f.Histories.Transfers, q)
	txs := slices.Clone(f.Txs[chain])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	var all []evmdata.IndexedTransfer
	for _, tx := range txs {
		for _, t := range tx.Tx.Transfers {
			if t.Kind == q.Kind && t.Involves(q.Address) && inRange(q.Blocks, q.Pinned, tx.Block.Number) {
				all = append(all, evmdata.IndexedTransfer{Block: tx.Block, TxHash: tx.Tx.Hash, TxIndex: tx.Tx.Index, TokenTransfer: t})
			}
		}
	}
	return pageOf(all, q.Desc, q.After, q.Limit, transferPosOf, cmpTransfer), nil
}

func (f *EVM) AddressInternalTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressInternalQuery) ([]evmdata.IndexedInternalTx, error) {
	f.mu.Lock()
	f.Histories.Internal = append(f.Histories.Internal, q)
	txs := slices.Clone(f.Txs[chain])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	var all []evmdata.IndexedInternalTx
	for _, tx := range txs {
		for _, it := range tx.Tx.Internal {
			if it.Involves(q.Address) && inRange(q.Blocks, q.Pinned, tx.Block.Number) {
				all = append(all, evmdata.IndexedInternalTx{Block: tx.Block, TxHash: tx.Tx.Hash, TxIndex: tx.Tx.Index, InternalTx: it})
			}
		}
	}
	posOf := func(t evmdata.IndexedInternalTx) evmdata.InternalPos {
		return evmdata.InternalPos{Block: t.Block.Number, TxIndex: t.TxIndex, Frame: t.Index}
	}
	cmp := func(a, b evmdata.InternalPos) int {
		if c := cmpPos(evmdata.TxPos{Block: a.Block, Index: a.TxIndex}, evmdata.TxPos{Block: b.Block, Index: b.TxIndex}); c != 0 {
			return c
		}
		return cmpUint(uint64(a.Frame), uint64(b.Frame))
	}
	return pageOf(all, q.Desc, q.After, q.Limit, posOf, cmp), nil
}

// pageOf sorts items in the listing's order and returns the page after
// after (nil: the first) of at most limit items.
func pageOf[T, P any](items []T, desc bool, after *P, limit int, posOf func(T) P, cmp func(a, b P) int) []T {
	order := func(a, b T) int {
		if desc {
			return -cmp(posOf(a), posOf(b))
		}
		return cmp(posOf(a), posOf(b))
	}
	slices.SortFunc(items, order)
	var out []T
	for _, it := range items {
		if after != nil {
			c := cmp(posOf(it), *after)
			if (desc && c >= 0) || (!desc && c <= 0) {
				continue
			}
		}
		if len(out) == limit {
			break
		}
		out = append(out, it)
	}
	return out
}
