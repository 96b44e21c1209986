package aggregator

import (
	"errors"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
)

// This file is the aggregator's interface to the HTTP layer
// (handlers/sigagg): what a request asks, what it gets back, and
// the kinds of failure the handler maps to HTTP statuses.

// Request is one aggregation, as the HTTP layer validated it
// (handlers/sigagg).
type Request struct {
	// Message is the unsigned warp message to have signed.
	Message []byte
	// Justification is handed to every validator with the message (ACP-118);
	// the P-chain needs one for some L1 messages, the C-chain ignores it.
	Justification []byte
	// SigningSubnetID is the subnet whose validators sign, when
	// HasSigningSubnetID; otherwise the source chain's subnet.
	SigningSubnetID    ids.ID
	HasSigningSubnetID bool
	// QuorumPercentage of the signing subnet's weight must sign; the
	// aggregator also tries for QuorumPercentageBuffer more. Their sum is at
	// most 100.
	QuorumPercentage       uint64
	QuorumPercentageBuffer uint64
	// PChainHeight picks the validator set; 0 is the proposed height.
	PChainHeight uint64
}

// Result is a signed warp message that verified against the validator set
// it names.
type Result struct {
	// SignedMessage is the warp.Message bytes: the unsigned message and a
	// BitSetSignature of the signers.
	SignedMessage []byte
	// PChainHeight is the height of the validator set that signed, and
	// SigningSubnetID the subnet.
	PChainHeight    uint64
	SigningSubnetID ids.ID
	// SignedWeight of TotalWeight signed, by Signers validators.
	SignedWeight uint64
	TotalWeight  uint64
	Signers      int
}

// ErrorKind says what kind of failure an Error is; the HTTP layer turns it
// into a status.
type ErrorKind int

const (
	// KindInvalidRequest: the request itself is wrong (400).
	KindInvalidRequest ErrorKind = iota + 1
	// KindNotFound: the source chain or the signing subnet's validator set
	// does not exist (404).
	KindNotFound
	// KindRefused: validators refused to sign so much weight that the quorum
	// cannot be reached; asking again will not help (400).
	KindRefused
	// KindUnavailable: not enough weight answered in time, or the aggregator
	// is not ready; asking again later may help (503).
	KindUnavailable
	// KindBusy: too many aggregations are running (429).
	KindBusy
)

func (k ErrorKind) String() string {
	switch k {
	case KindInvalidRequest:
		return "invalid request"
	case KindNotFound:
		return "not found"
	case KindRefused:
		return "refused"
	case KindUnavailable:
		return "unavailable"
	case KindBusy:
		return "busy"
	default:
		return fmt.Sprintf("ErrorKind(%d)", int(k))
	}
}

// Error is a failure the client should see, with its message.
type Error struct {
	Kind    ErrorKind
	Message string
	// Quorum is set when collecting signatures fell short of the quorum.
	Quorum *QuorumReport
}

func (e *Error) Error() string { return e.Message }

func newError(kind ErrorKind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// KindOf returns err's kind, or 0 when err is not an *Error (an internal
// failure).
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}
