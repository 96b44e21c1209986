package indexer

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/pchain"
	"github.com/avadata/avadata/indexer/store"
)

// l1RefundOwners reads an L1 validation's remaining-balance owner from the
// index: the tx that created the validation (ConvertSubnetToL1Tx or
// RegisterL1ValidatorTx) names it, and nothing can change it later. The P
// source asks for it when a SetL1ValidatorWeightTx removes a validation,
// after which the node no longer knows who its refund went to. A validation
// created in the very block that removes it is not indexed yet: found is
// false, and the refund is left out as the source leaves out one it cannot
// read.
func l1RefundOwners(st *store.Store) pchain.RefundOwners {
	reader := st.PrimaryReader(nil)
	return func(ctx context.Context, validationID ids.ID) ([]ids.ShortID, bool, error) {
		creator, found, err := reader.L1ValidationCreator(ctx, validationID)
		if err != nil || !found {
			return nil, false, err
		}
		tx, err := pchain.DecodeTx(creator.Bytes)
		if err != nil {
			return nil, false, fmt.Errorf("decoding %s %s: %w", creator.Type, creator.TxID, err)
		}
		for _, v := range tx.L1Validators {
			if v.ValidationID == validationID && v.RemainingBalanceOwner != nil {
				return v.RemainingBalanceOwner.Addrs, true, nil
			}
		}
		return nil, false, nil
	}
}
