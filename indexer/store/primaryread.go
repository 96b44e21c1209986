package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// TxDecoder decodes a stored primary-network tx's signed bytes (the VM
// injects the chains' codecs; the store does not depend on them).
type TxDecoder func(chain netinfo.Chain, b []byte) (*pdata.Tx, error)

// PrimaryReader serves the primary-network reads (primary.Reader, in handlers/primary).
type PrimaryReader struct {
	s      *Store
	decode TxDecoder
}

// PrimaryReader returns the primary-network reader; a nil decode gives txs
// that carry only what the index stores (ID, type, outcome, bytes, UTXOs).
func (s *Store) PrimaryReader(decode TxDecoder) *PrimaryReader {
	return &PrimaryReader{s: s, decode: decode}
}

// Txs lists chain's txs as q selects them: every tx of the chain, those
// that involve any of q.Addresses (a k-way merge of the addresses' rows),
// or those that touch q.Asset.
// A page holds at most q.Limit txs (no bound when <= 0) and stops before a
// tx that would take its UTXOs past q.MaxUTXOs (when > 0), though never
// before its first tx.
func (r *PrimaryReader) Txs(ctx context.Context, chain netinfo.Chain, q pdata.TxQuery) ([]pdata.IndexedTx, error) {
	types := make(map[string]bool, len(q.Types))
	for _, t := range q.Types {
		types[t] = true
	}
	var out []pdata.IndexedTx
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		prefixes := listingPrefixes(chain, &q)
		var ranges []rangeIter
		for _, prefix := range prefixes {
			ranges = append(ranges, txRange(txn, prefix, &q))
		}
		if dag, ok := dagPart(chain, q); ok {
			for _, prefix := range prefixes {
				ranges = append(ranges, txRange(txn, prefix, &dag))
			}
		}
		utxos := 0
		return mergeRanges(ctx, ranges, txOrder, func(pos pdata.TxPos, item *badger.Item) (bool, error) {
			id, err := itemID(item)
			if err != nil {
				return false, fmt.Errorf("corrupt tx row at %d/%d: %w", pos.Height, pos.Index, err)
			}
			rec, err := readPTx(txn, id)
			if err != nil {
				return false, err
			}
			if (len(types) > 0 && !types[rec.Type]) || !inTimes(&q, rec.Time) {
				return true, nil
			}
			n := len(rec.Consumed) + len(rec.Produced)
			if q.MaxUTXOs > 0 && len(out) > 0 && utxos+n > q.MaxUTXOs {
				return false, nil
			}
			tx, err := r.indexedTx(ctx, txn, id, &rec)
			if err != nil {
				return false, err
			}
			out, utxos = append(out, tx), utxos+n
			return q.Limit <= 0 || len(out) < q.Limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing %s primary txs: %w", chain, err)
	}
	return out, nil
}

// dagPart is the part of an X-chain listing by time that its heights miss:
// height 0, where the genesis and DAG txs sit, when the listing starts above
// it. The DAG txs' times (the node's acceptance of their vertices) need not
// precede linear block 1's, so the time bounds, not the heights, decide
// whether they are in.
func dagPart(chain netinfo.Chain, q pdata.TxQuery) (pdata.TxQuery, bool) {
	if chain != netinfo.X || q.FromHeight == 0 || q.FromTime == nil {
		return pdata.TxQuery{}, false
	}
	q.FromHeight, q.ToHeight = 0, 1
	return q, true
}

// inTimes reports whether a tx of time t lies within q's time bounds.
func inTimes(q *pdata.TxQuery, t int64) bool {
	return (q.FromTime == nil || t >= *q.FromTime) && (q.ToTime == nil || t <= *q.ToTime)
}

func readPTx(txn *badger.Txn, id ids.ID) (ptxRecord, error) {
	v, err := getValue(txn, ptxKey(id))
	if err != nil {
		return ptxRecord{}, err
	}
	if v == nil {
		return ptxRecord{}, fmt.Errorf("tx %s is listed but not stored", id)
	}
	rec, err := decodePTx(v)
	if err != nil {
		return ptxRecord{}, fmt.Errorf("tx %s: %w", id, err)
	}
	return rec, nil
}

// indexedTx decodes a stored tx and joins its UTXOs as the index knows them
// now. The decided effects (outcome, produced and unstaked UTXOs) come from
// the record, not the bytes.
func (r *PrimaryReader) indexedTx(ctx context.Context, txn *badger.Txn, id ids.ID, rec *ptxRecord) (pdata.IndexedTx, error) {
	tx := &pdata.Tx{ID: id, Type: rec.Type}
	if r.decode != nil {
		decoded, err := r.decode(rec.Chain, rec.Bytes)
		if err != nil {
			return pdata.IndexedTx{}, fmt.Errorf("decoding %s tx %s: %w", rec.Chain, id, err)
		}
		tx = decoded
		tx.ID = id
		if err := fillL1Validations(txn, tx); err != nil {
			return pdata.IndexedTx{}, err
		}
	}
	tx.Bytes, tx.Outcome, tx.Unstaked = rec.Bytes, rec.Outcome, rec.Unstaked
	out := pdata.IndexedTx{Chain: rec.Chain, Pos: rec.Pos, BlockID: rec.BlockID, BlockTime: rec.Time, Tx: tx}
	if rec.Chain == netinfo.X && inDAG(rec.Pos) {
		vertices, err := txVertices(ctx, txn, id)
		if err != nil {
			return pdata.IndexedTx{}, err
		}
		out.Vertices = vertices
	}

	inputs := make(map[ids.ID]*pdata.Input, len(tx.Consumed))
	for i := range tx.Consumed {
		inputs[tx.Consumed[i].UTXOID] = &tx.Consumed[i]
	}
	for _, uid := range rec.Consumed {
		u, err := r.consumedUTXO(txn, rec, tx, uid, inputs[uid])
		if err != nil {
			return pdata.IndexedTx{}, err
		}
		out.Consumed = append(out.Consumed, u)
	}
	own := make(map[ids.ID]pdata.UTXO, len(tx.Produced))
	for _, u := range tx.Produced {
		own[u.ID] = u
	}
	tx.Produced = make([]pdata.UTXO, 0, len(rec.Produced))
	for _, uid := range rec.Produced {
		fallback, ok := own[uid]
		if !ok {
			fallback = pdata.UTXO{ID: uid, TxID: id}
		}
		u, found, err := loadIndexedUTXO(txn, uid, fallback)
		if err != nil {
			return pdata.IndexedTx{}, err
		}
		if !found { // this tx made it
			u.CreatedOn, u.CreatingTx, u.CreatedHeight, u.CreatedTime = rec.Chain, id, rec.Pos.Height, rec.Time
		}
		out.Produced = append(out.Produced, u)
		tx.Produced = append(tx.Produced, u.UTXO)
	}
	return out, nil
}

// consumedUTXO is a UTXO tx spent; when its creation is not indexed (a chain
// not followed, or an export not indexed yet) it is built from the input.
func (r *PrimaryReader) consumedUTXO(txn *badger.Txn, rec *ptxRecord, tx *pdata.Tx, uid ids.ID, in *pdata.Input) (pdata.IndexedUTXO, error) {
	fallback := pdata.UTXO{ID: uid}
	if in != nil {
		fallback = pdata.UTXO{ID: uid, TxID: in.TxID, OutputIndex: in.OutputIndex, Asset: in.Asset, Amount: in.Amount,
			Owners: pdata.Owners{Threshold: 1, Addrs: in.Signers.Addresses()}}
	}
	u, found, err := loadIndexedUTXO(txn, uid, fallback)
	if err != nil || found {
		return u, err
	}
	u.CreatingTx, u.CreatedOn = fallback.TxID, rec.Chain
	// An import spends from its source chain's exports (the P-chain's ID is
	// ids.Empty, so the type says whether SourceChain is set).
	if chain, ok := r.chainOf(tx.SourceChain); ok && tx.Type == "ImportTx" {
		u.CreatedOn = chain
	}
	return u, nil
}

func (r *PrimaryReader) chainOf(id ids.ID) (netinfo.Chain, bool) {
	if n := r.s.network(); n.ChainOf != nil {
		return n.ChainOf(id)
	}
	return 0, false
}

// loadIndexedUTXO joins a UTXO's creation and consumption rows; fallback
// stands for the creation when its row is missing (found false: the caller
// fills in where it was created).
func loadIndexedUTXO(txn *badger.Txn, id ids.ID, fallback pdata.UTXO) (u pdata.IndexedUTXO, found bool, err error) {
	u = pdata.IndexedUTXO{UTXO: fallback}
	v, err := getValue(txn, utxoKey(id))
	if err != nil {
		return u, false, fmt.Errorf("reading utxo %s: %w", id, err)
	}
	if v != nil {
		row, err := decodeUTXO(id, v)
		if err != nil {
			return u, false, fmt.Errorf("utxo %s: %w", id, err)
		}
		found = true
		u.UTXO, u.CreatedOn, u.CreatingTx, u.CreatedHeight, u.CreatedTime = row.UTXO, row.CreatedOn, row.CreatingTx, row.Height, row.Time
		if row.Unstaked {
			u.UnstakedTime = row.UnstakedTime
		}
	}
	v, err = getValue(txn, spentKey(id))
	if err != nil {
		return u, found, fmt.Errorf("reading utxo %s consumption: %w", id, err)
	}
	if v != nil {
		s, err := decodeSpent(v)
		if err != nil {
			return u, found, fmt.Errorf("utxo %s consumption: %w", id, err)
		}
		u.ConsumedOn, u.ConsumingTx, u.ConsumingHeight, u.ConsumingTime = s.Chain, s.Tx, s.Height, s.Time
	}
	return u, found, nil
}

// Assets describes the given assets; unknown ones are left out.
func (r *PrimaryReader) Assets(ctx context.Context, assets []ids.ID) (map[ids.ID]pdata.Asset, error) {
	out := make(map[ids.ID]pdata.Asset, len(assets))
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		for _, id := range assets {
			item, err := txn.Get(assetKey(id))
			if errors.Is(err, badger.ErrKeyNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			err = item.Value(func(v []byte) error {
				a, err := decodeAsset(id, v)
				out[id] = a
				return err
			})
			if err != nil {
				return fmt.Errorf("asset %s: %w", id, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading assets: %w", err)
	}
	return out, nil
}
