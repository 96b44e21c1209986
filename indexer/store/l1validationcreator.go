package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// The tx that created an L1 validation, found by its validation ID. The
// signature aggregator needs it to GET the removal of a validator: the
// P-chain signs L1ValidatorRegistration(false) for a removed validator
// only with proof of where its validation ID came from, the
// RegisterL1ValidatorTx's message or the conversion's subnet and index.
// The validation's row (l1validation.go) names that tx.

// L1ValidationCreator is the indexed P-chain tx that created an L1
// validation.
type L1ValidationCreator struct {
	TxID ids.ID
	// Type is ConvertSubnetToL1Tx or RegisterL1ValidatorTx.
	Type string
	Pos  pdata.TxPos
	// Bytes are the signed tx bytes as accepted.
	Bytes []byte
}

// L1ValidationCreator finds the indexed P-chain tx that created the L1
// validation validationID; found is false when the index holds none (its
// P-chain follower has not reached it, or no such validation exists).
func (r *PrimaryReader) L1ValidationCreator(ctx context.Context, validationID ids.ID) (creator L1ValidationCreator, found bool, err error) {
	err = r.s.read(ctx, func(txn *badger.Txn) error {
		item, err := txn.Get(l1ValidationKey(validationID))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading L1 validation %s: %w", validationID, err)
		}
		var txID ids.ID
		err = item.Value(func(b []byte) error {
			if len(b) != l1ValidationSize {
				return fmt.Errorf("L1 validation %s: row has %d bytes, want %d", validationID, len(b), l1ValidationSize)
			}
			copy(txID[:], b[ids.NodeIDLen+ids.IDLen:])
			return nil
		})
		if err != nil {
			return err
		}
		rec, err := readPTx(txn, txID)
		if err != nil {
			return fmt.Errorf("reading its creating tx %s: %w", txID, err)
		}
		creator, found = L1ValidationCreator{TxID: txID, Type: rec.Type, Pos: rec.Pos, Bytes: rec.Bytes}, true
		return nil
	})
	if err != nil {
		return L1ValidationCreator{}, false, fmt.Errorf("finding the tx that created L1 validation %s: %w", validationID, err)
	}
	return creator, found, nil
}
