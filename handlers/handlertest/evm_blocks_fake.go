package handlertest

import (
	"context"
	"slices"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The blocks and latest transactions of the EVM fake, answered as the
// store does (store/evmblocks.go): blocks from BlockList, transactions from
// Txs.

// AddBlock indexes a block (kept in number order).
func (f *EVM) AddBlock(chain netinfo.Chain, b evmdata.BlockSummary) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.BlockList == nil {
		f.BlockList = map[netinfo.Chain][]evmdata.BlockSummary{}
	}
	f.BlockList[chain] = append(f.BlockList[chain], b)
	slices.SortFunc(f.BlockList[chain], func(a, b evmdata.BlockSummary) int { return cmpUint(a.Number, b.Number) })
}

func (f *EVM) blocksOf(chain netinfo.Chain) []evmdata.BlockSummary {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.BlockList[chain])
}

func (f *EVM) EVMBlocks(ctx context.Context, chain netinfo.Chain, q evmdata.BlockQuery) ([]evmdata.BlockSummary, error) {
	blocks := f.blocksOf(chain)
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	var out []evmdata.BlockSummary
	for _, b := range slices.Backward(blocks) {
		if (q.Pinned != 0 && b.Number > q.Pinned) || (q.After != nil && b.Number >= *q.After) {
			continue
		}
		if len(out) == q.Limit {
			break
		}
		out = append(out, b)
	}
	return out, nil
}

func (f *EVM) EVMBlock(ctx context.Context, chain netinfo.Chain, number uint64) (evmdata.BlockSummary, bool, error) {
	return f.findBlock(ctx, chain, func(b evmdata.BlockSummary) bool { return b.Number == number })
}

func (f *EVM) EVMBlockByHash(ctx context.Context, chain netinfo.Chain, hash common.Hash) (evmdata.BlockSummary, bool, error) {
	return f.findBlock(ctx, chain, func(b evmdata.BlockSummary) bool { return b.Hash == hash })
}

func (f *EVM) findBlock(ctx context.Context, chain netinfo.Chain, match func(evmdata.BlockSummary) bool) (evmdata.BlockSummary, bool, error) {
	blocks := f.blocksOf(chain)
	if err := f.wait(ctx); err != nil {
		return evmdata.BlockSummary{}, false, err
	}
	if i := slices.IndexFunc(blocks, match); i >= 0 {
		return blocks[i], true, nil
	}
	return evmdata.BlockSummary{}, false, nil
}

// nativeOnly drops what the native transaction shape does not show.
func nativeOnly(tx evmdata.IndexedTx) evmdata.IndexedTx {
	tx.Tx.Transfers, tx.Tx.Internal = nil, nil
	return tx
}

func (f *EVM) EVMBlockTxs(ctx context.Context, chain netinfo.Chain, number uint64, after *uint32, limit int) ([]evmdata.IndexedTx, error) {
	f.mu.Lock()
	txs := slices.Clone(f.Txs[chain])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	var out []evmdata.IndexedTx
	for _, tx := range txs {
		if tx.Block.Number != number || (after != nil && tx.Tx.Index <= *after) {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, nativeOnly(tx))
	}
	return out, nil
}

func (f *EVM) LatestEVMTxs(ctx context.Context, chain netinfo.Chain, q evmdata.LatestTxQuery) ([]evmdata.IndexedTx, error) {
	f.mu.Lock()
	txs := slices.Clone(f.Txs[chain])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	var out []evmdata.IndexedTx
	for _, tx := range slices.Backward(txs) {
		pos := txPosOf(tx)
		switch {
		case q.Pinned != 0 && pos.Block > q.Pinned,
			q.After != nil && !pos.Less(*q.After),
			q.Status == evmdata.FailedOnly && tx.Tx.Succeeded(),
			q.Status == evmdata.SucceededOnly && !tx.Tx.Succeeded():
			continue
		}
		if len(out) == q.Limit {
			break
		}
		out = append(out, nativeOnly(tx))
	}
	return out, nil
}
