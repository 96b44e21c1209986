package aggregator

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
)

// The P-chain signs L1ValidatorRegistration(false) for a removed validator
// only with proof of where its validation ID came from (platformvm's
// signatureRequestVerifier): the RegisterL1Validator message that registered
// it, or the subnet and index of the conversion it was a validator of. A
// removal (SetL1ValidatorWeightTx with weight 0) names only the validation
// ID, and the P-chain's API forgets a removed validator, so the GET of a
// removal finds the tx that created the validation in the plugin's own index
// of the P-chain, through a ValidationIndex the VM provides.

// ValidationIndex finds the P-chain tx that created an L1 validation.
type ValidationIndex interface {
	// ValidationCreator looks validationID up.
	ValidationCreator(ctx context.Context, validationID ids.ID) (ValidationLookup, error)
}

// ValidationLookup is what a ValidationIndex found.
type ValidationLookup struct {
	// SignedTx is the signed bytes of the committed tx that created the
	// validation: the RegisterL1ValidatorTx that registered it, or the
	// ConvertSubnetToL1Tx it was a validator of. Nil when the index holds
	// no such tx.
	SignedTx []byte
	// IndexedHeight is the last P-chain height the index holds, which tells
	// a client whether the index may not have reached the tx yet.
	IndexedHeight uint64
}

// UseValidationIndex has GET by tx hash find the txs that created L1
// validations in idx. Call it before the aggregator serves requests.
func (a *Aggregator) UseValidationIndex(idx ValidationIndex) {
	a.txs = indexedTxSource{pchainState: a.txs, index: idx}
}

// validationCreator without an index: nothing can be found.
func (platformTxSource) validationCreator(context.Context, ids.ID) (*txs.Tx, error) {
	return nil, newError(KindNotFound, "this node keeps no index of the P-chain to find the transaction that created it")
}

// indexedTxSource is a pchainState that finds the txs that created L1
// validations in a ValidationIndex.
type indexedTxSource struct {
	pchainState
	index ValidationIndex
}

func (s indexedTxSource) validationCreator(ctx context.Context, validationID ids.ID) (*txs.Tx, error) {
	found, err := s.index.ValidationCreator(ctx, validationID)
	if err != nil {
		return nil, fmt.Errorf("looking L1 validation %s up in the P-chain index: %w", validationID, err)
	}
	if found.SignedTx == nil {
		return nil, newError(KindNotFound,
			"this node's P-chain index (through P-chain height %d) holds no transaction that created it", found.IndexedHeight)
	}
	tx, err := txs.Parse(txs.Codec, found.SignedTx)
	if err != nil {
		return nil, fmt.Errorf("parsing the P-chain tx that created L1 validation %s: %w", validationID, err)
	}
	return tx, nil
}
