package dataapi

import ()

// The staking operations' replies as the tests read them (the OpenAPI shapes:
// Completed/Active/PendingValidatorDetails, Completed/Active/
// PendingDelegatorDetails, HistoricalReward), loosely enough that one
// struct takes every status variant.

// Rewards are a validator's rewards (completed) or potential rewards
// (active).
type Rewards struct {
	ValidationRewardAmount string   `json:"validationRewardAmount"`
	DelegationRewardAmount string   `json:"delegationRewardAmount"`
	RewardAddresses        []string `json:"rewardAddresses"`
	RewardTxHash           string   `json:"rewardTxHash"`
}

// Validator is one validator of getSingleValidatorDetails, any status.
type Validator struct {
	TxHash         string `json:"txHash"`
	NodeID         string `json:"nodeId"`
	SubnetID       string `json:"subnetId"`
	AmountStaked   string `json:"amountStaked"`
	DelegationFee  string `json:"delegationFee"`
	StartTimestamp int64  `json:"startTimestamp"`
	EndTimestamp   int64  `json:"endTimestamp"`
	BLSCredentials *struct {
		PublicKey         string `json:"publicKey"`
		ProofOfPossession string `json:"proofOfPossession"`
	} `json:"blsCredentials"`
	DelegatorCount   *int     `json:"delegatorCount"`
	AmountDelegated  string   `json:"amountDelegated"`
	Rewards          *Rewards `json:"rewards"`          // completed
	PotentialRewards *Rewards `json:"potentialRewards"` // active
	ValidationStatus string   `json:"validationStatus"`
}

// Delegator is one delegator of listDelegators, any status.
type Delegator struct {
	TxHash               string   `json:"txHash"`
	NodeID               string   `json:"nodeId"`
	RewardAddresses      []string `json:"rewardAddresses"`
	AmountDelegated      string   `json:"amountDelegated"`
	DelegationFee        string   `json:"delegationFee"`
	StartTimestamp       int64    `json:"startTimestamp"`
	EndTimestamp         int64    `json:"endTimestamp"`
	GrossReward          string   `json:"grossReward"`          // completed
	NetReward            string   `json:"netReward"`            // completed
	EstimatedGrossReward string   `json:"estimatedGrossReward"` // active, pending
	EstimatedNetReward   string   `json:"estimatedNetReward"`   // active, pending
	DelegationStatus     string   `json:"delegationStatus"`
}

// HistoricalReward is one reward of listHistoricalPrimaryNetworkRewards.
type HistoricalReward struct {
	Addresses      []string    `json:"addresses"`
	TxHash         string      `json:"txHash"`
	AmountStaked   string      `json:"amountStaked"`
	NodeID         string      `json:"nodeId"`
	StartTimestamp int64       `json:"startTimestamp"`
	EndTimestamp   int64       `json:"endTimestamp"`
	RewardType     string      `json:"rewardType"`
	UTXOID         string      `json:"utxoId"`
	OutputIndex    *uint32     `json:"outputIndex"`
	Reward         AssetAmount `json:"reward"`
	RewardTxHash   string      `json:"rewardTxHash"`
}

// DelegatorPage is a page of listDelegators.
type DelegatorPage struct {
	Delegators    []Delegator `json:"delegators"`
	NextPageToken string      `json:"nextPageToken"`
}
