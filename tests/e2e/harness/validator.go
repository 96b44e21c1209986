package harness

import (
	"crypto/rand"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/vms/platformvm/signer"
	"github.com/stretchr/testify/require"
)

// BLSValidator is a fresh validator identity: a random node ID and a BLS
// key, with its proof of possession, that the test holds.
type BLSValidator struct {
	NodeID ids.NodeID
	Signer *localsigner.LocalSigner
	PoP    *signer.ProofOfPossession
}

// NewBLSValidator makes a fresh validator identity.
func NewBLSValidator(t testing.TB) *BLSValidator {
	t.Helper()
	var raw [ids.NodeIDLen]byte
	_, err := rand.Read(raw[:])
	require.NoError(t, err)
	sk, err := localsigner.New()
	require.NoError(t, err)
	pop, err := signer.NewProofOfPossession(sk)
	require.NoError(t, err)
	return &BLSValidator{NodeID: ids.NodeID(raw), Signer: sk, PoP: pop}
}
