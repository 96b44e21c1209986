package webhookdata

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/netinfo"
)

// Watches is what the chain writers match blocks against: the active
// webhooks by chain, and the keys each watches. It is immutable once built;
// the store swaps in a new one on every change of a webhook, so a writer
// never reads webhook records inside a block's transaction.
type Watches struct {
	chains map[netinfo.Chain]*ChainWatches
}

// ChainWatches are the active webhooks of one chain, by what they watch.
// A webhook appears only under the keys of its own event type.
type ChainWatches struct {
	// Hooks are the chain's active webhooks, by ID.
	Hooks []*Webhook
	// EVMAddresses: address_activity webhooks by watched address.
	EVMAddresses map[common.Address][]*Webhook
	// Addresses: primary_network_address_activity webhooks by watched
	// address (the 20 bytes behind a bech32 address).
	Addresses map[ids.ShortID][]*Webhook
	// Nodes and Subnets: validator_activity webhooks by key (keyType
	// nodeId or subnetId).
	Nodes   map[ids.NodeID][]*Webhook
	Subnets map[ids.ID][]*Webhook
	// EventSignatures are the eventSignatures of the webhooks that set
	// some, parsed once here (not for every tx a writer matches), by
	// webhook ID; a webhook absent sets none.
	EventSignatures map[ID]map[common.Hash]struct{}
}

// NewWatches builds the watch sets of hooks' active webhooks.
func NewWatches(hooks []Webhook) (*Watches, error) {
	sort.Slice(hooks, func(i, j int) bool { return string(hooks[i].ID[:]) < string(hooks[j].ID[:]) })
	w := &Watches{chains: map[netinfo.Chain]*ChainWatches{}}
	for i := range hooks {
		if err := w.Add(&hooks[i]); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Add adds webhook h to the watch sets when it is active, keeping every
// list in ID order as NewWatches does. Only for a Watches no writer reads
// yet: the store builds the sets of the webhooks a change leaves as they
// are before it holds the chain's commits, and adds the changed one while
// it does. h is not copied: it must not change afterwards.
func (w *Watches) Add(h *Webhook) error {
	if h.Status != Active {
		return nil
	}
	cw := w.chains[h.Chain]
	if cw == nil {
		cw = &ChainWatches{EVMAddresses: map[common.Address][]*Webhook{}, Addresses: map[ids.ShortID][]*Webhook{},
			Nodes: map[ids.NodeID][]*Webhook{}, Subnets: map[ids.ID][]*Webhook{},
			EventSignatures: map[ID]map[common.Hash]struct{}{}}
		w.chains[h.Chain] = cw
	}
	if cw.Hook(h.ID) != nil {
		return fmt.Errorf("webhook %s is watched already", h.ID)
	}
	if err := cw.add(h); err != nil {
		return fmt.Errorf("webhook %s: %w", h.ID, err)
	}
	cw.Hooks = insertByID(cw.Hooks, h)
	return nil
}

// insertByID inserts h into list, which is in ID order.
func insertByID(list []*Webhook, h *Webhook) []*Webhook {
	i, _ := slices.BinarySearchFunc(list, h.ID, func(have *Webhook, id ID) int { return bytes.Compare(have.ID[:], id[:]) })
	return slices.Insert(list, i, h)
}

// add indexes h's keys and event signatures; on an error cw may hold part
// of them (the caller drops the whole Watches).
func (cw *ChainWatches) add(h *Webhook) error {
	if sigs := h.Metadata.EventSignatures; len(sigs) > 0 {
		set := make(map[common.Hash]struct{}, len(sigs))
		for _, sig := range sigs {
			b, err := hex.DecodeString(strings.TrimPrefix(strings.TrimPrefix(sig, "0x"), "0X"))
			if err != nil || len(b) != common.HashLength {
				return fmt.Errorf("%q is not an event signature (64 hex digits)", sig)
			}
			set[common.BytesToHash(b)] = struct{}{}
		}
		cw.EventSignatures[h.ID] = set
	}
	switch h.EventType {
	case AddressActivity:
		for _, a := range h.Metadata.Addresses {
			if !common.IsHexAddress(a) {
				return fmt.Errorf("%q is not an EVM address", a)
			}
			addr := common.HexToAddress(a)
			cw.EVMAddresses[addr] = insertByID(cw.EVMAddresses[addr], h)
		}
	case PrimaryNetworkAddressActivity:
		for _, k := range h.Metadata.Keys {
			addr, err := ParsePrimaryAddress(k)
			if err != nil {
				return err
			}
			cw.Addresses[addr] = insertByID(cw.Addresses[addr], h)
		}
	case ValidatorActivity:
		for _, k := range h.Metadata.Keys {
			switch h.Metadata.KeyType {
			case KeyTypeNodeID:
				node, err := ids.NodeIDFromString(k)
				if err != nil {
					return fmt.Errorf("%q is not a node ID: %w", k, err)
				}
				cw.Nodes[node] = insertByID(cw.Nodes[node], h)
			case KeyTypeSubnetID:
				subnet, err := ids.FromString(k)
				if err != nil {
					return fmt.Errorf("%q is not a subnet ID: %w", k, err)
				}
				cw.Subnets[subnet] = insertByID(cw.Subnets[subnet], h)
			default:
				return fmt.Errorf("unknown key type %q", h.Metadata.KeyType)
			}
		}
	default:
		return fmt.Errorf("unknown event type %q", h.EventType)
	}
	return nil
}

// ParsePrimaryAddress reads a primary-network address, with or without
// its chain prefix ("X-avax1...", "avax1..."), to its 20 bytes. The HRP is
// checked by the API when the webhook is created.
func ParsePrimaryAddress(s string) (ids.ShortID, error) {
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s = s[i+1:]
	}
	_, raw, err := address.ParseBech32(s)
	if err != nil {
		return ids.ShortID{}, fmt.Errorf("%q is not a primary-network address: %w", s, err)
	}
	id, err := ids.ToShortID(raw)
	if err != nil {
		return ids.ShortID{}, fmt.Errorf("%q is not a primary-network address: %w", s, err)
	}
	return id, nil
}

// Chain returns the watch sets of chain, nil when no active webhook
// watches it (the writers' fast path). Safe on a nil Watches.
func (w *Watches) Chain(chain netinfo.Chain) *ChainWatches {
	if w == nil {
		return nil
	}
	return w.chains[chain]
}

// Active returns every active webhook, by chain, then ID (the delivery
// runner's workers). Safe on a nil Watches.
func (w *Watches) Active() []*Webhook {
	if w == nil {
		return nil
	}
	chains := make([]netinfo.Chain, 0, len(w.chains))
	for c := range w.chains {
		chains = append(chains, c)
	}
	sort.Slice(chains, func(i, j int) bool { return chains[i] < chains[j] })
	var out []*Webhook
	for _, c := range chains {
		out = append(out, w.chains[c].Hooks...)
	}
	return out
}

// Hook returns the active webhook id of the chain, nil when it is not
// one. Safe on a nil ChainWatches.
func (cw *ChainWatches) Hook(id ID) *Webhook {
	if cw == nil {
		return nil
	}
	for _, h := range cw.Hooks {
		if h.ID == id {
			return h
		}
	}
	return nil
}
