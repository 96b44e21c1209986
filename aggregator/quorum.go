package aggregator

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
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

// QuorumReport says why a collection fell short of its quorum: how much
// weight signed, and what the rest did, refusals (grouped by the
// validators' AppError) apart from connectivity failures.
type QuorumReport struct {
	SignedWeight, RequiredWeight, TotalWeight uint64
	// Refusals groups the validators that answered with an AppError.
	Refusals []RefusalGroup
	// InvalidSignatures: validators that answered with a signature that did
	// not verify against their key (or an empty or malformed answer).
	Invalid WeightCount
	// Unreachable: validators none of whose nodes the aggregator was
	// connected to; TimedOut: connected, but no answer in time.
	Unreachable, TimedOut WeightCount
	// NoKey is the weight of validators without a BLS key, which can never
	// sign; Pending the weight still being asked when collecting stopped.
	NoKey, Pending uint64
	// Examples names a few unreachable or silent nodes.
	Examples []ids.NodeID
}

// RefusalGroup is the validators that refused with one AppError (Code
// and Message are the validators'), or, without AppError, failed alike
// (Message describes how: an empty signature, a malformed answer).
type RefusalGroup struct {
	AppError bool
	Code     int32
	Message  string
	WeightCount
}

// WeightCount is some validators and their weight.
type WeightCount struct {
	Weight uint64
	Count  int
}

func (w *WeightCount) add(weight uint64) { w.Weight += weight; w.Count++ }

// refusedWeight is the weight that said no, or answered wrongly.
func (r *QuorumReport) refusedWeight() uint64 {
	w := r.Invalid.Weight
	for _, g := range r.Refusals {
		w += g.Weight
	}
	return w
}

// kind is KindRefused when refusals alone make the quorum unreachable
// (asking again cannot help), else KindUnavailable.
func (r *QuorumReport) kind() ErrorKind {
	if r.TotalWeight-r.NoKey-r.refusedWeight() < r.RequiredWeight {
		return KindRefused
	}
	return KindUnavailable
}

func (r *QuorumReport) String() string {
	var b strings.Builder
	pct := func(w uint64) string { return percentOf(w, r.TotalWeight) }
	fmt.Fprintf(&b, "quorum not reached: validators holding %s of the signing subnet's weight signed (%d of %d), the quorum needs %s (%d)",
		pct(r.SignedWeight), r.SignedWeight, r.TotalWeight, pct(r.RequiredWeight), r.RequiredWeight)
	var parts []string
	for _, g := range r.Refusals {
		if g.AppError {
			parts = append(parts, fmt.Sprintf("%d validator(s) holding %s refused with AppError code %d %q",
				g.Count, pct(g.Weight), g.Code, g.Message))
		} else {
			parts = append(parts, fmt.Sprintf("%d validator(s) holding %s %s", g.Count, pct(g.Weight), g.Message))
		}
	}
	if r.Invalid.Count > 0 {
		parts = append(parts, fmt.Sprintf("%d validator(s) holding %s answered with an invalid signature",
			r.Invalid.Count, pct(r.Invalid.Weight)))
	}
	if r.Unreachable.Count > 0 {
		parts = append(parts, fmt.Sprintf("%d validator(s) holding %s could not be reached (not connected)",
			r.Unreachable.Count, pct(r.Unreachable.Weight)))
	}
	if r.TimedOut.Count > 0 {
		parts = append(parts, fmt.Sprintf("%d validator(s) holding %s did not answer in time",
			r.TimedOut.Count, pct(r.TimedOut.Weight)))
	}
	if r.Pending > 0 {
		parts = append(parts, fmt.Sprintf("validators holding %s had not answered yet", pct(r.Pending)))
	}
	if r.NoKey > 0 {
		parts = append(parts, fmt.Sprintf("validators holding %s have no BLS key and cannot sign", pct(r.NoKey)))
	}
	if len(parts) > 0 {
		b.WriteString(": ")
		b.WriteString(strings.Join(parts, "; "))
	}
	if len(r.Examples) > 0 {
		names := make([]string, len(r.Examples))
		for i, id := range r.Examples {
			names[i] = id.String()
		}
		fmt.Fprintf(&b, " (unreachable or silent: %s)", strings.Join(names, ", "))
	}
	return b.String()
}
