package aggregator

import (
	"context"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/proto/pb/platformvm"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
)

// The warp messages the P-chain signs about one L1 validator
// (RegisterL1ValidatorTx, SetL1ValidatorWeightTx). Unlike a conversion, what
// it signs depends on the validator's current state, which the P-chain's
// signature handler checks (vms/platformvm/network/warp.go,
// signatureRequestVerifier): it signs L1ValidatorRegistration(true) only
// while the validator exists, L1ValidatorWeight only for the validator's
// latest nonce and weight, and L1ValidatorRegistration(false) only for a
// validator that is gone, given a justification proving where its validation
// ID came from. So each GET reads the current state (never cached).

// maxConversionIndex bounds the search for a validation ID among a
// conversion's validators (subnetID.Append(i)): far more validators than
// fit in one ConvertSubnetToL1Tx, and a few milliseconds of hashing.
const maxConversionIndex = 1 << 16

// l1ValidatorState is what the GET needs of a current L1 validator
// (platform.getL1Validator).
type l1ValidatorState struct {
	SubnetID ids.ID
	Weight   uint64
	MinNonce uint64
}

// pchainState is the P-chain state a GET reads besides the transaction.
type pchainState interface {
	txSource
	// l1Validator returns the validator's current state; found is false
	// when the P-chain has no such validator (removed, or never
	// registered).
	l1Validator(ctx context.Context, validationID ids.ID) (v l1ValidatorState, found bool, err error)
	// subnetOf returns the subnet a chain belongs to.
	subnetOf(ctx context.Context, chainID ids.ID) (ids.ID, error)
	// validationCreator returns the committed tx that created the L1
	// validation validationID (a RegisterL1ValidatorTx, or the
	// ConvertSubnetToL1Tx it was a validator of), or a KindNotFound *Error
	// saying why it cannot be found (validationindex.go).
	validationCreator(ctx context.Context, validationID ids.ID) (*txs.Tx, error)
}

// registrationRequest is the request for a committed RegisterL1ValidatorTx:
// L1ValidatorRegistration(true) while the validator exists (the handler
// needs no justification), L1ValidatorRegistration(false) once it was
// removed, justified by the RegisterL1Validator message the tx carried
// (the handler checks the validation ID is its hash, and that it can never
// be registered again). The L1 named in the message signs: its contracts
// verify P-chain messages against its own validators.
func registrationRequest(ctx context.Context, networkID uint32, st pchainState, tx *txs.Tx, u *txs.RegisterL1ValidatorTx) (Request, error) {
	_, register, err := l1MessageOf(u.Message, message.ParseRegisterL1Validator)
	if err != nil {
		return Request{}, fmt.Errorf("reading the RegisterL1Validator message of %s: %w", tx.ID(), err)
	}
	validationID := register.ValidationID()
	_, found, err := st.l1Validator(ctx, validationID)
	if err != nil {
		return Request{}, fmt.Errorf("reading L1 validator %s of %s: %w", validationID, tx.ID(), err)
	}
	var justification []byte
	if !found {
		justification, err = registerJustification(register)
		if err != nil {
			return Request{}, fmt.Errorf("encoding the justification of %s: %w", tx.ID(), err)
		}
	}
	msg, err := registrationMessage(networkID, validationID, found)
	if err != nil {
		return Request{}, fmt.Errorf("building the registration message of %s: %w", tx.ID(), err)
	}
	return l1Request(msg, justification, register.SubnetID), nil
}

