package handlertest

import (
	"context"
	"slices"
	"sync"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Primary is an in-memory Reader that answers the way the store
// does: tx listings filtered by address, type and height, resumed after a
// position, cut at Limit or before the tx that would take the page's UTXOs
// past MaxUTXOs (never before the first); blocks by proposer newest first;
// block times for HeightAtTime.
type Primary struct {
	Mu             sync.Mutex
	CHistoryFrom   uint64                              // the C-chain's first indexed block, 0 or 1: genesis (primary_history_fake.go)
	TxList         map[netinfo.Chain][]pdata.IndexedTx // ascending by position
	blocks         map[netinfo.Chain][]pdata.IndexedBlock
	times          map[netinfo.Chain]map[uint64]int64 // height -> block time
	BalanceEntries map[netinfo.Chain]map[ids.ShortID][]pdata.BalanceEntry
	AssetList      map[ids.ID]pdata.Asset
	// SubnetList and ChainList are the registry, in creation order (see
	// AddSubnet, AddBlockchain).
	SubnetList []pdata.Subnet
	ChainList  []pdata.IndexedBlockchain
	// Supply is what AvaxSupply answers.
	Supply pdata.AvaxSupply

	// Sources is what ChainSource answers per chain (absent: the index
	// API).
	Sources map[netinfo.Chain]pdata.ChainSource

	Err error // returned by every call when set

	TxQueries     []pdata.TxQuery
	BlockQueries  []pdata.BlockQuery
	BalanceCalls  []balanceCall
	UTXOQueries   []pdata.UTXOQuery
	assetRequests [][]ids.ID
}

type balanceCall struct {
	chain netinfo.Chain
	Addrs []ids.ShortID
	At    int64
}

func NewPrimary() *Primary {
	return &Primary{
		TxList:         map[netinfo.Chain][]pdata.IndexedTx{},
		blocks:         map[netinfo.Chain][]pdata.IndexedBlock{},
		times:          map[netinfo.Chain]map[uint64]int64{},
		BalanceEntries: map[netinfo.Chain]map[ids.ShortID][]pdata.BalanceEntry{},
		AssetList:      map[ids.ID]pdata.Asset{},
	}
}

// AddTx indexes a tx (kept in position order) and its block's time.
func (f *Primary) AddTx(tx pdata.IndexedTx) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.TxList[tx.Chain] = append(f.TxList[tx.Chain], tx)
	slices.SortFunc(f.TxList[tx.Chain], func(a, b pdata.IndexedTx) int { return cmpPTxPos(a.Pos, b.Pos) })
	f.setTimeLocked(tx.Chain, tx.Pos.Height, tx.BlockTime)
}

func (f *Primary) AddBlock(b pdata.IndexedBlock) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.blocks[b.Chain] = append(f.blocks[b.Chain], b)
	f.setTimeLocked(b.Chain, b.Number, b.Time)
}

func (f *Primary) setTimeLocked(chain netinfo.Chain, height uint64, ts int64) {
	if f.times[chain] == nil {
		f.times[chain] = map[uint64]int64{}
	}
	f.times[chain][height] = ts
}

func cmpPTxPos(a, b pdata.TxPos) int {
	if a.Height != b.Height {
		return cmpUint(a.Height, b.Height)
	}
	return cmpUint(uint64(a.Index), uint64(b.Index))
}

func (f *Primary) Txs(ctx context.Context, chain netinfo.Chain, q pdata.TxQuery) ([]pdata.IndexedTx, error) {
	f.Mu.Lock()
	f.TxQueries = append(f.TxQueries, q)
	txs := slices.Clone(f.TxList[chain])
	err := f.Err
	f.Mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if q.Desc {
		slices.Reverse(txs)
	}
	var out []pdata.IndexedTx
	utxos := 0
	for _, tx := range txs {
		if !involvesAny(&tx, q.Addresses) || !touchesAsset(&tx, q.Asset) || (len(q.Types) > 0 && !slices.Contains(q.Types, tx.Tx.Type)) ||
			tx.Pos.Height < q.FromHeight || (q.ToHeight != 0 && tx.Pos.Height >= q.ToHeight) || !afterPTx(q, tx.Pos) {
			continue
		}
		n := len(tx.Consumed) + len(tx.Produced)
		if len(out) == q.Limit || (q.MaxUTXOs > 0 && len(out) > 0 && utxos+n > q.MaxUTXOs) {
			break
		}
		out = append(out, tx)
		utxos += n
	}
	return out, nil
}

func afterPTx(q pdata.TxQuery, pos pdata.TxPos) bool {
	switch {
	case q.After == nil:
		return true
	case q.Desc:
		return cmpPTxPos(pos, *q.After) < 0
	default:
		return cmpPTxPos(pos, *q.After) > 0
	}
}

