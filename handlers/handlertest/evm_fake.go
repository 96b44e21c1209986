package handlertest

import (
	"bytes"
	"context"
	"math/big"
	"slices"
	"sync"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// EVM is an in-memory Reader and StateReader that answers the
// way the store does: listings filtered to the address, bounded by block
// range, pinned height, position and limit, in the store's orders.
type EVM struct {
	mu          sync.Mutex
	Txs         map[netinfo.Chain][]evmdata.IndexedTx // ascending by position
	contracts   map[netinfo.Chain]map[common.Address]evmdata.Contract
	Nfts        map[netinfo.Chain][]evmdata.NFT
	HolderLists map[netinfo.Chain]map[common.Address][]evmdata.Holder
	Colls       map[netinfo.Chain]map[common.Address]evmdata.Collection
	Balances    map[common.Address]*big.Int
	BlockList   map[netinfo.Chain][]evmdata.BlockSummary // ascending by number (evm_blocks_fake.go)

	// HistoryStarts is each chain's first indexed block (absent: 1, from
	// genesis); SetHistoryFrom sets it (evm_history_from_fake.go).
	HistoryStarts map[netinfo.Chain]uint64
	// RunningStates is each chain's back-fill state, when a test set one
	// (SetRunningState; absent: the running state counts from
	// HistoryStarts).
	RunningStates map[netinfo.Chain]RunningState

	Err   error // returned by every call when set
	Block bool  // every call waits for its context to end

	AddressQueries  []evmdata.AddressTxQuery
	Histories       HistoryQueries
	TransferQueries []evmdata.TransferQuery
	NftCalls        int
	PinnedSeen      []uint64 // the pinned height of every NFTsOf/Holders call

	// Reindexes records every RequestNFTReindex; ReindexAnswer, when set, is
	// its answer (else the token is queued).
	Reindexes     []evmdata.TokenRef
	ReindexLimits []evmdata.ReindexLimits
	ReindexAnswer *evmdata.ReindexOutcome

	// TokenState is the token side of the index and the node's state
	// (evm_balances_fake.go).
	TokenState TokenState

	// OnChain is what contracts answer on chain (DescribeContract,
	// evm_describe_fake.go); OnChainErr fails every such read when set.
	OnChain    map[common.Address]evmdata.Contract
	OnChainErr error
	Describes  int
}

func NewEVM() *EVM {
	return &EVM{
		Txs:         map[netinfo.Chain][]evmdata.IndexedTx{},
		contracts:   map[netinfo.Chain]map[common.Address]evmdata.Contract{},
		Nfts:        map[netinfo.Chain][]evmdata.NFT{},
		HolderLists: map[netinfo.Chain]map[common.Address][]evmdata.Holder{},
		Colls:       map[netinfo.Chain]map[common.Address]evmdata.Collection{},
		Balances:    map[common.Address]*big.Int{},
	}
}

// AddTx indexes a transaction (kept in position order).
func (f *EVM) AddTx(chain netinfo.Chain, tx evmdata.IndexedTx) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Txs[chain] = append(f.Txs[chain], tx)
	slices.SortFunc(f.Txs[chain], func(a, b evmdata.IndexedTx) int {
		return cmpPos(txPosOf(a), txPosOf(b))
	})
}

func (f *EVM) AddContract(chain netinfo.Chain, c evmdata.Contract) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.contracts[chain] == nil {
		f.contracts[chain] = map[common.Address]evmdata.Contract{}
	}
	f.contracts[chain][c.Address] = c
}

func txPosOf(tx evmdata.IndexedTx) evmdata.TxPos {
	return evmdata.TxPos{Block: tx.Block.Number, Index: tx.Tx.Index}
}

func cmpPos(a, b evmdata.TxPos) int {
	switch {
	case a.Less(b):
		return -1
	case b.Less(a):
		return 1
	}
	return 0
}

// wait implements the failure modes: an injected error, or a read that only
// ends with its context.
func (f *EVM) wait(ctx context.Context) error {
	if f.Block {
		<-ctx.Done()
		return ctx.Err()
	}
	if f.Err != nil {
		return f.Err
	}
	return ctx.Err()
}

func (f *EVM) AddressTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTxQuery) ([]evmdata.IndexedTx, error) {
	f.mu.Lock()
	f.AddressQueries = append(f.AddressQueries, q)
	txs := slices.Clone(f.Txs[chain])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	if q.Desc {
		slices.Reverse(txs)
	}
	var out []evmdata.IndexedTx
	for _, tx := range txs {
		pos := txPosOf(tx)
		if !involvesTx(tx.Tx, q.Address) || !inRange(q.Blocks, q.Pinned, pos.Block) || !afterTx(q, pos) {
			continue
		}
		if len(out) == q.Limit {
			break
		}
		out = append(out, onlyInvolving(tx, q.Address))
	}
	return out, nil
}

func inRange(r evmdata.BlockRange, pinned, block uint64) bool {
	return r.Contains(block) && (pinned == 0 || block <= pinned)
}

func afterTx(q evmdata.AddressTxQuery, pos evmdata.TxPos) bool {
	switch {
	case q.After == nil:
		return true
	case q.Desc:
		return pos.Less(*q.After)
	default:
		return q.After.Less(pos)
	}
}

func involvesTx(tx evmdata.Tx, addr common.Address) bool {
	if tx.From == addr || (tx.To != nil && *tx.To == addr) || (tx.ContractAddress != nil && *tx.ContractAddress == addr) {
		return true
	}
	for i := range tx.Transfers {
		if tx.Transfers[i].Involves(addr) {
			return true
		}
	}
	for i := range tx.Internal {
		if tx.Internal[i].Involves(addr) {
			return true
		}
	}
	return false
}

