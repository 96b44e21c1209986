package primary

// Response shapes of the staking operations
// (listHistoricalPrimaryNetworkRewards, getSingleValidatorDetails,
// listDelegators; listActivePrimaryNetworkStakingTransactions answers with
// listPrimaryTxsResponse), after the hosted API's OpenAPI schemas of the same
// names. Validators and delegators are unions discriminated by their status,
// each variant with its own required fields (what the SDK checks of a reply):
// the spec's single Validator and Delegator shapes are the completed variants
// only. As elsewhere, required fields are plain values and optional ones are
// omitted, never null; the one exception is ActiveValidatorDetails.geolocation,
// whose key is required and whose value may be null.

// historicalReward is the OpenAPI's HistoricalReward: every field required.
// reward is an AssetWithPriceInfo, an AssetAmount with an optional
// historicalPrice that avadata never sets (it has no price history), so the
// plain AssetAmount shape is the whole of it.
type historicalReward struct {
	Addresses      []string    `json:"addresses"`
	TxHash         string      `json:"txHash"`
	AmountStaked   string      `json:"amountStaked"`
	NodeID         string      `json:"nodeId"`
	StartTimestamp int64       `json:"startTimestamp"`
	EndTimestamp   int64       `json:"endTimestamp"`
	RewardType     string      `json:"rewardType"`
	UTXOID         string      `json:"utxoId"`
	OutputIndex    uint32      `json:"outputIndex"`
	Reward         assetAmount `json:"reward"`
	RewardTxHash   string      `json:"rewardTxHash"`
}

// listRewardsResponse is the OpenAPI's ListHistoricalRewardsResponse.
type listRewardsResponse struct {
	HistoricalRewards []historicalReward `json:"historicalRewards"`
	NextPageToken     string             `json:"nextPageToken,omitempty"`
}

// validatorBase is what every *ValidatorDetails variant has.
type validatorBase struct {
	TxHash           string          `json:"txHash"`
	NodeID           string          `json:"nodeId"`
	SubnetID         string          `json:"subnetId"`
	AmountStaked     string          `json:"amountStaked"`
	DelegationFee    string          `json:"delegationFee,omitempty"`
	StartTimestamp   int64           `json:"startTimestamp"`
	EndTimestamp     int64           `json:"endTimestamp"`
	BLSCredentials   *blsCredentials `json:"blsCredentials,omitempty"`
	ValidationStatus string          `json:"validationStatus"`
}

// stakingRewards is the OpenAPI's Rewards: a completed validation's rewards,
// or an active one's potential rewards.
type stakingRewards struct {
	ValidationRewardAmount string   `json:"validationRewardAmount"`
	DelegationRewardAmount string   `json:"delegationRewardAmount"`
	RewardAddresses        []string `json:"rewardAddresses,omitempty"`
	RewardTxHash           string   `json:"rewardTxHash,omitempty"`
}

// completedValidator is the OpenAPI's CompletedValidatorDetails.
type completedValidator struct {
	validatorBase
	DelegatorCount  int            `json:"delegatorCount"`
	AmountDelegated string         `json:"amountDelegated,omitempty"`
	Rewards         stakingRewards `json:"rewards"`
}

// validatorHealth is the OpenAPI's ValidatorHealthDetails.
type validatorHealth struct {
	ReachabilityPercent          float64 `json:"reachabilityPercent"`
	BenchedPChainRequestsPercent float64 `json:"benchedPChainRequestsPercent"`
	BenchedXChainRequestsPercent float64 `json:"benchedXChainRequestsPercent"`
	BenchedCChainRequestsPercent float64 `json:"benchedCChainRequestsPercent"`
}

// geolocation is the OpenAPI's Geolocation. avadata has no geolocation
// source, so it only exists to type the always-null member.
type geolocation struct {
	City        string  `json:"city"`
	Country     string  `json:"country"`
	CountryCode string  `json:"countryCode"`
	Latitude    float64 `json:"latitude"`
	Longitude   float64 `json:"longitude"`
}

// activeValidator is the OpenAPI's ActiveValidatorDetails.
type activeValidator struct {
	validatorBase
	// StakePercentage and UptimePerformance are omitted where the node has
	// no figure (a subnet's validation, or the node unreadable): the SDK
	// requires them of an active validator, but a value the node cannot
	// know is never invented.
	StakePercentage    *float64        `json:"stakePercentage,omitempty"`
	DelegatorCount     uint64          `json:"delegatorCount"`
	AmountDelegated    string          `json:"amountDelegated,omitempty"`
	UptimePerformance  *float64        `json:"uptimePerformance,omitempty"`
	AvalancheGoVersion string          `json:"avalancheGoVersion,omitempty"`
	DelegationCapacity string          `json:"delegationCapacity,omitempty"`
	PotentialRewards   stakingRewards  `json:"potentialRewards"`
	ValidatorHealth    validatorHealth `json:"validatorHealth"`
	// Geolocation is required and nullable: no omitempty.
	Geolocation *geolocation `json:"geolocation"`
}

// removedValidator is the OpenAPI's RemovedValidatorDetails.
type removedValidator struct {
	validatorBase
	RemoveTxHash    string `json:"removeTxHash"`
	RemoveTimestamp int64  `json:"removeTimestamp"`
}

// listValidatorsResponse is the OpenAPI's ListValidatorDetailsResponse:
// Validators holds the variants above (pending ones are a bare
// validatorBase).
type listValidatorsResponse struct {
	Validators    []any  `json:"validators"`
	NextPageToken string `json:"nextPageToken,omitempty"`
}

// delegatorBase is what every *DelegatorDetails variant has (all of it
// required).
type delegatorBase struct {
	TxHash           string   `json:"txHash"`
	NodeID           string   `json:"nodeId"`
	RewardAddresses  []string `json:"rewardAddresses"`
	AmountDelegated  string   `json:"amountDelegated"`
	DelegationFee    string   `json:"delegationFee"`
	StartTimestamp   int64    `json:"startTimestamp"`
	EndTimestamp     int64    `json:"endTimestamp"`
	DelegationStatus string   `json:"delegationStatus"`
}

// estimatedDelegator is the OpenAPI's ActiveDelegatorDetails and
// PendingDelegatorDetails (same members).
type estimatedDelegator struct {
	delegatorBase
	EstimatedGrossReward string `json:"estimatedGrossReward"`
	EstimatedNetReward   string `json:"estimatedNetReward"`
}

// completedDelegator is the OpenAPI's CompletedDelegatorDetails.
type completedDelegator struct {
	delegatorBase
	GrossReward string `json:"grossReward"`
	NetReward   string `json:"netReward"`
}

// listDelegatorsResponse is the OpenAPI's ListDelegatorDetailsResponse.
type listDelegatorsResponse struct {
	Delegators    []any  `json:"delegators"`
	NextPageToken string `json:"nextPageToken,omitempty"`
}
