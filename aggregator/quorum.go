package aggregator

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"

	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
)

// quorumDenominator: quorums are percentages.
const quorumDenominator = 100

// weightFor is the least weight that is at least percent% of total, the
// same rounding as warp.VerifyWeight (which checks
// weight*100 >= total*percent): the ceiling, in big integers so no weight
// overflows. At least 1: an aggregate needs a signer.
func weightFor(total, percent uint64) uint64 {
	n := new(big.Int).Mul(new(big.Int).SetUint64(total), new(big.Int).SetUint64(percent))
	n.Add(n, big.NewInt(quorumDenominator-1))
	n.Div(n, big.NewInt(quorumDenominator))
	if n.Sign() == 0 {
		return 1
	}
	return n.Uint64() // <= total
}

// percentOf renders weight as a percentage of total, for messages.
func percentOf(weight, total uint64) string {
	if total == 0 {
		return "0%"
	}
	f, _ := new(big.Rat).SetFrac(new(big.Int).SetUint64(weight), new(big.Int).SetUint64(total)).Float64()
	return fmt.Sprintf("%.4g%%", f*100)
}

// buildSignedMessage aggregates the signatures of the heaviest signers
// until their weight reaches target (all of them when they fall short):
// fewer signers make a smaller message that is cheaper to verify, and the
// heaviest keep the most margin. sigs maps canonical indices of vdrs to
// verified signatures.
func buildSignedMessage(
	unsigned *warp.UnsignedMessage,
	vdrs validators.WarpSet,
	sigs map[int]*bls.Signature,
	target uint64,
) (*warp.Message, uint64, int, error) {
	indices := make([]int, 0, len(sigs))
	for i := range sigs {
		indices = append(indices, i)
	}
	slices.SortFunc(indices, func(a, b int) int {
		if c := cmp.Compare(vdrs.Validators[b].Weight, vdrs.Validators[a].Weight); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var (
		weight uint64
		bits   = set.NewBits()
		chosen = make([]*bls.Signature, 0, len(indices))
	)
	for _, i := range indices {
		if weight >= target {
			break
		}
		weight += vdrs.Validators[i].Weight
		bits.Add(i)
		chosen = append(chosen, sigs[i])
	}
	if len(chosen) == 0 {
		return nil, 0, 0, fmt.Errorf("no signature to aggregate")
	}
	agg, err := bls.AggregateSignatures(chosen)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("aggregating %d signatures: %w", len(chosen), err)
	}
	sig := &warp.BitSetSignature{Signers: bits.Bytes()}
	copy(sig.Signature[:], bls.SignatureToBytes(agg))
	msg, err := warp.NewMessage(unsigned, sig)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("building the signed message: %w", err)
	}
	return msg, weight, len(chosen), nil
}
