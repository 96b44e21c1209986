package webhookdata

// PrimaryRewardEvent is the reward_distribution event of a
// primary_network_address_activity webhook: a watched address received a
// staking reward UTXO (a RewardValidatorTx on the P-chain). Its first
// members are those of the webhook kind's other events.
type PrimaryRewardEvent struct {
	PrimaryEventHead
	// RewardType is VALIDATOR, DELEGATOR or VALIDATOR_FEE.
	RewardType string `json:"rewardType"`
	Amount     string `json:"amount"`
	AssetID    string `json:"assetId"`
	UTXOID     string `json:"utxoId"`
	// NodeID is the rewarded staker's node (a delegator's: its validator's).
	NodeID        string `json:"nodeId"`
	StakingTxHash string `json:"stakingTxHash"`
}
