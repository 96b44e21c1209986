package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// The L1 validations as they stand (listL1Validators): the validation's row
// (0x36: node, subnet, creating tx), its current weight (0x3A, written here
// from the txs that set it) and, while it has a balance, its
// EndAccumulatedFee (0x38, l1fees.go). The balance left is what platformvm
// answers: EndAccumulatedFee less the accrued fees after the last block.

func l1WeightKey(validationID ids.ID) []byte { return key{tagL1Weight}.id(validationID) }

// writeL1Weights records the weight each L1 validation tx gives: the
// creating txs the initial one, SetL1ValidatorWeightTx a new one (0 removes
// the validation). The other L1 txs leave the weight alone.
func writeL1Weights(txn *blockTxn, tx *pdata.Tx) error {
	switch tx.Type {
	case "ConvertSubnetToL1Tx", "RegisterL1ValidatorTx", "SetL1ValidatorWeightTx":
	default:
		return nil
	}
	for _, v := range tx.L1Validators {
		if err := txn.set(l1WeightKey(v.ValidationID), key(nil).u64(v.Weight)); err != nil {
			return fmt.Errorf("writing L1 validation %s weight: %w", v.ValidationID, err)
		}
	}
	return nil
}

// L1Validations lists the L1 validations q selects, in validation ID order,
// as they stand after the last P-chain block the index holds.
func (r *PrimaryReader) L1Validations(ctx context.Context, q pdata.L1ValidationQuery) (pdata.L1Validations, error) {
	var out pdata.L1Validations
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		cursor, err := readCursor(txn, netinfo.P, StreamBlocks)
		if err != nil {
			return err
		}
		var accrued uint64
		if cursor.NextHeight > 1 {
			out.Height = cursor.NextHeight - 1
			b, found, err := loadIndexedBlock(ctx, txn, netinfo.P, out.Height)
			if err != nil {
				return err
			}
			if found && b.L1Fees != nil {
				out.FeesKnown, accrued = true, b.L1Fees.AccruedFees
			}
		}
		visit := func(id ids.ID, row []byte) (bool, error) {
			v, err := decodeL1ValidationRow(id, row)
			if err != nil {
				return false, err
			}
			if q.Subnet != nil && v.Subnet != *q.Subnet || q.NodeID != nil && v.NodeID != *q.NodeID {
				return true, nil
			}
			if err := r.fillL1Validation(txn, &v, accrued, q.WithTx); err != nil {
				return false, err
			}
			out.Validations = append(out.Validations, v)
			return true, ctx.Err()
		}
		if len(q.IDs) > 0 {
			sorted := slices.Clone(q.IDs)
			slices.SortFunc(sorted, func(a, b ids.ID) int { return a.Compare(b) })
			for _, id := range slices.Compact(sorted) {
				row, err := getValue(txn, l1ValidationKey(id))
				if err != nil {
					return fmt.Errorf("reading L1 validation %s: %w", id, err)
				}
				if row == nil {
					continue
				}
				if _, err := visit(id, row); err != nil {
					return err
				}
			}
			return nil
		}
		prefix := key{tagL1Val}
		return scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
			id, err := ids.ToID(item.Key()[len(prefix):])
			if err != nil {
				return false, fmt.Errorf("corrupt L1 validation key: %w", err)
			}
			row, err := item.ValueCopy(nil)
			if err != nil {
				return false, err
			}
			return visit(id, row)
		})
	})
	if err != nil {
		return pdata.L1Validations{}, fmt.Errorf("listing L1 validations: %w", err)
	}
	return out, nil
}

func decodeL1ValidationRow(id ids.ID, b []byte) (pdata.IndexedL1Validation, error) {
	if len(b) != l1ValidationSize {
		return pdata.IndexedL1Validation{}, fmt.Errorf("L1 validation %s: row has %d bytes, want %d", id, len(b), l1ValidationSize)
	}
	v := pdata.IndexedL1Validation{ValidationID: id}
	v.NodeID, _ = ids.ToNodeID(b[:ids.NodeIDLen])
	v.Subnet, _ = ids.ToID(b[ids.NodeIDLen : ids.NodeIDLen+ids.IDLen])
	v.CreatingTx, _ = ids.ToID(b[ids.NodeIDLen+ids.IDLen:])
	return v, nil
}

// fillL1Validation adds v's weight and balance, and with withTx what its
// creating tx says.
func (r *PrimaryReader) fillL1Validation(txn *badger.Txn, v *pdata.IndexedL1Validation, accrued uint64, withTx bool) error {
	w, err := getValue(txn, l1WeightKey(v.ValidationID))
	if err != nil {
		return fmt.Errorf("reading L1 validation %s weight: %w", v.ValidationID, err)
	}
	if len(w) == 8 {
		v.Weight, v.WeightKnown = beUint64(w), true
	}
	end, err := getValue(txn, l1EndKey(v.ValidationID))
	if err != nil {
		return fmt.Errorf("reading L1 validation %s fee row: %w", v.ValidationID, err)
	}
	if len(end) == 8 {
		v.Active = true
		if e := beUint64(end); e > accrued {
			v.Balance = e - accrued
		}
	}
	if !withTx {
		return nil
	}
	rec, err := readPTx(txn, v.CreatingTx)
	if err != nil {
		return fmt.Errorf("reading the tx that created L1 validation %s: %w", v.ValidationID, err)
	}
	v.CreationTime = rec.Time
	if r.decode == nil {
		return nil
	}
	tx, err := r.decode(rec.Chain, rec.Bytes)
	if err != nil {
		return fmt.Errorf("decoding tx %s: %w", v.CreatingTx, err)
	}
	for i := range tx.L1Validators {
		if tx.L1Validators[i].ValidationID == v.ValidationID {
			created := tx.L1Validators[i]
			v.Creation = &created
			if !v.WeightKnown {
				v.Weight = created.Weight
			}
		}
	}
	return nil
}
