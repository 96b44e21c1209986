package pdata

import "github.com/ava-labs/avalanchego/ids"

// L1ValidationQuery selects L1 validations (listL1Validators): all of them,
// or those of IDs, narrowed by Subnet and NodeID when set.
type L1ValidationQuery struct {
	IDs    []ids.ID
	Subnet *ids.ID
	NodeID *ids.NodeID
	// WithTx adds what the creating tx says (Creation, CreationTime).
	WithTx bool
}

// L1Validations is the index's view of L1 validations at the P-chain
// height it has reached.
type L1Validations struct {
	// Height is the last P-chain block the index holds.
	Height uint64
	// FeesKnown says whether the index knows the L1 validator fee state
	// after Height; without it Active and Balance are not known.
	FeesKnown   bool
	Validations []IndexedL1Validation
}

// IndexedL1Validation is one L1 validation as the index knows it.
type IndexedL1Validation struct {
	ValidationID ids.ID
	NodeID       ids.NodeID
	Subnet       ids.ID
	// CreatingTx is the ConvertSubnetToL1Tx or RegisterL1ValidatorTx that
	// added it.
	CreatingTx ids.ID
	// Weight is its weight now (0: removed); WeightKnown is false for an
	// index written before it kept weights.
	Weight      uint64
	WeightKnown bool
	// Active says whether it has a balance left (with FeesKnown), Balance
	// what is left.
	Active  bool
	Balance uint64
	// CreationTime is the creating tx's block time, Creation the validator
	// as the creating tx names it (WithTx only).
	CreationTime int64
	Creation     *L1Validator
}
