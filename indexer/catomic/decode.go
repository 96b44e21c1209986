// Package catomic decodes the C-chain's atomic txs (imports into and
// exports from the C-chain's EVM state) into the pdata domain model. They
// travel in a C-chain block's extra data (blockExtraData), in coreth's
// atomic codec.
package catomic

import (
	"fmt"

	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/components/avax"

	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/txsig"
	"github.com/avadata/avadata/indexer/xchain"
)

// Tx type names (the Data API's C-chain atomic tx types).
const (
	TypeImportTx = "ImportTx"
	TypeExportTx = "ExportTx"
)

// DecodeTx decodes one signed atomic tx (the bytes pdata.Tx.Bytes holds).
func DecodeTx(b []byte) (*pdata.Tx, error) {
	tx, err := atomic.ExtractAtomicTx(b, atomic.Codec)
	if err != nil {
		return nil, fmt.Errorf("parsing atomic tx: %w", err)
	}
	return fromTx(tx)
}

// ExtractTxs decodes a block's extra data: one tx before ApricotPhase5,
// a list from then on (batch: ApricotPhase5 was active at the block's
// time, see Rules.Batch). Empty extra data holds no tx.
func ExtractTxs(extData []byte, batch bool) ([]*pdata.Tx, error) {
	txs, err := atomic.ExtractAtomicTxs(extData, batch, atomic.Codec)
	if err != nil {
		return nil, fmt.Errorf("parsing block extra data: %w", err)
	}
	if len(txs) == 0 {
		return nil, nil
	}
	out := make([]*pdata.Tx, len(txs))
	for i, tx := range txs {
		if out[i], err = fromTx(tx); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fromTx turns a parsed (initialized) atomic tx into the domain tx.
func fromTx(tx *atomic.Tx) (*pdata.Tx, error) {
	out := &pdata.Tx{ID: tx.ID(), Bytes: tx.SignedBytes()}
	var err error
	switch utx := tx.UnsignedAtomicTx.(type) {
	case *atomic.UnsignedImportTx:
		fromImport(out, tx, utx)
	case *atomic.UnsignedExportTx:
		err = fromExport(out, tx.ID(), utx)
	default:
		// The atomic codec registers no other tx type.
		err = fmt.Errorf("unknown atomic tx type %T", utx)
	}
	if err != nil {
		return nil, fmt.Errorf("atomic tx %s: %w", tx.ID(), err)
	}
	return out, nil
}

// fromImport: the imported UTXOs leave the source chain's shared memory
// and credit EVM accounts. Credential i signs imported input i.
func fromImport(out *pdata.Tx, tx *atomic.Tx, utx *atomic.UnsignedImportTx) {
	out.Type = TypeImportTx
	out.SourceChain = utx.SourceChain
	sigs := txsig.New(utx.Bytes())
	for i, in := range utx.ImportedInputs {
		input := pdata.Input{
			UTXOID:      in.InputID(),
			TxID:        in.TxID,
			OutputIndex: in.OutputIndex,
			Asset:       in.AssetID(),
			Amount:      in.In.Amount(),
		}
		if i < len(tx.Creds) {
			input.Signers = sigs.Signers(tx.Creds[i])
		}
		out.Consumed = append(out.Consumed, input)
	}
	for _, o := range utx.Outs {
		out.EVMOutputs = append(out.EVMOutputs, pdata.EVMAmount{Address: o.Address, Asset: o.AssetID, Amount: o.Amount})
	}
}

// fromExport: EVM accounts are debited and the exported outputs go to the
// destination chain's shared memory. Unlike P and X exports they are
// numbered from 0: the C-chain tx has no outputs of its own
// (atomic.UnsignedExportTx.AtomicOps).
func fromExport(out *pdata.Tx, txID ids.ID, utx *atomic.UnsignedExportTx) error {
	out.Type = TypeExportTx
	out.DestinationChain = utx.DestinationChain
	for _, in := range utx.Ins {
		out.EVMInputs = append(out.EVMInputs, pdata.EVMAmount{Address: in.Address, Asset: in.AssetID, Amount: in.Amount})
	}
	for i, o := range utx.ExportedOutputs {
		u, err := xchain.NewUTXO(atomic.Codec, &avax.UTXO{
			UTXOID: avax.UTXOID{TxID: txID, OutputIndex: uint32(i)},
			Asset:  o.Asset,
			Out:    o.Out,
		})
		if err != nil {
			return err
		}
		u.Exported, u.DestinationChain = true, utx.DestinationChain
		out.Produced = append(out.Produced, u)
	}
	return nil
}
