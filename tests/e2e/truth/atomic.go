package truth

import (
	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
)

// AtomicAmounts is what an atomic tx consumes (in) and produces (out) of
// asset: its fee in that asset is in less out.
func AtomicAmounts(tx *atomic.Tx, asset ids.ID) (in, out uint64) {
	switch utx := tx.UnsignedAtomicTx.(type) {
	case *atomic.UnsignedImportTx:
		for _, i := range utx.ImportedInputs {
			if i.AssetID() == asset {
				in += i.In.Amount()
			}
		}
		for _, o := range utx.Outs {
			if o.AssetID == asset {
				out += o.Amount
			}
		}
	case *atomic.UnsignedExportTx:
		for _, i := range utx.Ins {
			if i.AssetID == asset {
				in += i.Amount
			}
		}
		for _, o := range utx.ExportedOutputs {
			if o.AssetID() == asset {
				out += o.Out.Amount()
			}
		}
	}
	return in, out
}
