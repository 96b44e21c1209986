package store

import (
	"errors"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// An L1 validator's later txs (IncreaseL1ValidatorBalanceTx,
// DisableL1ValidatorTx, SetL1ValidatorWeightTx) name only its validation
// ID; the node and subnet come from the tx that added it
// (ConvertSubnetToL1Tx, RegisterL1ValidatorTx). The writer keeps them per
// validation ID, with that tx's ID, and the reader fills them in. (The
// signature aggregator needs the creating tx to GET a removal:
// l1validationcreator.go.)

const l1ValidationSize = ids.NodeIDLen + 2*ids.IDLen

func l1ValidationKey(validationID ids.ID) []byte { return key{tagL1Val}.id(validationID) }

// writeL1Validations records the node and subnet of every validation tx
// adds, and tx as its creator.
func writeL1Validations(txn *blockTxn, tx *pdata.Tx) error {
	for _, v := range tx.L1Validators {
		if v.NodeID == ids.EmptyNodeID {
			continue
		}
		val := make([]byte, 0, l1ValidationSize)
		val = append(append(append(val, v.NodeID.Bytes()...), v.Subnet[:]...), tx.ID[:]...)
		if err := txn.set(l1ValidationKey(v.ValidationID), val); err != nil {
			return fmt.Errorf("writing L1 validation %s: %w", v.ValidationID, err)
		}
	}
	return nil
}

// fillL1Validations completes the L1 validators tx names by validation ID
// only with the node and subnet the index recorded for them.
func fillL1Validations(txn *badger.Txn, tx *pdata.Tx) error {
	for i := range tx.L1Validators {
		v := &tx.L1Validators[i]
		if v.NodeID != ids.EmptyNodeID {
			continue
		}
		item, err := txn.Get(l1ValidationKey(v.ValidationID))
		if errors.Is(err, badger.ErrKeyNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("reading L1 validation %s: %w", v.ValidationID, err)
		}
		err = item.Value(func(b []byte) error {
			if len(b) != l1ValidationSize {
				return fmt.Errorf("L1 validation %s: row has %d bytes, want %d", v.ValidationID, len(b), l1ValidationSize)
			}
			v.NodeID, _ = ids.ToNodeID(b[:ids.NodeIDLen])
			v.Subnet, _ = ids.ToID(b[ids.NodeIDLen : ids.NodeIDLen+ids.IDLen])
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
