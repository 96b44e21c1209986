package pchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/fx"
	"github.com/ava-labs/avalanchego/vms/platformvm/stakeable"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"

	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/txsig"
)

// outputTypeTransfer is the only output type the P-chain holds (inside a
// stakeable.LockOut or not).
const outputTypeTransfer = "secp256k1fx.TransferOutput"

// newUTXO is the UTXO output out becomes at (txID, index).
func newUTXO(txID ids.ID, index uint32, out *avax.TransferableOutput) (pdata.UTXO, error) {
	return utxoOf(&avax.UTXO{
		UTXOID: avax.UTXOID{TxID: txID, OutputIndex: index},
		Asset:  out.Asset,
		Out:    out.Out,
	})
}

// utxoOf describes u. Bytes are re-marshalled with txs.Codec so that every
// P UTXO's utxoBytes come out the same whatever the UTXO's source (a tx, the
// genesis, platform.getRewardUTXOs).
func utxoOf(u *avax.UTXO) (pdata.UTXO, error) {
	b, err := txs.Codec.Marshal(txs.CodecVersion, u)
	if err != nil {
		return pdata.UTXO{}, fmt.Errorf("marshalling UTXO %s: %w", u.InputID(), err)
	}
	p := pdata.UTXO{
		ID:          u.InputID(),
		TxID:        u.TxID,
		OutputIndex: u.OutputIndex,
		Asset:       u.AssetID(),
		Bytes:       b,
	}
	out := u.Out
	if lock, ok := out.(*stakeable.LockOut); ok {
		p.StakeableLocktime = lock.Locktime
		out = lock.TransferableOut
	}
	transfer, ok := out.(*secp256k1fx.TransferOutput)
	if !ok {
		return pdata.UTXO{}, fmt.Errorf("UTXO %s: unexpected P-chain output type %T", p.ID, out)
	}
	p.Amount = transfer.Amt
	p.Owners = *ownersOf(&transfer.OutputOwners)
	// The LockOut wrapper is told by StakeableLocktime; the type names what
	// the Data API's asset type follows from.
	p.OutputType = outputTypeTransfer
	return p, nil
}

// ownersOf converts an fx.Owner (always *secp256k1fx.OutputOwners on the
// P-chain); nil when it is anything else.
func ownersOf(o fx.Owner) *pdata.Owners {
	owners, ok := o.(*secp256k1fx.OutputOwners)
	if !ok || owners == nil {
		return nil
	}
	return &pdata.Owners{
		Threshold: owners.Threshold,
		Locktime:  owners.Locktime,
		Addrs:     append([]ids.ShortID(nil), owners.Addrs...),
	}
}

// inputOf describes one spent UTXO; signers come from its credential.
func inputOf(in *avax.TransferableInput, signers *txsig.Signers) pdata.Input {
	return pdata.Input{
		UTXOID:      in.InputID(),
		TxID:        in.TxID,
		OutputIndex: in.OutputIndex,
		Asset:       in.AssetID(),
		Amount:      in.In.Amount(),
		Signers:     signers,
	}
}
