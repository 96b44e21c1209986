package primary

import (
	"fmt"
	"math/big"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/balances (getBalancesByAddresses):
// the balances of addresses on one chain as they stood at blockTimestamp
// (default: now), summed per asset. The P-chain answers eight categories,
// the X-chain locked / unlocked and its atomic memory, the C-chain only its
// atomic memory (its account balances are the EVM native balance endpoint's).
// Every array is present, empty when there is nothing in it; a request
// without addresses (the parameter is optional in the hosted API) gets
// only empty arrays.

// atomicStatusPendingImport is the status of an atomic memory balance:
// UTXOs exported to the chain that no ImportTx took yet. The hosted API's
// status is a free string whose values it does not list.
const atomicStatusPendingImport = "pendingImport"

// getBalancesByAddressesRequest is the validated input of
// GET /v1/networks/{network}/blockchains/{blockchainId}/balances.
type getBalancesByAddressesRequest struct {
	Chain     netinfo.Chain
	Addresses []string // as given; 0x addresses only on the C-chain
	// AddressIDs are the 20 bytes of Addresses, in the same order.
	AddressIDs []ids.ShortID
	// BlockTimestamp is the time (Unix seconds) to compute balances at;
	// unset means now.
	BlockTimestamp api.Bound[int64]
}

func (s *server) parseGetBalancesByAddressesRequest(r *http.Request, heights *api.Heights) (getBalancesByAddressesRequest, error) {
	var req getBalancesByAddressesRequest
	var err error
	if req.Chain, err = s.resolveChain(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.BlockTimestamp, err = api.ParseTimestamp(q, paramBlockTimestamp); err != nil {
		return req, err
	}
	req.Addresses, req.AddressIDs, err = s.parsePrimaryAddresses(q, api.ParamAddresses, req.Chain == netinfo.C)
	return req, err
}

func (s *server) serveGetBalancesByAddresses(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetBalancesByAddressesRequest(r, heights)
	if err != nil {
		return err
	}
	if err := s.refuseMissingDAG(r.Context(), req.Chain); err != nil {
		return err
	}
	if err := s.checkCAtomicHistory(r.Context(), req.Chain, "its balances"); err != nil {
		return err
	}
	at := s.Now().Unix()
	if req.BlockTimestamp.Set {
		at = req.BlockTimestamp.Value
	}
	var entries []pdata.BalanceEntry
	if len(req.AddressIDs) > 0 {
		if entries, err = s.reader.Balances(r.Context(), req.Chain, req.AddressIDs, at); err != nil {
			return fmt.Errorf("reading %s balances of %d addresses: %w", req.Chain, len(req.AddressIDs), err)
		}
	}
	assets := make([]ids.ID, len(entries))
	for i, e := range entries {
		assets[i] = e.Asset
	}
	shapes, err := s.newShaper(r.Context(), req.Chain, assets)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, primaryBalancesResponse{
		Balances:  shapes.balances(entries),
		ChainInfo: newPrimaryChainInfo(r, req.Chain),
	})
	return nil
}

// balanceList sums entries into one array of a reply: several categories
// may feed one array (the X-chain's locked), so entries of the same asset
// (and, atomic, the same source chain) are merged.
type balanceList struct {
	order []balanceKey
	sums  map[balanceKey]*balanceSum
}

type balanceKey struct {
	asset      ids.ID
	sharedWith ids.ID
}

type balanceSum struct {
	amount *big.Int
	utxos  int
}

func (l *balanceList) add(e pdata.BalanceEntry, atomic bool) {
	key := balanceKey{asset: e.Asset}
	if atomic {
		key.sharedWith = e.SharedWith
	}
	if l.sums == nil {
		l.sums = map[balanceKey]*balanceSum{}
	}
	sum, ok := l.sums[key]
	if !ok {
		sum = &balanceSum{amount: new(big.Int)}
		l.sums[key] = sum
		l.order = append(l.order, key)
	}
	sum.amount.Add(sum.amount, new(big.Int).SetUint64(e.Amount))
	sum.utxos += e.UTXOs
}

func (l *balanceList) aggregated(v *shaper) []aggregatedAssetAmount {
	out := make([]aggregatedAssetAmount, len(l.order))
	for i, key := range l.order {
		sum := l.sums[key]
		out[i] = aggregatedAssetAmount{assetAmount: v.assetAmount(key.asset, sum.amount, false), UTXOCount: sum.utxos}
	}
	return out
}

// shared shows atomic memory balances. Every chain's carry
// sharedWithChainId and status, as the spec has them: the OpenAPI's X- and
// C-chain shapes (XChainSharedAssetBalance, CChainSharedAssetBalance) lack
// status, but the SDK strips a key its schema does not know, and the X and
// C replies cannot pass for the P-chain member of its balances union (that
// one needs six arrays they do not have), so the status costs the SDK
// nothing.
func (l *balanceList) shared(v *shaper) []sharedAssetAmount {
	out := make([]sharedAssetAmount, len(l.order))
	for i, key := range l.order {
		sum := l.sums[key]
		out[i] = sharedAssetAmount{
			aggregatedAssetAmount: aggregatedAssetAmount{assetAmount: v.assetAmount(key.asset, sum.amount, false), UTXOCount: sum.utxos},
			SharedWithChainID:     key.sharedWith.String(),
			Status:                atomicStatusPendingImport,
		}
	}
	return out
}

// balances shapes the shaper's chain's balance object.
func (v *shaper) balances(entries []pdata.BalanceEntry) any {
	var lists [pdata.NumBalanceCategories]balanceList
	for _, e := range entries {
		if e.Category >= pdata.NumBalanceCategories {
			continue // a category this version does not know
		}
		cat := e.Category
		if v.chain == netinfo.X {
			cat = xChainCategory(cat)
		}
		atomic := cat == pdata.AtomicMemoryUnlocked || cat == pdata.AtomicMemoryLocked
		lists[cat].add(e, atomic)
	}
	switch v.chain {
	case netinfo.P:
		return pChainBalance{
			UnlockedUnstaked:     lists[pdata.UnlockedUnstaked].aggregated(v),
			UnlockedStaked:       lists[pdata.UnlockedStaked].aggregated(v),
			LockedPlatform:       lists[pdata.LockedPlatform].aggregated(v),
			LockedStakeable:      lists[pdata.LockedStakeable].aggregated(v),
			LockedStaked:         lists[pdata.LockedStaked].aggregated(v),
			PendingStaked:        lists[pdata.PendingStaked].aggregated(v),
			AtomicMemoryUnlocked: lists[pdata.AtomicMemoryUnlocked].shared(v),
			AtomicMemoryLocked:   lists[pdata.AtomicMemoryLocked].shared(v),
		}
	case netinfo.X:
		return xChainBalances{
			Locked:               lists[pdata.LockedPlatform].aggregated(v),
			Unlocked:             lists[pdata.UnlockedUnstaked].aggregated(v),
			AtomicMemoryUnlocked: lists[pdata.AtomicMemoryUnlocked].shared(v),
			AtomicMemoryLocked:   lists[pdata.AtomicMemoryLocked].shared(v),
		}
	default:
		// The C-chain's own balances are account balances; only its
		// atomic memory is a UTXO balance.
		return cChainAtomicBalances{
			AtomicMemoryUnlocked: lists[pdata.AtomicMemoryUnlocked].shared(v),
			AtomicMemoryLocked:   lists[pdata.AtomicMemoryLocked].shared(v),
		}
	}
}

// xChainCategory folds the categories into the X-chain's two: it has no
// staking, so anything unlocked is unlocked and anything locked is locked
// (the reader uses UnlockedUnstaked and LockedPlatform).
func xChainCategory(c pdata.BalanceCategory) pdata.BalanceCategory {
	switch c {
	case pdata.UnlockedUnstaked, pdata.UnlockedStaked:
		return pdata.UnlockedUnstaked
	case pdata.AtomicMemoryUnlocked, pdata.AtomicMemoryLocked:
		return c
	default:
		return pdata.LockedPlatform
	}
}
