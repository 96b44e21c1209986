// Package txsig recovers who signed a primary-network tx's inputs, for the
// P-chain, X-chain and C-chain atomic decoders alike. The index uses the
// signers as an input's spender when the spent UTXO is not indexed (yet):
// an import indexed before its export, or a UTXO of a chain not followed.
package txsig

import (
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/ava-labs/avalanchego/vms/components/verify"
	"github.com/ava-labs/avalanchego/vms/nftfx"
	"github.com/ava-labs/avalanchego/vms/propertyfx"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
)

// Recovery recovers the signers of one tx's credentials. Every credential
// signs the same hash (of the unsigned tx bytes), and a key that signs
// several inputs repeats the same signature, so each distinct signature is
// recovered once.
type Recovery struct {
	hash []byte
	seen map[[secp256k1.SignatureLen]byte]ids.ShortID
}

// New returns the recovery of a tx whose unsigned bytes are unsigned.
func New(unsigned []byte) *Recovery {
	return &Recovery{hash: hashing.ComputeHash256(unsigned), seen: map[[secp256k1.SignatureLen]byte]ids.ShortID{}}
}

// Signers returns the addresses whose signatures cred holds, in signature
// order. A signature that does not recover is skipped, not an error: the tx
// was accepted, so its effects stand whatever its credentials hold (the avm
// let at least one OperationTx through without checking them), and the
// signers are a hint only. Credentials of other kinds have none.
func (r *Recovery) Signers(cred verify.Verifiable) []ids.ShortID {
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
	out := make([]ids.ShortID, 0, len(sigs))
	for _, sig := range sigs {
		addr, ok := r.seen[sig]
		if !ok {
			pk, err := secp256k1.RecoverPublicKeyFromHash(r.hash, sig[:])
			if err != nil {
				continue
			}
			addr = pk.Address()
			r.seen[sig] = addr
		}
		out = append(out, addr)
	}
	return out
}
