// Package txsig recovers who signed a primary-network tx's inputs, for the
// P-chain, X-chain and C-chain atomic decoders alike. The index uses the
// signers as an input's spender only when the spent UTXO is not indexed
// (yet): an import indexed before its export, or a UTXO of a chain not
// followed. That is rare, and a public-key recovery is the most expensive
// step of decoding a tx (about 70% of a P- or X-chain catch-up's decoding
// CPU), so the decoders hand out Signers that recover only when asked.
package txsig

import (
	"sync"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/ava-labs/avalanchego/vms/components/verify"
	"github.com/ava-labs/avalanchego/vms/nftfx"
	"github.com/ava-labs/avalanchego/vms/propertyfx"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
)

type signature = [secp256k1.SignatureLen]byte

// Recovery recovers the signers of one tx's credentials. Every credential
// signs the same hash (of the unsigned tx bytes), and a key that signs
// several inputs repeats the same signature, so each distinct signature is
// recovered once.
type Recovery struct {
	unsigned []byte

	mu   sync.Mutex
	hash []byte // of unsigned, once a signature is recovered
	seen map[signature]ids.ShortID
}

// New returns the recovery of a tx whose unsigned bytes are unsigned. It
// keeps unsigned, which the caller must not change.
func New(unsigned []byte) *Recovery {
	return &Recovery{unsigned: unsigned}
}

// Signers returns the signers of cred, recovered when first asked.
// Credentials of other kinds than secp256k1fx, nftfx and propertyfx have
// none.
func (r *Recovery) Signers(cred verify.Verifiable) *Signers {
	var sigs []signature
	switch c := cred.(type) {
	case *secp256k1fx.Credential:
		sigs = c.Sigs
	case *nftfx.Credential:
		sigs = c.Sigs
	case *propertyfx.Credential:
		sigs = c.Sigs
	}
	if len(sigs) == 0 {
		return nil
	}
	return &Signers{rec: r, sigs: sigs}
}

// recover returns the address whose key made sig, or false when sig does
// not recover.
func (r *Recovery) recover(sig *signature) (ids.ShortID, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if addr, ok := r.seen[*sig]; ok {
		return addr, true
	}
	if r.hash == nil {
		r.hash = hashing.ComputeHash256(r.unsigned)
		r.seen = map[signature]ids.ShortID{}
	}
	pk, err := secp256k1.RecoverPublicKeyFromHash(r.hash, sig[:])
	if err != nil {
		return ids.ShortID{}, false
	}
	r.seen[*sig] = pk.Address()
	return pk.Address(), true
}

// Signers are the addresses whose signatures one credential holds. They
// are a hint only: the tx was accepted, so its effects stand whatever its
// credentials hold (the avm let at least one OperationTx through without
// checking them), and a signature that does not recover is skipped. A nil
// *Signers has none. Safe for concurrent use.
type Signers struct {
	rec  *Recovery // nil for Known
	sigs []signature

	once  sync.Once
	addrs []ids.ShortID
}

// Known returns signers that are already known (a test's, or a record's).
func Known(addrs ...ids.ShortID) *Signers {
	return &Signers{addrs: addrs}
}

// Addresses returns the signers in signature order, recovering them on the
// first call.
func (s *Signers) Addresses() []ids.ShortID {
	if s == nil {
		return nil
	}
	if s.rec == nil {
		return s.addrs // Known
	}
	s.once.Do(func() {
		s.addrs = make([]ids.ShortID, 0, len(s.sigs))
		for i := range s.sigs {
			if addr, ok := s.rec.recover(&s.sigs[i]); ok {
				s.addrs = append(s.addrs, addr)
			}
		}
	})
	return s.addrs
}
