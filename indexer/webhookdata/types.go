package webhookdata

// EventType is a webhook's kind (the SDK's EventType).
type EventType string

const (
	// AddressActivity: EVM transactions that touch a watched address.
	AddressActivity EventType = "address_activity"
	// PrimaryNetworkAddressActivity: P-, X- and C-chain atomic txs that
	// change a watched address's balances.
	PrimaryNetworkAddressActivity EventType = "primary_network_address_activity"
	// ValidatorActivity: staking and L1 validator events of watched nodes
	// or subnets.
	ValidatorActivity EventType = "validator_activity"
)

// Valid reports whether t is one of the event types.
func (t EventType) Valid() bool {
	return t == AddressActivity || t == PrimaryNetworkAddressActivity || t == ValidatorActivity
}

// Status is a webhook's status (the SDK's WebhookStatusType).
type Status string

const (
	Active   Status = "active"
	Inactive Status = "inactive"
)

// Primary-network address activity sub-events
// (PrimaryNetworkAddressActivitySubEventType).
const (
	SubBalanceChange      = "balance_change"
	SubBalanceThreshold   = "balance_threshold"
	SubRewardDistribution = "reward_distribution"
)

// Validator activity sub-events (ValidatorActivitySubEvent).
const (
	SubValidatorStake              = "validator_stake"
	SubDelegatorStake              = "delegator_stake"
	SubValidatorRewardDistribution = "reward_distribution"
	SubL1ValidatorBalanceIncreased = "l1_validator_balance_increased"
	SubL1ValidatorDisabled         = "l1_validator_disabled"
	SubL1ValidatorRemoved          = "l1_validator_removed"
	SubL1ValidatorBalanceThreshold = "l1_validator_balance_threshold"
)

// Validator activity key types (ValidatorActivityKeyType).
const (
	KeyTypeNodeID   = "nodeId"
	KeyTypeSubnetID = "subnetId"
)

// KeyTypeAddresses is the one primary-network address activity key type
// (PlatformAddressActivityKeyType).
const KeyTypeAddresses = "addresses"
