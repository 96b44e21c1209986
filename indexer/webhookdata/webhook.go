package webhookdata

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/avadata/avadata/indexer/netinfo"
)

// IDLen is the length of a webhook's ID.
const IDLen = 16

// ID names a webhook: 16 random bytes, written as a UUID (the hosted
// service's webhook IDs are UUIDs).
type ID [IDLen]byte

// NewID draws a random (version 4) ID.
func NewID() (ID, error) {
	var id ID
	if _, err := rand.Read(id[:]); err != nil {
		return ID{}, fmt.Errorf("drawing a webhook ID: %w", err)
	}
	id[6] = id[6]&0x0f | 0x40
	id[8] = id[8]&0x3f | 0x80
	return id, nil
}

// String writes id as a lower-case UUID.
func (id ID) String() string { return uuidString(id) }

func uuidString(b [16]byte) string {
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// ParseID reads a UUID-form ID (either case).
func ParseID(s string) (ID, error) {
	var id ID
	parts := strings.Split(s, "-")
	if len(s) != 36 || len(parts) != 5 || len(parts[0]) != 8 || len(parts[1]) != 4 || len(parts[2]) != 4 ||
		len(parts[3]) != 4 || len(parts[4]) != 12 {
		return ID{}, errors.New("a webhook ID is a UUID such as 401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b")
	}
	if _, err := hex.Decode(id[:], []byte(strings.Join(parts, ""))); err != nil {
		return ID{}, errors.New("a webhook ID is a UUID such as 401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b")
	}
	return id, nil
}

// Webhook is one webhook as the node keeps it. Its JSON form is the stored
// record (indexer/store/webhook.go adds the format's version); the API's
// replies are built from it (handlers/webhooks).
type Webhook struct {
	ID          ID        `json:"-"`
	EventType   EventType `json:"eventType"`
	URL         string    `json:"url"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	// ChainID is the watched chain as the API names it: the EVM chain ID
	// ("43114") of an address_activity webhook, the blockchain ID of a
	// primary-network one, the P-chain's blockchain ID of a validator one.
	ChainID string `json:"chainId"`
	// Chain is the store's number of the watched chain: every webhook
	// watches exactly one chain, so its events are in that chain's order.
	Chain netinfo.Chain `json:"chain"`
	// Network is the request's network (primary-network and validator
	// webhooks).
	Network string `json:"network,omitempty"`
	Status  Status `json:"status"`
	// StatusReason says why an inactive webhook stopped: its owner's
	// update, or deliveries that failed for longer than the maximum age.
	StatusReason string `json:"statusReason,omitempty"`
	CreatedAtMs  int64  `json:"createdAt"`
	// FromHeight is the first height of Chain whose blocks give the
	// webhook events: the chain's next block when it was created or last
	// made active. Nothing before is ever sent (no replay of history).
	FromHeight         uint64   `json:"fromHeight"`
	IncludeLogs        bool     `json:"includeLogs,omitempty"`
	IncludeInternalTxs bool     `json:"includeInternalTxs,omitempty"`
	Metadata           Metadata `json:"metadata"`
}

// Metadata is the union of the three request metadata models; the fields
// of the webhook's EventType are set.
type Metadata struct {
	// EventSignatures (every kind): topic0 values, 0x-hex; when set an
	// address_activity webhook gets only txs with a log of one of them.
	EventSignatures []string `json:"eventSignatures,omitempty"`
	// Addresses (address_activity): 0x-hex EVM addresses, lower case.
	Addresses []string `json:"addresses,omitempty"`
	// KeyType and Keys (primary-network: "addresses" and bech32 addresses;
	// validator: "nodeId" or "subnetId" and one key).
	KeyType string   `json:"keyType,omitempty"`
	Keys    []string `json:"keys,omitempty"`
	// AddressActivitySubEvents (primary-network) and
	// ValidatorActivitySubEvents (validator) select the sub-events sent.
	AddressActivitySubEvents   []string `json:"addressActivitySubEvents,omitempty"`
	ValidatorActivitySubEvents []string `json:"validatorActivitySubEvents,omitempty"`
	// BalanceThresholdFilter (primary-network): balance_threshold fires
	// when the balance of BalanceType crosses Threshold (nAVAX).
	BalanceThresholdFilter *BalanceThresholdFilter `json:"balanceThresholdFilter,omitempty"`
	// NodeIDs and SubnetIDs (validator) narrow a subnetId or nodeId key.
	NodeIDs   []string `json:"nodeIds,omitempty"`
	SubnetIDs []string `json:"subnetIds,omitempty"`
	// L1ValidatorFeeBalanceThreshold (validator, nAVAX):
	// l1_validator_balance_threshold fires when an L1 validator's balance
	// falls below it.
	L1ValidatorFeeBalanceThreshold string `json:"l1ValidatorFeeBalanceThreshold,omitempty"`
}

// BalanceThresholdFilter is the SDK's model of the same name.
type BalanceThresholdFilter struct {
	BalanceType      string `json:"balanceType"`
	BalanceThreshold string `json:"balanceThreshold"`
}

// WantsSubEvent reports whether the webhook's metadata selects sub-event
// sub (primary-network and validator webhooks).
func (h *Webhook) WantsSubEvent(sub string) bool {
	list := h.Metadata.AddressActivitySubEvents
	if h.EventType == ValidatorActivity {
		list = h.Metadata.ValidatorActivitySubEvents
	}
	for _, s := range list {
		if s == sub {
			return true
		}
	}
	return false
}
