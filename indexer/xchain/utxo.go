package xchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/codec"
	"github.com/ava-labs/avalanchego/vms/avm/txs"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/nftfx"
	"github.com/ava-labs/avalanchego/vms/propertyfx"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"

	"github.com/avadata/avadata/indexer/pdata"
)

// Output type names, as pdata.UTXO.OutputType holds them.
const (
	OutputSECPTransfer  = "secp256k1fx.TransferOutput"
	OutputSECPMint      = "secp256k1fx.MintOutput"
	OutputNFTTransfer   = "nftfx.TransferOutput"
	OutputNFTMint       = "nftfx.MintOutput"
	OutputPropertyMint  = "propertyfx.MintOutput"
	OutputPropertyOwned = "propertyfx.OwnedOutput"
)

// codecVersion is the only avm codec version.
const codecVersion = txs.CodecVersion

// NewUTXO turns a UTXO a tx creates into the domain UTXO. c is the codec
// of the chain that creates it: Bytes are the UTXO as that chain keeps it
// (and puts it in shared memory for an export), the Data API's utxoBytes.
// The C-chain's atomic txs use it too: their exported outputs are the same
// secp256k1fx outputs.
func NewUTXO(c codec.Manager, u *avax.UTXO) (pdata.UTXO, error) {
	b, err := c.Marshal(codecVersion, u)
	if err != nil {
		return pdata.UTXO{}, fmt.Errorf("marshalling UTXO %s: %w", &u.UTXOID, err)
	}
	out := pdata.UTXO{
		ID:          u.InputID(),
		TxID:        u.TxID,
		OutputIndex: u.OutputIndex,
		Asset:       u.AssetID(),
		Bytes:       b,
		Kind:        pdata.KindTransfer,
	}
	var owners *secp256k1fx.OutputOwners
	switch o := u.Out.(type) {
	case *secp256k1fx.TransferOutput:
		out.OutputType, out.Amount, owners = OutputSECPTransfer, o.Amt, &o.OutputOwners
	case *secp256k1fx.MintOutput:
		out.OutputType, owners = OutputSECPMint, &o.OutputOwners
	case *nftfx.TransferOutput:
		out.OutputType, owners = OutputNFTTransfer, &o.OutputOwners
		out.GroupID, out.Payload = o.GroupID, o.Payload
	case *nftfx.MintOutput:
		out.OutputType, owners = OutputNFTMint, &o.OutputOwners
		out.GroupID = o.GroupID
	case *propertyfx.MintOutput:
		out.OutputType, owners = OutputPropertyMint, &o.OutputOwners
	case *propertyfx.OwnedOutput:
		out.OutputType, owners = OutputPropertyOwned, &o.OutputOwners
	default:
		// The parser registers no other output type, so this is a bug.
		return pdata.UTXO{}, fmt.Errorf("UTXO %s: unknown output type %T", &u.UTXOID, u.Out)
	}
	out.Owners = pdata.Owners{
		Threshold: owners.Threshold,
		Locktime:  owners.Locktime,
		Addrs:     owners.Addrs,
	}
	return out, nil
}