// weightRequest is the request for a committed SetL1ValidatorWeightTx. A
// weight above 0 is acknowledged by L1ValidatorWeight(validation ID,
// nonce, weight) only while that nonce is the validator's latest: a later
// weight change or the validator's removal supersedes it, and the
// P-chain then refuses it (a 400 naming the current state, not an
// aggregation bound to fail). A weight of 0 removed the validator: the
// P-chain signs L1ValidatorRegistration(false), justified by where the
// validation came from (removalJustification).
//
// Once a validator is removed, the P-chain signs nothing about its weight
// any more, only L1ValidatorRegistration(false); that is the removal's
// message, which a validator manager waits for (completeValidatorRemoval),
// not the answer to a weight change it no longer waits for: the GET of a
// weight change to a removed validator is a 400 pointing at the removal.
func weightRequest(ctx context.Context, networkID uint32, st pchainState, tx *txs.Tx, u *txs.SetL1ValidatorWeightTx) (Request, error) {
	sourceChainID, weight, err := l1MessageOf(u.Message, message.ParseL1ValidatorWeight)
	if err != nil {
		return Request{}, fmt.Errorf("reading the L1ValidatorWeight message of %s: %w", tx.ID(), err)
	}
	current, found, err := st.l1Validator(ctx, weight.ValidationID)
	if err != nil {
		return Request{}, fmt.Errorf("reading L1 validator %s of %s: %w", weight.ValidationID, tx.ID(), err)
	}
	if weight.Weight > 0 {
		if !found {
			return Request{}, newError(KindInvalidRequest,
				"transaction %s set L1 validator %s's weight to %d (nonce %d), but that validator has since been removed: the P-chain no longer signs any weight for it, only L1ValidatorRegistration(false), which the GET of the SetL1ValidatorWeightTx that removed it (weight 0) returns",
				tx.ID(), weight.ValidationID, weight.Weight, weight.Nonce)
		}
		if current.MinNonce > weight.Nonce+1 {
			return Request{}, newError(KindInvalidRequest,
				"transaction %s set L1 validator %s's weight to %d with nonce %d, superseded by a later weight change (the P-chain now has weight %d, minNonce %d): the P-chain signs only the latest weight; GET the SetL1ValidatorWeightTx with nonce %d",
				tx.ID(), weight.ValidationID, weight.Weight, weight.Nonce, current.Weight, current.MinNonce, current.MinNonce-1)
		}
		if current.MinNonce != weight.Nonce+1 || current.Weight != weight.Weight {
			// The tx set both; only a state read before it was applied
			// could differ.
			return Request{}, newError(KindUnavailable,
				"transaction %s set L1 validator %s's weight to %d with nonce %d, which this node's P-chain state (weight %d, minNonce %d) does not show yet; try again shortly",
				tx.ID(), weight.ValidationID, weight.Weight, weight.Nonce, current.Weight, current.MinNonce)
		}
		msg, err := weightMessage(networkID, weight)
		if err != nil {
			return Request{}, fmt.Errorf("building the weight message of %s: %w", tx.ID(), err)
		}
		return l1Request(msg, nil, current.SubnetID), nil
	}

	// Removed.
	if found {
		// A removed validation ID never comes back; only a P-chain state
		// this node has not caught up with could show it.
		return Request{}, newError(KindUnavailable,
			"transaction %s removed L1 validator %s, which this node's P-chain still lists; try again shortly", tx.ID(), weight.ValidationID)
	}
	subnetID, justification, err := removalJustification(ctx, st, sourceChainID, weight.ValidationID)
	if KindOf(err) == KindNotFound {
		return Request{}, newError(KindNotFound,
			"transaction %s removed L1 validator %s: the P-chain signs its L1ValidatorRegistration(false) only with the transaction that created the validation as justification, and %v. If that transaction was accepted only just now, try again shortly; otherwise POST the L1ValidatorRegistration(false) message with its justification (the RegisterL1Validator message, or the conversion's SubnetIDIndex) and the L1 as signingSubnetId",
			tx.ID(), weight.ValidationID, err)
	}
	if err != nil {
		return Request{}, fmt.Errorf("justifying the removal of L1 validator %s by %s: %w", weight.ValidationID, tx.ID(), err)
	}
	msg, err := registrationMessage(networkID, weight.ValidationID, false)
	if err != nil {
		return Request{}, fmt.Errorf("building the registration message of %s: %w", tx.ID(), err)
	}
	return l1Request(msg, justification, subnetID), nil
}

// removalJustification proves to the P-chain where a removed validator's
// validation ID came from, and names its L1 (the subnet that signs).
//
// A validator of the conversion of the manager chain's subnet (the usual
// case: the manager runs on the L1) is justified by that subnet and its
// index, found without the index. Otherwise the plugin's P-chain index
// gives the tx that created the validation: a RegisterL1ValidatorTx,
// whose RegisterL1Validator message is the justification, or a
// conversion of an L1 managed from outside it (the C-chain, say), whose
// subnet and index are. A KindNotFound error says why the index has none.
func removalJustification(ctx context.Context, st pchainState, managerChainID, validationID ids.ID) (ids.ID, []byte, error) {
	// The P-chain accepted the manager's message, so it knows the manager
	// chain; were it not so, the index still knows the validation.
	managerSubnet, err := st.subnetOf(ctx, managerChainID)
	switch {
	case err == nil:
		if index, ok := conversionIndex(managerSubnet, validationID); ok {
			justification, err := conversionJustification(managerSubnet, index)
			return managerSubnet, justification, err
		}
	case KindOf(err) != KindNotFound:
		return ids.Empty, nil, fmt.Errorf("finding the subnet of the manager chain %s: %w", managerChainID, err)
	}
	creator, err := st.validationCreator(ctx, validationID)
	if err != nil {
		return ids.Empty, nil, err
	}
	switch u := creator.Unsigned.(type) {
	case *txs.RegisterL1ValidatorTx:
		_, register, err := l1MessageOf(u.Message, message.ParseRegisterL1Validator)
		if err != nil {
			return ids.Empty, nil, fmt.Errorf("reading the RegisterL1Validator message of %s: %w", creator.ID(), err)
		}
		if register.ValidationID() != validationID {
			return ids.Empty, nil, fmt.Errorf("the P-chain index gave %s, which registered validation %s, not %s",
				creator.ID(), register.ValidationID(), validationID)
		}
		justification, err := registerJustification(register)
		return register.SubnetID, justification, err
	case *txs.ConvertSubnetToL1Tx:
		for i := range u.Validators {
			if u.Subnet.Append(uint32(i)) == validationID {
				justification, err := conversionJustification(u.Subnet, uint32(i))
				return u.Subnet, justification, err
			}
		}
		return ids.Empty, nil, fmt.Errorf("the P-chain index gave %s, a conversion of subnet %s none of whose %d validators is %s",
			creator.ID(), u.Subnet, len(u.Validators), validationID)
	default:
		return ids.Empty, nil, fmt.Errorf("the P-chain index gave %s, a %s, as the creator of L1 validation %s",
			creator.ID(), txTypeName(creator.Unsigned), validationID)
	}
}

