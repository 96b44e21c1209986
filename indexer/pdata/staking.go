package pdata

import (
	"github.com/ava-labs/avalanchego/ids"
)

// Staker statuses (the Data API's validationStatus and delegationStatus).
const (
	StatusPending   = "pending"
	StatusActive    = "active"
	StatusCompleted = "completed"
	StatusRemoved   = "removed"
)

// IndexedStaker is a validator or delegator as the index knows it: the
// staking tx, and how its staking period ended.
type IndexedStaker struct {
	TxID   ids.ID
	Type   string // the staking tx's type
	Staker Staker
	Height uint64 // the staking tx's block
	Time   int64  // the staking tx's block time

	// RewardTx is the RewardValidatorTx that ended the staking period (zero
	// while it runs); Committed says whether it was committed (rewarded).
	RewardTx   ids.ID
	RewardTime int64
	Committed  bool
	// Rewards paid by RewardTx, by reward type (RewardValidator,
	// RewardDelegator, RewardValidatorFee).
	Rewards map[string]uint64
	// RewardOwners are the owners of the reward UTXOs paid, by reward type.
	RewardOwners map[string][]ids.ShortID

	// RemoveTx removed a permissioned subnet validator before its end.
	RemoveTx   ids.ID
	RemoveTime int64

	// PotentialReward is the reward platformvm computed for the staker when
	// it became current (nil while it is pending, for stakers with no
	// reward, and when the index does not track the supply).
	PotentialReward *uint64

	// Validators: the delegators the index holds for the same node whose
	// staking period lies within this validator's.
	DelegatorCount  int
	AmountDelegated uint64
	// DelegationFees are the fees this validator's delegators paid it
	// (the RewardValidatorFee rewards paid for them).
	DelegationFees uint64

	// Delegators: the fee of the validator they delegate to (parts per
	// million) and that validator's staking tx (zero when not indexed).
	DelegationShares uint32
	ValidatorTx      ids.ID
}

// Status is the staker's status at time now (Unix seconds).
func (s *IndexedStaker) Status(now int64) string {
	switch {
	case s.RemoveTx != ids.Empty:
		return StatusRemoved
	case s.RewardTx != ids.Empty:
		return StatusCompleted
	case s.Type == "AddSubnetValidatorTx" && now >= s.Staker.End:
		// Permissioned subnet validators end without a reward tx.
		return StatusCompleted
	case now < s.Staker.Start:
		return StatusPending
	default:
		return StatusActive
	}
}

// StakerPos is a staker's place in a listing: by start time, then tx ID.
type StakerPos struct {
	Start int64
	TxID  ids.ID
}

// StakerQuery selects stakers.
type StakerQuery struct {
	Delegators bool // delegators, else validators
	// NodeIDs keeps stakers of these nodes (empty: any).
	NodeIDs []ids.NodeID
	// RewardAddrs keeps stakers whose rewards owner holds any of them.
	RewardAddrs []ids.ShortID
	// TxIDs keeps these staking txs (empty: any).
	TxIDs []ids.ID
	// Status keeps stakers with this status at Now ("" for all).
	Status string
	Now    int64
	Desc   bool
	After  *StakerPos
	Limit  int
	// Bare leaves out what the reader derives from other rows (a
	// validator's delegations and fees, a delegator's validator): a listing
	// that filters many stakers reads those for its page only.
	Bare bool
}

// RewardPos is a reward's place in a listing: by the reward tx's time, then
// the reward UTXO's ID.
type RewardPos struct {
	Time   int64
	UTXOID ids.ID
}

// IndexedReward is one reward UTXO with the staker it rewarded.
type IndexedReward struct {
	UTXO   IndexedUTXO
	Staker IndexedStaker
}

// RewardQuery selects rewards paid to any of Addrs or to stakers of any of
// NodeIDs.
type RewardQuery struct {
	Addrs   []ids.ShortID
	NodeIDs []ids.NodeID
	Desc    bool
	After   *RewardPos
	Limit   int
}
