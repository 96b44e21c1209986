package explorer

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/avadata/avadata/handlers/api"
)

// primaryAddressData is what an address page on P, X or C shows: one tab
// of its balances, UTXOs or history.
type primaryAddressData struct {
	primaryPage
	Address string
	Tab     string
	// Balances are the categories of getBalancesByAddresses' reply, in the
	// order of the chain's shape (balances tab).
	Balances []balanceCategory
	// UTXOs is getUtxosByAddresses' reply (utxos tab), IncludeSpent its
	// includeSpent.
	UTXOs        object
	IncludeSpent bool
	// Txs is listLatestPrimaryNetworkTransactions' reply of the address
	// (history tab).
	Txs object
}

// balanceCategory is one category of an address's balances: its assets
// (AggregatedAssetAmount, or for atomic memory PChainSharedAsset with
// sharedWithChainId and status).
type balanceCategory struct {
	Key, Label string
	Assets     []any
}

// balanceCategories are the categories each chain's balances have, in the
// order of the API's shapes (PChainBalance, XChainBalances,
// CChainAtomicBalances), with their labels.
func balanceCategories(chain string) [][2]string {
	atomic := [][2]string{
		{"atomicMemoryUnlocked", "Atomic memory, unlocked"},
		{"atomicMemoryLocked", "Atomic memory, locked"},
	}
	switch chain {
	case "p-chain":
		return append([][2]string{
			{"unlockedUnstaked", "Unlocked, unstaked"},
			{"unlockedStaked", "Unlocked, staked"},
			{"lockedPlatform", "Locked (platform)"},
			{"lockedStakeable", "Locked, stakeable"},
			{"lockedStaked", "Locked, staked"},
			{"pendingStaked", "Pending stake"},
		}, atomic...)
	case "x-chain":
		return append([][2]string{{"unlocked", "Unlocked"}, {"locked", "Locked"}}, atomic...)
	}
	return atomic
}

// servePrimaryAddress draws /{p-chain|x-chain|c-chain}/address/{address}
// with tab=balances (default), utxos (includeSpent=true lists spent ones
// too) or history; the lists page.
func (s *server) servePrimaryAddress(r *http.Request, req *request) (view, error) {
	p, err := s.primaryPageOfPath(r)
	if err != nil {
		return view{}, err
	}
	addr := api.PathVar(r, "address")
	// The API takes a list of addresses: a page is about one.
	if strings.Contains(addr, ",") {
		return view{}, api.BadRequest("invalid address '%s': one address per page", api.Truncate(addr))
	}
	d := primaryAddressData{primaryPage: p, Address: addr}
	if d.Tab, err = pageTab(req, "balances", "balances", "utxos", "history"); err != nil {
		return view{}, err
	}
	ctx := r.Context()
	switch d.Tab {
	case "utxos":
		q := primaryListQuery(req)
		q.Set("addresses", addr)
		if req.Query.Get("includeSpent") == "true" {
			d.IncludeSpent = true
			q.Set("includeSpent", "true")
		}
		d.UTXOs, err = s.get(ctx, primaryCall(req, p, q, "utxos"))
	case "history":
		q := primaryListQuery(req)
		q.Set("addresses", addr)
		d.Txs, err = s.get(ctx, primaryCall(req, p, q, "transactions"))
	default: // balances
		var reply object
		reply, err = s.get(ctx, primaryCall(req, p, url.Values{"addresses": {addr}}, "balances"))
		balances, _ := reply["balances"].(object)
		for _, c := range balanceCategories(p.Chain.Alias) {
			assets, _ := balances[c[0]].([]any)
			d.Balances = append(d.Balances, balanceCategory{Key: c[0], Label: c[1], Assets: assets})
		}
	}
	if err != nil {
		return view{}, err
	}
	return view{Template: "primary_address", Title: p.Chain.Label + " address " + short(addr), Data: d}, nil
}