// registerJustification proves a validation ID is the hash of the
// RegisterL1Validator message that registered it.
func registerJustification(register *message.RegisterL1Validator) ([]byte, error) {
	return proto.Marshal(&platformvm.L1ValidatorRegistrationJustification{
		Preimage: &platformvm.L1ValidatorRegistrationJustification_RegisterL1ValidatorMessage{
			RegisterL1ValidatorMessage: register.Bytes(),
		},
	})
}

// conversionJustification proves a validation ID is the index-th validator
// of subnetID's conversion.
func conversionJustification(subnetID ids.ID, index uint32) ([]byte, error) {
	return proto.Marshal(&platformvm.L1ValidatorRegistrationJustification{
		Preimage: &platformvm.L1ValidatorRegistrationJustification_ConvertSubnetToL1TxData{
			ConvertSubnetToL1TxData: &platformvm.SubnetIDIndex{SubnetId: subnetID[:], Index: index},
		},
	})
}

// conversionIndex finds i with validationID == subnetID.Append(i): the
// validation IDs the P-chain gave a conversion's validators.
func conversionIndex(subnetID, validationID ids.ID) (uint32, bool) {
	for i := uint32(0); i < maxConversionIndex; i++ {
		if subnetID.Append(i) == validationID {
			return i, true
		}
	}
	return 0, false
}

// l1MessageOf reads the L1 validator message an L1 tx's warp message
// carries (parse reads it from the addressed call's payload), as the
// P-chain's executor does, and the chain that sent it.
func l1MessageOf[M any](b []byte, parse func([]byte) (M, error)) (ids.ID, M, error) {
	var none M
	signed, err := warp.ParseMessage(b)
	if err != nil {
		return ids.Empty, none, err
	}
	call, err := payload.ParseAddressedCall(signed.Payload)
	if err != nil {
		return ids.Empty, none, err
	}
	m, err := parse(call.Payload)
	if err != nil {
		return ids.Empty, none, err
	}
	return signed.SourceChainID, m, nil
}

func registrationMessage(networkID uint32, validationID ids.ID, registered bool) (*warp.UnsignedMessage, error) {
	registration, err := message.NewL1ValidatorRegistration(validationID, registered)
	if err != nil {
		return nil, err
	}
	return pchainMessage(networkID, registration.Bytes())
}

// weightMessage is the P-chain's acknowledgement of a weight change: the
// same fields, sent from the P-chain.
func weightMessage(networkID uint32, weight *message.L1ValidatorWeight) (*warp.UnsignedMessage, error) {
	ack, err := message.NewL1ValidatorWeight(weight.ValidationID, weight.Nonce, weight.Weight)
	if err != nil {
		return nil, err
	}
	return pchainMessage(networkID, ack.Bytes())
}

// pchainMessage wraps an ACP-77 payload as the P-chain sends it: an
// AddressedCall with an empty source address, from the P-chain.
func pchainMessage(networkID uint32, payloadBytes []byte) (*warp.UnsignedMessage, error) {
	call, err := payload.NewAddressedCall(nil, payloadBytes)
	if err != nil {
		return nil, err
	}
	return warp.NewUnsignedMessage(networkID, constants.PlatformChainID, call.Bytes())
}

// l1Request aggregates a P-chain message from the L1's validators.
func l1Request(msg *warp.UnsignedMessage, justification []byte, l1 ids.ID) Request {
	return Request{
		Message: msg.Bytes(), Justification: justification,
		SigningSubnetID: l1, HasSigningSubnetID: true,
		QuorumPercentage: txQuorumPercentage,
	}
}
