package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Asset tx rows (0x14) list, per chain, the txs that touch an asset: those
// that consume or produce a UTXO of it, the CreateAssetTx that creates it,
// and the C-chain atomic txs that move it to or from accounts. The primary
// tx writer adds them with the tx's record, so every chain has them from
// genesis; listAssetTransactions reads them through Txs (TxQuery.Asset).

func assetTxPrefix(chain netinfo.Chain, asset ids.ID) key {
	return newKey(tagPAsset, chain).id(asset)
}

// assetTxKey is the whole 0x14 key: asset's row of the tx at pos.
func assetTxKey(chain netinfo.Chain, asset ids.ID, pos pdata.TxPos) []byte {
	return append(sizedKey(46, tagPAsset), byte(chain)).id(asset).u64(pos.Height).u32(pos.Index)
}

// txAssetIDs lists the assets tx touches, once each, in first-seen order.
func txAssetIDs(tx *pdata.Tx) []ids.ID {
	var out []ids.ID
	add := func(a ids.ID) {
		for _, b := range out {
			if a == b {
				return
			}
		}
		out = append(out, a)
	}
	if tx.Asset != nil {
		add(tx.Asset.ID)
	}
	for i := range tx.Consumed {
		add(tx.Consumed[i].Asset)
	}
	for i := range tx.Produced {
		add(tx.Produced[i].Asset)
	}
	for _, a := range tx.EVMInputs {
		add(a.Asset)
	}
	for _, a := range tx.EVMOutputs {
		add(a.Asset)
	}
	return out
}

// writeAssetTxs lists the tx at at under every asset it touches.
func writeAssetTxs(txn *blockTxn, at txPlace, tx *pdata.Tx) error {
	for _, asset := range txAssetIDs(tx) {
		if err := txn.set(assetTxKey(at.chain, asset, at.pos), tx.ID[:]); err != nil {
			return fmt.Errorf("listing tx %s under asset %s: %w", tx.ID, asset, err)
		}
	}
	return nil
}

// listingPrefixes are the tx-order ranges a listing of chain merges: the
// asset's txs, the addresses' txs, or every tx of the chain.
func listingPrefixes(chain netinfo.Chain, q *pdata.TxQuery) []key {
	switch {
	case q.Asset != nil:
		return []key{assetTxPrefix(chain, *q.Asset)}
	case len(q.Addresses) > 0:
		prefixes := make([]key, 0, len(q.Addresses))
		for _, addr := range q.Addresses {
			prefixes = append(prefixes, addrTxPrefix(chain, addr))
		}
		return prefixes
	}
	return []key{newKey(tagPChainTx, chain)}
}

// Tx reads one tx by its ID, as Txs lists it; found is false when the index
// holds no tx of that ID (on any chain: the caller checks IndexedTx.Chain).
func (r *PrimaryReader) Tx(ctx context.Context, id ids.ID) (tx pdata.IndexedTx, found bool, err error) {
	err = r.s.read(ctx, func(txn *badger.Txn) error {
		v, err := getValue(txn, ptxKey(id))
		if err != nil || v == nil {
			return err
		}
		rec, err := decodePTx(v)
		if err != nil {
			return fmt.Errorf("tx %s: %w", id, err)
		}
		if tx, err = r.indexedTx(ctx, txn, id, &rec); err != nil {
			return err
		}
		found = true
		return nil
	})
	if err != nil {
		return pdata.IndexedTx{}, false, fmt.Errorf("reading primary tx %s: %w", id, err)
	}
	return tx, found, nil
}