// onlyInvolving keeps the transfers and internal txs that involve addr, as
// the store does for address listings.
func onlyInvolving(itx evmdata.IndexedTx, addr common.Address) evmdata.IndexedTx {
	tx := itx.Tx
	tx.Transfers, tx.Internal = nil, nil
	for _, t := range itx.Tx.Transfers {
		if t.Involves(addr) {
			tx.Transfers = append(tx.Transfers, t)
		}
	}
	for _, it := range itx.Tx.Internal {
		if it.Involves(addr) {
			tx.Internal = append(tx.Internal, it)
		}
	}
	itx.Tx = tx
	return itx
}

func (f *EVM) TxByHash(ctx context.Context, chain netinfo.Chain, hash common.Hash) (evmdata.IndexedTx, bool, error) {
	f.mu.Lock()
	txs := f.Txs[chain]
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return evmdata.IndexedTx{}, false, err
	}
	for _, tx := range txs {
		if tx.Tx.Hash == hash {
			return tx, true, nil
		}
	}
	return evmdata.IndexedTx{}, false, nil
}

func (f *EVM) TokenTransfers(ctx context.Context, chain netinfo.Chain, q evmdata.TransferQuery) ([]evmdata.IndexedTransfer, error) {
	f.mu.Lock()
	f.TransferQueries = append(f.TransferQueries, q)
	txs := slices.Clone(f.Txs[chain])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	var all []evmdata.IndexedTransfer
	for _, tx := range txs {
		for _, t := range tx.Tx.Transfers {
			if t.Token == q.Token && inRange(q.Blocks, q.Pinned, tx.Block.Number) {
				all = append(all, evmdata.IndexedTransfer{Block: tx.Block, TxHash: tx.Tx.Hash, TxIndex: tx.Tx.Index, TokenTransfer: t})
			}
		}
	}
	slices.SortFunc(all, func(a, b evmdata.IndexedTransfer) int { return -cmpTransfer(transferPosOf(a), transferPosOf(b)) })
	var out []evmdata.IndexedTransfer
	for _, t := range all {
		if q.After != nil && cmpTransfer(transferPosOf(t), *q.After) >= 0 {
			continue
		}
		if len(out) == q.Limit {
			break
		}
		out = append(out, t)
	}
	return out, nil
}

func transferPosOf(t evmdata.IndexedTransfer) evmdata.TransferPos {
	return evmdata.TransferPos{Block: t.Block.Number, LogIndex: t.LogIndex, BatchIndex: t.BatchIndex}
}

func cmpTransfer(a, b evmdata.TransferPos) int {
	if a.Block != b.Block {
		return cmpUint(a.Block, b.Block)
	}
	if a.LogIndex != b.LogIndex {
		return cmpUint(uint64(a.LogIndex), uint64(b.LogIndex))
	}
	return cmpUint(uint64(a.BatchIndex), uint64(b.BatchIndex))
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (f *EVM) Contract(ctx context.Context, chain netinfo.Chain, addr common.Address) (evmdata.Contract, bool, error) {
	f.mu.Lock()
	c, ok := f.contracts[chain][addr]
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return evmdata.Contract{}, false, err
	}
	if !ok {
		return evmdata.Contract{Address: addr}, false, nil
	}
	return c, true, nil
}

func (f *EVM) NFTsOf(ctx context.Context, chain netinfo.Chain, owner common.Address, contract *common.Address,
	after *evmdata.NFTPos, limit int, pinned uint64,
) ([]evmdata.NFT, error) {
	f.mu.Lock()
	f.NftCalls++
	f.PinnedSeen = append(f.PinnedSeen, pinned)
	all := slices.Clone(f.Nfts[chain])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b evmdata.NFT) int { return cmpNFT(a.Contract, a.TokenID, b.Contract, b.TokenID) })
	var out []evmdata.NFT
	for _, nft := range all {
		if nft.Owner != owner || (contract != nil && nft.Contract != *contract) {
			continue
		}
		if after != nil && cmpNFT(nft.Contract, nft.TokenID, after.Contract, after.TokenID) <= 0 {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, nft)
	}
	return out, nil
}

func cmpNFT(ca common.Address, ia *big.Int, cb common.Address, ib *big.Int) int {
	if c := bytes.Compare(ca[:], cb[:]); c != 0 {
		return c
	}
	return ia.Cmp(ib)
}

func (f *EVM) Holders(ctx context.Context, chain netinfo.Chain, contract common.Address, after *common.Address,
	limit int, pinned uint64,
) ([]evmdata.Holder, evmdata.Collection, error) {
	f.mu.Lock()
	f.PinnedSeen = append(f.PinnedSeen, pinned)
	all := slices.Clone(f.HolderLists[chain][contract])
	coll := f.Colls[chain][contract]
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, evmdata.Collection{}, err
	}
	slices.SortFunc(all, func(a, b evmdata.Holder) int { return bytes.Compare(a.Address[:], b.Address[:]) })
	var out []evmdata.Holder
	for _, h := range all {
		if after != nil && bytes.Compare(h.Address[:], after[:]) <= 0 {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, h)
	}
	return out, coll, nil
}

func (f *EVM) NativeBalance(ctx context.Context, _ netinfo.Chain, addr common.Address) (*big.Int, error) {
	f.mu.Lock()
	balance := f.Balances[addr]
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	if balance == nil {
		return new(big.Int), nil
	}
	return balance, nil
}
