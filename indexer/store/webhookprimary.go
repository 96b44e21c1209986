package store

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// primary_network_address_activity: balance_change and balance_threshold
// of the watched addresses of a P, X or C-chain atomic tx.
//
// An address's balance on a chain is what the Data API's balances of that
// chain count (Balances, classify): the UTXOs the chain holds for it, by
// balance type at the block's time, atomic memory included. A tx changes it
// by the UTXOs it consumes (an import's come out of the chain's atomic
// memory), the UTXOs it produces that stay on the chain (an export's leave
// it: they go to the destination's atomic memory, and no event of this
// chain reports them there) and the stake it returns (staked to unlocked).
//
// The change is worked out from the tx and the rows of the UTXOs it spends
// as they stand before the tx is written, so it is the tx's own effect,
// the same every time the block is written; a spent UTXO the index has not
// met yet (an import whose export another chain's follower has still to
// write) counts with the input's asset and amount, from atomic memory, for
// its signers, which is what its row would say of an ordinary export.
//
// The reads add no conflicts with the other chains' writers. The spent
// UTXOs' rows are the ones consumeUTXO reads anyway. A threshold reads the
// address's unspent UTXOs on the chain, their listing and balance rows
// (only for a watched address whose balance of the filter's type the tx
// moves); those rows are rewritten or deleted only by the chain's own
// writer (which holds the chain's lock), and another chain writes one only
// when it exports a new UTXO into the chain's atomic memory: a new key, and
// Badger checks the keys a transaction read, not the ranges it scanned.

// assetCategory is one balance of an address: an asset in a category.
type assetCategory struct {
	asset    ids.ID
	category pdata.BalanceCategory
}

// balanceDeltas are the changes a tx makes to its watched addresses'
// balances, the addresses in the order the tx names them.
type balanceDeltas struct {
	order addrSet
	by    map[ids.ShortID]map[assetCategory]*big.Int
}

func (d *balanceDeltas) add(cw *webhookdata.ChainWatches, owners []ids.ShortID, b *balanceRow, at int64, sign int) {
	category, ok := classify(b, at)
	if !ok || b.Amount == 0 {
		return
	}
	var once addrSet
	once.add(owners...)
	for _, addr := range once.list {
		if len(cw.Addresses[addr]) == 0 {
			continue
		}
		d.order.add(addr)
		m := d.by[addr]
		if m == nil {
			m = map[assetCategory]*big.Int{}
			d.by[addr] = m
		}
		k := assetCategory{asset: b.Asset, category: category}
		if m[k] == nil {
			m[k] = new(big.Int)
		}
		amount := new(big.Int).SetUint64(b.Amount)
		if sign < 0 {
			amount.Neg(amount)
		}
		m[k].Add(m[k], amount)
	}
}

