package aggregator

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
)

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

// report describes the outcome for a collection that fell short.
func (c *collection) report() *QuorumReport {
	r := &QuorumReport{SignedWeight: c.signedWeight, RequiredWeight: c.required, TotalWeight: c.vdrs.TotalWeight}
	var keyed uint64
	type groupKey struct {
		appErr  bool
		code    int32
		message string
	}
	groups := map[groupKey]*RefusalGroup{}
	var order []groupKey
	example := func(s *signer) {
		if len(r.Examples) < 5 {
			r.Examples = append(r.Examples, s.vdr.NodeIDs[0])
		}
	}
	for _, s := range c.signers {
		keyed += s.vdr.Weight
		if s.state == stateIdle && s.attempts > 0 {
			c.giveUp(s) // time ran out while it waited for a retry
		}
		state := s.state
		if state == stateAsking && s.refusal != nil {
			// Asked again after refusing; it refused until now.
			state, s.last = stateRefused, replyAppError
		}
		switch state {
		case stateRefused:
			key := groupKey{message: describeFailure(s.last)}
			if s.last == replyAppError && s.refusal != nil {
				key = groupKey{appErr: true, code: s.refusal.Code, message: s.refusal.Message}
			}
			g, ok := groups[key]
			if !ok {
				g = &RefusalGroup{AppError: key.appErr, Code: key.code, Message: key.message}
				groups[key] = g
				order = append(order, key)
			}
			g.add(s.vdr.Weight)
		case stateInvalid:
			r.Invalid.add(s.vdr.Weight)
		case stateUnreachable:
			r.Unreachable.add(s.vdr.Weight)
			example(s)
		case stateTimedOut:
			r.TimedOut.add(s.vdr.Weight)
			example(s)
		case stateIdle: // never asked: not connected, or not needed yet
			if c.net.connected(s.vdr.NodeIDs).Len() == 0 {
				r.Unreachable.add(s.vdr.Weight)
				example(s)
			} else {
				r.Pending += s.vdr.Weight
			}
		case stateAsking:
			r.Pending += s.vdr.Weight
		}
	}
	for _, key := range order {
		r.Refusals = append(r.Refusals, *groups[key])
	}
	// Heaviest group first: the main reason leads the message.
	slices.SortStableFunc(r.Refusals, func(a, b RefusalGroup) int { return cmp.Compare(b.Weight, a.Weight) })
	r.NoKey = c.vdrs.TotalWeight - keyed
	return r
}

// describeFailure names a refusal that is no AppError.
func describeFailure(result string) string {
	switch result {
	case replyEmpty:
		return "answered an empty signature (the message is unknown to it)"
	case replyMalformed:
		return "answered something that is not a SignatureResponse"
	default:
		return result
	}
}