// involvesAny reports whether an address owns a UTXO of the tx, signed an
// input, or is an account of its C-chain side.
func involvesAny(tx *pdata.IndexedTx, addrs []ids.ShortID) bool {
	if len(addrs) == 0 {
		return true
	}
	var owners []ids.ShortID
	for _, u := range tx.Consumed {
		owners = append(owners, u.Owners.Addrs...)
	}
	for _, u := range tx.Produced {
		owners = append(owners, u.Owners.Addrs...)
	}
	for _, in := range tx.Tx.Consumed {
		owners = append(owners, in.Signers.Addresses()...)
	}
	for _, a := range tx.Tx.EVMInputs {
		owners = append(owners, ids.ShortID(a.Address))
	}
	for _, a := range tx.Tx.EVMOutputs {
		owners = append(owners, ids.ShortID(a.Address))
	}
	for _, a := range addrs {
		if slices.Contains(owners, a) {
			return true
		}
	}
	return false
}

// touchesAsset reports whether the tx consumes, produces or creates asset
// (nil: any tx), or moves it to or from C-chain accounts.
func touchesAsset(tx *pdata.IndexedTx, asset *ids.ID) bool {
	if asset == nil || (tx.Tx.Asset != nil && tx.Tx.Asset.ID == *asset) {
		return true
	}
	for _, u := range append(slices.Clone(tx.Consumed), tx.Produced...) {
		if u.Asset == *asset {
			return true
		}
	}
	for _, a := range append(slices.Clone(tx.Tx.EVMInputs), tx.Tx.EVMOutputs...) {
		if a.Asset == *asset {
			return true
		}
	}
	return false
}

// Tx finds a tx of any chain by its ID.
func (f *Primary) Tx(ctx context.Context, id ids.ID) (pdata.IndexedTx, bool, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Err != nil {
		return pdata.IndexedTx{}, false, f.Err
	}
	for _, txs := range f.TxList {
		for _, tx := range txs {
			if tx.Tx.ID == id {
				return tx, true, ctx.Err()
			}
		}
	}
	return pdata.IndexedTx{}, false, ctx.Err()
}

func (f *Primary) Balances(ctx context.Context, chain netinfo.Chain, addrs []ids.ShortID, at int64) ([]pdata.BalanceEntry, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.BalanceCalls = append(f.BalanceCalls, balanceCall{chain: chain, Addrs: addrs, At: at})
	if f.Err != nil {
		return nil, f.Err
	}
	var out []pdata.BalanceEntry
	for _, a := range addrs {
		out = append(out, f.BalanceEntries[chain][a]...)
	}
	return out, ctx.Err()
}

func (f *Primary) Assets(ctx context.Context, assets []ids.ID) (map[ids.ID]pdata.Asset, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.assetRequests = append(f.assetRequests, assets)
	if f.Err != nil {
		return nil, f.Err
	}
	out := map[ids.ID]pdata.Asset{}
	for _, id := range assets {
		if a, ok := f.AssetList[id]; ok {
			out[id] = a
		}
	}
	return out, ctx.Err()
}

// BlocksByProposer lists chain's blocks proposed by q.NodeID, as Blocks
// lists them.
func (f *Primary) BlocksByProposer(ctx context.Context, chain netinfo.Chain, q pdata.BlockQuery) ([]pdata.IndexedBlock, error) {
	return f.selectBlocks(ctx, chain, q, func(b *pdata.IndexedBlock) bool {
		return b.Proposer != nil && b.Proposer.NodeID == q.NodeID
	})
}

func (f *Primary) HeightAtTime(ctx context.Context, chain netinfo.Chain, ts int64) (uint64, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Err != nil {
		return 0, f.Err
	}
	var best uint64
	for h, t := range f.times[chain] {
		if t <= ts && h > best {
			best = h
		}
	}
	return best, ctx.Err()
}

// Vertices holds vertices by acceptance index (slice position).
type Vertices struct{ Vs []pdata.Vertex }

func (f *Vertices) LatestVertices(_ context.Context, after *uint64, limit int) ([]pdata.Vertex, error) {
	var out []pdata.Vertex
	for i := len(f.Vs) - 1; i >= 0; i-- {
		if after == nil || f.Vs[i].Index < *after {
			out = append(out, f.Vs[i])
		}
	}
	return out[:min(len(out), limit)], nil
}

func (f *Vertices) VerticesAtHeight(_ context.Context, h uint64, desc bool, after *uint64, limit int) ([]pdata.Vertex, error) {
	var out []pdata.Vertex
	for _, v := range f.Vs {
		if v.DAGHeight == h {
			out = append(out, v)
		}
	}
	if desc {
		slices.Reverse(out)
	}
	if after != nil {
		out = slices.DeleteFunc(out, func(v pdata.Vertex) bool {
			return (desc && v.Index >= *after) || (!desc && v.Index <= *after)
		})
	}
	return out[:min(len(out), limit)], nil
}

func (f *Primary) AvaxSupply(ctx context.Context, at int64) (pdata.AvaxSupply, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return f.Supply, f.Err
}

// ChainSource answers from Sources (never Err: the operations' own reads
// report it).
func (f *Primary) ChainSource(_ context.Context, chain netinfo.Chain) (pdata.ChainSource, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	return f.Sources[chain], nil
}
