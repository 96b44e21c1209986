package xchain

import (
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/ava-labs/avalanchego/vms/components/verify"
	"github.com/ava-labs/avalanchego/vms/nftfx"
	"github.com/ava-labs/avalanchego/vms/propertyfx"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
)

// Signers recovers the addresses that signed a credential; hash is the
// hash of the unsigned tx bytes (UnsignedHash). The index uses
// them as an input's spender when the spent UTXO is not indexed (yet): an
// import indexed before its export, or a UTXO of a chain not indexed.
//
// A signature that does not recover is skipped, not an error: the tx was
// accepted, so its effects stand whatever its credentials hold (the avm
// let at least one OperationTx through without checking them), and the
// signers are a hint only.
func Signers(hash []byte, cred verify.Verifiable) []ids.ShortID {
	var sigs [][secp256k1.SignatureLen]byte
	switch c := cred.(type) {
	case *secp256k1fx.Credential:
		sigs = c.Sigs
	case *nftfx.Credential:
		sigs = c.Sigs
	case *propertyfx.Credential:
		sigs = c.Sigs
	default:
		return nil
	}
	var out []ids.ShortID
	for i := range sigs {
		pk, err := secp256k1.RecoverPublicKeyFromHash(hash, sigs[i][:])
		if err != nil {
			continue
		}
		out = append(out, pk.Address())
	}
	return out
}

// UnsignedHash is what a credential's signatures sign: the hash of the
// unsigned tx bytes.
func UnsignedHash(unsigned []byte) []byte { return hashing.ComputeHash256(unsigned) }
