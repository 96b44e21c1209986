package webhookdata

import (
	"github.com/avadata/avadata/indexer/netinfo"
)

// PrimaryEventHead are the members every primary_network_address_activity
// event begins with: where the tx is and which watched address it is for.
type PrimaryEventHead struct {
	SubEvent string `json:"subEvent"`
	// ChainID is the blockchain ID of the chain the tx is on.
	ChainID     string `json:"chainId"`
	BlockHeight uint64 `json:"blockHeight"`
	// BlockHash is the block's ID (P, X: cb58; C: 0x-hex hash).
	BlockHash string `json:"blockHash"`
	// BlockTimestamp is the block's time, Unix seconds.
	BlockTimestamp int64  `json:"blockTimestamp"`
	TxHash         string `json:"txHash"`
	// TxType is the Data API's tx type name (BaseTx, ImportTx, ...).
	TxType string `json:"txType"`
	// Address is the watched address as the webhook's key names it.
	Address string `json:"address"`
}

// PrimaryEvent is the event of a primary_network_address_activity
// delivery: what happened to one watched address in one tx of the
// webhook's chain (P, X, or the C-chain's atomic txs). The members every
// sub-event has come first; BalanceChanges belong to balance_change, the
// threshold members to balance_threshold (the others are omitted).
type PrimaryEvent struct {
	PrimaryEventHead

	// BalanceChanges (balance_change): by asset, what the tx changed of
	// the address's balances on the chain.
	BalanceChanges []AssetBalanceChange `json:"balanceChanges,omitempty"`

	// balance_threshold: the address's AVAX balance of BalanceType went
	// from PreviousBalance (before the tx) to Balance (after it), across
	// BalanceThreshold, in Direction.
	BalanceType      string `json:"balanceType,omitempty"`
	BalanceThreshold string `json:"balanceThreshold,omitempty"`
	Balance          string `json:"balance,omitempty"`
	PreviousBalance  string `json:"previousBalance,omitempty"`
	Direction        string `json:"direction,omitempty"`
}

// AssetBalanceChange is one asset's change of an address's balances by a
// tx: Amount is the net change, signed decimal, over the chain's balance
// types (BalanceTypes, each that moved, in the Data API's order).
type AssetBalanceChange struct {
	AssetID      string              `json:"assetId"`
	Symbol       string              `json:"symbol,omitempty"`
	Denomination *uint8              `json:"denomination,omitempty"`
	Amount       string              `json:"amount"`
	BalanceTypes []BalanceTypeChange `json:"balanceTypes"`
}

// BalanceTypeChange is the change of one balance type (signed decimal).
type BalanceTypeChange struct {
	BalanceType string `json:"balanceType"`
	Amount      string `json:"amount"`
}

// Threshold crossing directions: the balance rose from below the
// threshold to at or above it, or fell from at or above it to below.
const (
	DirectionUp   = "up"
	DirectionDown = "down"
)

// primaryBalanceTypes name the store's balance categories
// (pdata.BalanceCategory order: unlocked unstaked, unlocked staked, locked
// platform, locked stakeable, locked staked, pending staked, atomic memory
// unlocked, atomic memory locked) as the Data API's balances of each chain
// do (CommonBalanceType values): the X-chain has only unlocked and locked
// UTXOs of its own; the C-chain holds UTXOs only in its atomic memory.
var primaryBalanceTypes = map[netinfo.Chain][]string{
	netinfo.P: {"unlockedUnstaked", "unlockedStaked", "lockedPlatform", "lockedStakeable", "lockedStaked", "pendingStaked",
		"atomicMemoryUnlocked", "atomicMemoryLocked"},
	netinfo.X: {"unlocked", "", "locked", "", "", "", "atomicMemoryUnlocked", "atomicMemoryLocked"},
	netinfo.C: {"", "", "", "", "", "", "atomicMemoryUnlocked", "atomicMemoryLocked"},
}

// atomicCategories is where the atomic memory categories start.
const atomicCategories = 6

// BalanceTypeName is the CommonBalanceType name of balance category
// category (a pdata.BalanceCategory) on chain; "" when the chain has none.
func BalanceTypeName(chain netinfo.Chain, category int) string {
	names := primaryBalanceTypes[chain]
	if category < 0 || category >= len(names) {
		return ""
	}
	return names[category]
}

// ThresholdCategory returns the balance category a balance_threshold
// webhook on chain may name as balanceType, false when the chain's txs
// cannot move that balance both ways: atomic memory grows only by another
// chain's export (a tx outside the webhook's chain), so only balances of
// the chain's own UTXOs can be watched (P: the six non-atomic types; X:
// unlocked and locked; C: none).
func ThresholdCategory(chain netinfo.Chain, balanceType string) (int, bool) {
	if balanceType == "" {
		return 0, false
	}
	names := primaryBalanceTypes[chain]
	for c := 0; c < atomicCategories && c < len(names); c++ {
		if names[c] == balanceType {
			return c, true
		}
	}
	return 0, false
}
