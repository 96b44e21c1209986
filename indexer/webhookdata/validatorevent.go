package webhookdata

// The event of a validator_activity delivery (the hosted service documents
// none): the block it happened in, the validator it is about, and the
// sub-event's own members. Amounts and weights are decimal strings (nAVAX
// for amounts), so every JSON number is an integer below 2^53.

// ValidatorEventBase is what every validator_activity event carries.
type ValidatorEventBase struct {
	SubEvent string `json:"subEvent"`
	// ChainID is the P-chain's blockchain ID.
	ChainID     string `json:"chainId"`
	BlockHeight uint64 `json:"blockHeight"`
	BlockHash   string `json:"blockHash"`
	// BlockTimestamp is the block's time, Unix seconds.
	BlockTimestamp int64 `json:"blockTimestamp"`
	// TxHash and TxType name the tx the event comes from; an L1 validator
	// the P-chain deactivates for lack of balance, or whose balance falls
	// below a threshold as time passes, has none.
	TxHash   string `json:"txHash,omitempty"`
	TxType   string `json:"txType,omitempty"`
	NodeID   string `json:"nodeId"`
	SubnetID string `json:"subnetId"`
}

// StakeEvent is validator_stake and delegator_stake: a staking tx added a
// validator (primary network or subnet) or a delegator (NodeID is its
// validator's node).
type StakeEvent struct {
	ValidatorEventBase
	StakingTxHash  string `json:"stakingTxHash"`
	StartTimestamp int64  `json:"startTimestamp"`
	EndTimestamp   int64  `json:"endTimestamp"`
	// AmountStaked is the staker's weight: the nAVAX it stakes on the
	// primary network, a permissioned subnet validator's weight.
	AmountStaked string `json:"amountStaked"`
	// DelegationFee is a validator's fee for its delegators, in percent
	// (the Data API's delegationFee); delegators have none.
	DelegationFee   string   `json:"delegationFee,omitempty"`
	RewardAddresses []string `json:"rewardAddresses"`
}

// RewardEvent is reward_distribution: a RewardValidatorTx ended the
// staking period of StakingTxHash and paid Amount of RewardType.
type RewardEvent struct {
	ValidatorEventBase
	StakingTxHash string `json:"stakingTxHash"`
	// RewardType is VALIDATOR, DELEGATOR or VALIDATOR_FEE.
	RewardType      string   `json:"rewardType"`
	Amount          string   `json:"amount"`
	RewardAddresses []string `json:"rewardAddresses"`
	// Committed is the RewardValidatorTx's outcome: false when the staker
	// earned no reward (its reward is then "0"; a validator's accrued
	// delegation fees are paid all the same).
	Committed bool `json:"committed"`
}

// L1ValidatorEvent is l1_validator_balance_increased,
// l1_validator_disabled, l1_validator_removed and
// l1_validator_balance_threshold.
type L1ValidatorEvent struct {
	ValidatorEventBase
	ValidationID string `json:"validationId"`
	// Balance is the validator's balance (nAVAX) after the event; for
	// disabled and removed, what it had when it went inactive.
	Balance string `json:"balance"`
	// Amount is what an IncreaseL1ValidatorBalanceTx added.
	Amount string `json:"amount,omitempty"`
	Weight string `json:"weight"`
}
