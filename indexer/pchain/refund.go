package pchain

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"

	"github.com/avadata/avadata/indexer/pdata"
)

// An L1 validator's remaining balance comes back as a UTXO at (txID,
// len(Outs)) when a DisableL1ValidatorTx disables it, or a
// SetL1ValidatorWeightTx sets its weight to 0. Its amount is P-chain state
// (the balance left after the fees accrued so far), so no tx holds it: the
// node's UTXO set does, for as long as the refund is unspent. A refund
// already spent when the source reads it is left out here; the tx that
// spent it still names it as consumed.

// refundsL1Balance reports whether tx may refund an L1 validator's balance.
func refundsL1Balance(tx *pdata.Tx) bool {
	switch tx.Type {
	case "DisableL1ValidatorTx":
		return true
	case "SetL1ValidatorWeightTx":
		return len(tx.L1Validators) == 1 && tx.L1Validators[0].Weight == 0
	}
	return false
}

// RefundOwners reads the remaining-balance owner's addresses of an L1
// validation from the index (found is false when it holds no record). The
// refund of a SetL1ValidatorWeightTx of weight 0 needs them: that tx removes
// the validation, and with it the node's record of its owner.
type RefundOwners func(ctx context.Context, validationID ids.ID) (addrs []ids.ShortID, found bool, err error)

// SetRefundOwners makes the source read removed validations' owners with
// owners.
func (s *Source) SetRefundOwners(owners RefundOwners) { s.refundOwners = owners }

// resolveRefund adds the refund UTXO of tx, when the node still holds it.
func (s *Source) resolveRefund(ctx context.Context, tx *pdata.Tx) error {
	if len(tx.L1Validators) != 1 {
		return nil
	}
	validationID := tx.L1Validators[0].ValidationID
	var known []ids.ShortID
	if tx.Type == "SetL1ValidatorWeightTx" && s.refundOwners != nil {
		var err error
		if known, _, err = s.refundOwners(ctx, validationID); err != nil {
			return fmt.Errorf("reading the owner of removed L1 validation %s: %w", validationID, err)
		}
	}
	utxoID := avax.UTXOID{TxID: tx.ID, OutputIndex: uint32(len(tx.Produced))}
	var b []byte
	var found bool
	err := retry(ctx, s.retryFirst, func() (err error) {
		b, found, err = s.platform.L1Refund(ctx, validationID, utxoID.InputID(), known)
		return err
	})
	if err != nil {
		return fmt.Errorf("reading the L1 balance refund of %s %s: %w", tx.Type, tx.ID, err)
	}
	if !found {
		return nil
	}
	var u avax.UTXO
	if _, err := txs.Codec.Unmarshal(b, &u); err != nil {
		return fmt.Errorf("decoding the L1 balance refund of %s: %w", tx.ID, err)
	}
	refund, err := utxoOf(&u)
	if err != nil {
		return err
	}
	tx.Produced = append(tx.Produced, refund)
	tx.L1Refund = true
	return nil
}

// findUTXO pages through the UTXOs owned by addrs (platform.getUTXOs) for
// the one with ID want.
func findUTXO(ctx context.Context, page func(ctx context.Context, startAddr ids.ShortID, startUTXO ids.ID) ([][]byte, ids.ShortID, ids.ID, error), want ids.ID) ([]byte, bool, error) {
	var startAddr ids.ShortID
	var startUTXO ids.ID
	for {
		utxos, nextAddr, nextUTXO, err := page(ctx, startAddr, startUTXO)
		if err != nil {
			return nil, false, err
		}
		for _, b := range utxos {
			var u avax.UTXO
			if _, err := txs.Codec.Unmarshal(b, &u); err != nil {
				return nil, false, fmt.Errorf("decoding a UTXO of platform.getUTXOs: %w", err)
			}
			if u.InputID() == want {
				return b, true, nil
			}
		}
		if len(utxos) < getUTXOsLimit || (nextAddr == startAddr && nextUTXO == startUTXO) {
			return nil, false, nil
		}
		startAddr, startUTXO = nextAddr, nextUTXO
	}
}
