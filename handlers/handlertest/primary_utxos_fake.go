package handlertest

import (
	"cmp"
	"context"
	"slices"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// The fake's UTXO and address-activity answers, derived from its txs: a
// UTXO is held by the chain that created it, or for an export by the
// destination chain; it is spent when any tx's copy of it says so.

// heldUTXOs are the UTXOs chain holds: those its txs (or, exported to it,
// other chains' txs) produce or consume.
func (f *Primary) heldUTXOs(chain netinfo.Chain) []pdata.IndexedUTXO {
	node := fakenet.Info()
	holder := func(u *pdata.IndexedUTXO) netinfo.Chain {
		if u.Exported {
			for _, c := range netinfo.PrimaryChains() {
				if node.ChainID(c) == u.DestinationChain {
					return c
				}
			}
		}
		return u.CreatedOn
	}
	byID := map[ids.ID]pdata.IndexedUTXO{}
	for _, txs := range f.TxList {
		for _, tx := range txs {
			consumed := slices.Clone(tx.Consumed)
			for i := range consumed {
				if u := &consumed[i]; !u.Spent() { // this tx spent it
					u.ConsumedOn, u.ConsumingTx, u.ConsumingHeight, u.ConsumingTime = tx.Chain, tx.Tx.ID, tx.Pos.Height, tx.BlockTime
				}
			}
			for _, u := range slices.Concat(tx.Produced, consumed) {
				if old, ok := byID[u.ID]; holder(&u) == chain && (!ok || (!old.Spent() && u.Spent())) {
					byID[u.ID] = u
				}
			}
		}
	}
	out := make([]pdata.IndexedUTXO, 0, len(byID))
	for _, u := range byID {
		out = append(out, u)
	}
	return out
}

func (f *Primary) UTXOs(ctx context.Context, chain netinfo.Chain, q pdata.UTXOQuery) (pdata.UTXOPage, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.UTXOQueries = append(f.UTXOQueries, q)
	if f.Err != nil {
		return pdata.UTXOPage{}, f.Err
	}
	pos := func(u *pdata.IndexedUTXO) pdata.UTXOPos {
		if q.ByAmount {
			return pdata.UTXOPos{Key: u.Amount, UTXO: u.ID}
		}
		return pdata.UTXOPos{Key: uint64(u.CreatedTime), UTXO: u.ID}
	}
	order := func(a, b pdata.UTXOPos) int {
		c := cmp.Or(cmp.Compare(a.Key, b.Key), a.UTXO.Compare(b.UTXO))
		if q.Desc {
			return -c
		}
		return c
	}
	var matching []pdata.IndexedUTXO
	for _, u := range f.heldUTXOs(chain) {
		owned := slices.ContainsFunc(u.Owners.Addrs, func(a ids.ShortID) bool { return slices.Contains(q.Addresses, a) })
		if owned && (q.IncludeSpent || !u.Spent()) && u.Amount >= q.MinAmount && (q.Asset == nil || *q.Asset == u.Asset) &&
			(q.After == nil || order(pos(&u), *q.After) > 0) {
			matching = append(matching, u)
		}
	}
	slices.SortFunc(matching, func(a, b pdata.IndexedUTXO) int { return order(pos(&a), pos(&b)) })
	if q.Limit > 0 && len(matching) > q.Limit {
		next := pos(&matching[q.Limit-1])
		return pdata.UTXOPage{UTXOs: matching[:q.Limit], Next: &next}, nil
	}
	return pdata.UTXOPage{UTXOs: matching}, ctx.Err()
}

func (f *Primary) LastActivity(ctx context.Context, chain netinfo.Chain, addrs []ids.ShortID) (pdata.AddressActivity, bool, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Err != nil {
		return pdata.AddressActivity{}, false, f.Err
	}
	txs := f.TxList[chain]
	for i := len(txs) - 1; i >= 0; i-- {
		tx := &txs[i]
		if !involvesAny(tx, addrs) {
			continue
		}
		act := pdata.AddressActivity{TxID: tx.Tx.ID, Height: tx.Pos.Height, Time: tx.BlockTime}
		switch {
		case len(tx.Produced) > 0:
			act.UTXO = tx.Produced[0].ID
		case len(tx.Consumed) > 0:
			act.UTXO, act.Consumed = tx.Consumed[0].ID, true
		}
		return act, true, ctx.Err()
	}
	return pdata.AddressActivity{}, false, ctx.Err()
}

func (f *Primary) ChainsWithActivity(ctx context.Context, addrs []ids.ShortID, chains []netinfo.Chain) ([][]netinfo.Chain, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.Err != nil {
		return nil, f.Err
	}
	out := make([][]netinfo.Chain, len(addrs))
	for i, addr := range addrs {
		out[i] = []netinfo.Chain{}
		for _, c := range chains {
			if slices.ContainsFunc(f.TxList[c], func(tx pdata.IndexedTx) bool { return involvesAny(&tx, []ids.ShortID{addr}) }) {
				out[i] = append(out[i], c)
			}
		}
	}
	return out, ctx.Err()
}