// emitPrimaryActivity writes the webhook events of tx for the watched
// addresses whose balances it changes. It runs before the tx's own writes:
// the balances it reads are those before the tx.
func emitPrimaryActivity(txn *blockTxn, net *PrimaryNetwork, at txPlace, tx *pdata.Tx) error {
	cw := txn.webhookWatches()
	if cw == nil || len(cw.Addresses) == 0 || tx.ID == ids.Empty {
		return nil
	}
	d, err := txBalanceDeltas(txn, net, at, tx, cw)
	if err != nil {
		return fmt.Errorf("webhook balance changes: %w", err)
	}
	common := webhookdata.PrimaryEvent{PrimaryEventHead: primaryEventHead(chainIDOf(net, at.chain), at, tx)}
	for _, addr := range d.order.list {
		changes, err := balanceChanges(txn, net, at.chain, d.by[addr])
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			continue
		}
		for _, h := range cw.Addresses[addr] {
			if at.pos.Height < h.FromHeight {
				continue
			}
			ev := common
			ev.Address = keyNaming(h, addr)
			if ev.ChainID == "" {
				ev.ChainID = h.ChainID
			}
			if h.WantsSubEvent(webhookdata.SubBalanceChange) {
				ev.SubEvent, ev.BalanceChanges = webhookdata.SubBalanceChange, changes
				if err := txn.emitWebhookEvent(h, at.pos.Height, ev); err != nil {
					return err
				}
			}
			th, crossed, err := thresholdCrossing(txn, net, at, h, addr, d.by[addr])
			if err != nil {
				return err
			}
			if crossed {
				ev.SubEvent, ev.BalanceChanges = webhookdata.SubBalanceThreshold, nil
				ev.BalanceType, ev.BalanceThreshold = th.balanceType, th.threshold.String()
				ev.PreviousBalance, ev.Balance, ev.Direction = th.before.String(), th.after.String(), th.direction
				if err := txn.emitWebhookEvent(h, at.pos.Height, ev); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// txBalanceDeltas works out what tx changes of the watched addresses'
// balances on its chain.
func txBalanceDeltas(txn *blockTxn, net *PrimaryNetwork, at txPlace, tx *pdata.Tx, cw *webhookdata.ChainWatches) (*balanceDeltas, error) {
	d := &balanceDeltas{by: map[ids.ShortID]map[assetCategory]*big.Int{}}
	for i := range tx.Consumed {
		in := &tx.Consumed[i]
		u, ok, err := readUTXORow(txn, in.UTXOID)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", in.UTXOID, err)
		}
		if !ok {
			// Another chain's follower has not met the export yet (or the
			// UTXO is DAG-era history): the input's amount, from atomic
			// memory for an import, spent by its signers.
			b := balanceRow{Asset: in.Asset, Amount: in.Amount, Created: at.time, Atomic: tx.Type == "ImportTx"}
			d.add(cw, in.Signers.Addresses(), &b, at.time, -1)
			continue
		}
		if u.Hold != at.chain {
			continue
		}
		b := balanceOf(&u, nil)
		d.add(cw, u.Owners.Addrs, &b, at.time, -1)
	}
	for i := range tx.Produced {
		u := &tx.Produced[i]
		if slices.Contains(tx.Unstaked, u.ID) {
			continue // returned stake: the stake UTXO itself, unstaked below
		}
		row := utxoRow{UTXO: *u, CreatedOn: at.chain, Time: at.time}
		row.Hold, row.Atomic, row.Source = net.holdOf(at.chain, u)
		if row.Hold != at.chain {
			continue // exported: it leaves the chain
		}
		b := balanceOf(&row, nil)
		d.add(cw, u.Owners.Addrs, &b, at.time, +1)
	}
	for _, id := range tx.Unstaked {
		u, ok, err := readUTXORow(txn, id)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", id, err)
		}
		if !ok || u.Hold != at.chain {
			continue
		}
		staked := balanceOf(&u, nil)
		d.add(cw, u.Owners.Addrs, &staked, at.time, -1)
		u.Unstaked, u.UnstakedTime = true, at.time
		back := balanceOf(&u, nil)
		d.add(cw, u.Owners.Addrs, &back, at.time, +1)
	}
	return d, nil
}

// balanceChanges lists an address's non-zero changes by asset (in ID
// order) and balance type.
func balanceChanges(txn *blockTxn, net *PrimaryNetwork, chain netinfo.Chain, m map[assetCategory]*big.Int) ([]webhookdata.AssetBalanceChange, error) {
	keys := make([]assetCategory, 0, len(m))
	for k, v := range m {
		if v.Sign() != 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b assetCategory) int {
		if c := a.asset.Compare(b.asset); c != 0 {
			return c
		}
		return int(a.category) - int(b.category)
	})
	var out []webhookdata.AssetBalanceChange
	var sum *big.Int
	for _, k := range keys {
		if len(out) == 0 || out[len(out)-1].AssetID != k.asset.String() {
			if len(out) > 0 {
				out[len(out)-1].Amount = sum.String()
			}
			c := webhookdata.AssetBalanceChange{AssetID: k.asset.String()}
			if err := describeAsset(txn, net, k.asset, &c); err != nil {
				return nil, err
			}
			out, sum = append(out, c), new(big.Int)
		}
		last := &out[len(out)-1]
		last.BalanceTypes = append(last.BalanceTypes, webhookdata.BalanceTypeChange{
			BalanceType: webhookdata.BalanceTypeName(chain, int(k.category)), Amount: m[k].String()})
		sum.Add(sum, m[k])
	}
	if len(out) > 0 {
		out[len(out)-1].Amount = sum.String()
	}
	return out, nil
}

// describeAsset adds the symbol and denomination of asset: AVAX's are
// fixed, every other asset's come from its CreateAssetTx when indexed.
func describeAsset(txn *blockTxn, net *PrimaryNetwork, asset ids.ID, c *webhookdata.AssetBalanceChange) error {
	if asset == net.AVAXAssetID && asset != ids.Empty {
		nine := uint8(9)
		c.Symbol, c.Denomination = "AVAX", &nine
		return nil
	}
	v, err := txn.get(assetKey(asset))
	if err != nil || v == nil {
		return err
	}
	a, err := decodeAsset(asset, v)
	if err != nil {
		return fmt.Errorf("asset %s: %w", asset, err)
	}
	denomination := a.Denomination
	c.Symbol, c.Denomination = a.Symbol, &denomination
	return nil
}

// threshold is a balance_threshold crossing.
type threshold struct {
	balanceType   string
	threshold     *big.Int
	before, after *big.Int
	direction     string
}

// thresholdCrossing reports whether the tx moves addr's AVAX balance of
// h's balanceThresholdFilter type across its threshold: from below to at
// or above it (up), or from at or above to below (down). The tx's own
// change decides: a balance the tx leaves alone crosses nothing, so the
// balance is read only for a tx that moves it.
func thresholdCrossing(txn *blockTxn, net *PrimaryNetwork, at txPlace, h *webhookdata.Webhook, addr ids.ShortID,
	m map[assetCategory]*big.Int,
) (threshold, bool, error) {
	f := h.Metadata.BalanceThresholdFilter
	if f == nil || !h.WantsSubEvent(webhookdata.SubBalanceThreshold) || net.AVAXAssetID == ids.Empty {
		return threshold{}, false, nil
	}
	category, ok := webhookdata.ThresholdCategory(at.chain, f.BalanceType)
	limit, valid := new(big.Int).SetString(f.BalanceThreshold, 10)
	if !ok || !valid {
		return threshold{}, false, nil // refused at creation; nothing to compare
	}
	change := m[assetCategory{asset: net.AVAXAssetID, category: pdata.BalanceCategory(category)}]
	if change == nil || change.Sign() == 0 {
		return threshold{}, false, nil
	}
	before, err := balanceAt(txn, at.chain, addr, net.AVAXAssetID, pdata.BalanceCategory(category), at.time)
	if err != nil {
		return threshold{}, false, err
	}
	after := new(big.Int).Add(before, change)
	th := threshold{balanceType: f.BalanceType, threshold: limit, before: before, after: after}
	wasAbove, isAbove := before.Cmp(limit) >= 0, after.Cmp(limit) >= 0
	switch {
	case !wasAbove && isAbove:
		th.direction = webhookdata.DirectionUp
	case wasAbove && !isAbove:
		th.direction = webhookdata.DirectionDown
	default:
		return threshold{}, false, nil
	}
	return th, true, nil
}

// balanceAt sums addr's balance on chain of asset in category at time at,
// as the transaction sees it (the block's earlier txs included): the
// address's unspent UTXOs on the chain (its listing rows, 0x23, whose value
// names the asset), each classified by its balance row. It reads what the
// address holds, not all it ever held.
func balanceAt(txn *blockTxn, chain netinfo.Chain, addr ids.ShortID, asset ids.ID, category pdata.BalanceCategory, at int64) (*big.Int, error) {
	prefix := utxoListPrefix(tagUTimeU, chain, addr)
	it := txn.txn.NewIterator(badger.IteratorOptions{Prefix: prefix})
	defer it.Close()
	sum := new(big.Int)
	for it.Seek(prefix); it.Valid(); it.Next() {
		item := it.Item()
		var holds bool
		err := item.Value(func(v []byte) error {
			holds = len(v) == utxoListValueLen && ids.ID(v[:32]) == asset
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading %s UTXOs of %s: %w", chain, addr, err)
		}
		if !holds {
			continue
		}
		k := item.Key()
		utxo, err := ids.ToID(k[len(k)-32:])
		if err != nil {
			return nil, fmt.Errorf("reading %s UTXOs of %s: %w", chain, addr, err)
		}
		v, err := txn.get(uaddrKey(chain, addr, utxo))
		if err != nil || v == nil {
			return nil, err
		}
		b, err := decodeBalance(v)
		if err != nil {
			return nil, fmt.Errorf("balance row of %s: %w", utxo, err)
		}
		if c, ok := classify(&b, at); ok && c == category {
			sum.Add(sum, new(big.Int).SetUint64(b.Amount))
		}
	}
	return sum, nil
}

// keyNaming is the key of h that names addr, as the webhook's owner wrote
// it. A webhook may watch thousands of keys: they are compared as strings
// with addr's bech32 form (the keys share the network's HRP), and decoded
// one by one only when none matches so (a key spelt otherwise).
func keyNaming(h *webhookdata.Webhook, addr ids.ShortID) string {
	var encoded string
	for _, k := range h.Metadata.Keys {
		bare := k[strings.IndexByte(k, '-')+1:]
		if encoded == "" {
			sep := strings.LastIndexByte(bare, '1')
			if sep <= 0 {
				continue
			}
			encoded, _ = address.FormatBech32(strings.ToLower(bare[:sep]), addr[:])
		}
		if strings.EqualFold(bare, encoded) {
			return k
		}
	}
	for _, k := range h.Metadata.Keys {
		if a, err := webhookdata.ParsePrimaryAddress(k); err == nil && a == addr {
			return k
		}
	}
	return addr.String()
}

func chainIDOf(net *PrimaryNetwork, chain netinfo.Chain) string {
	if net.IDOf == nil {
		return ""
	}
	return net.IDOf(chain).String()
}

// primaryEventHead is where tx is, as every primary-network address
// event says it (the sub-event and the address are the caller's).
func primaryEventHead(chainID string, at txPlace, tx *pdata.Tx) webhookdata.PrimaryEventHead {
	return webhookdata.PrimaryEventHead{ChainID: chainID, BlockHeight: at.pos.Height,
		BlockHash: blockHashOf(at), BlockTimestamp: at.time, TxHash: tx.ID.String(), TxType: tx.Type}
}

// blockHashOf names a tx's block as its chain does: a C-chain block by its
// 0x-hex hash, a P or X block by its ID.
func blockHashOf(at txPlace) string {
	if at.chain == netinfo.C {
		return "0x" + hex.EncodeToString(at.block[:])
	}
	return at.block.String()
}
