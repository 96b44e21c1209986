package store

import (
	"fmt"
	"slices"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// txPlace is where a primary-network tx sits: chain, position, block and
// the block's (resolved) time.
type txPlace struct {
	chain netinfo.Chain
	pos   pdata.TxPos
	block ids.ID
	time  int64
}

// writeAtomicTxs writes a C-chain block's atomic txs through the same rows as
// P and X txs, so that exports and imports meet across the three chains.
func writeAtomicTxs(txn *blockTxn, net *PrimaryNetwork, chain netinfo.Chain, b *evmdata.Block) error {
	for i, tx := range b.Atomic {
		at := txPlace{chain: chain, pos: pdata.TxPos{Height: b.Number, Index: uint32(i)},
			block: ids.ID(b.Hash), time: int64(b.Timestamp)}
		if err := writePrimaryTx(txn, net, at, tx); err != nil {
			return fmt.Errorf("atomic tx %s: %w", tx.ID, err)
		}
	}
	return nil
}

// writePrimaryTx writes one tx: its UTXO effects, then (unless it is the
// genesis pseudo tx, ID ids.Empty, whose UTXOs have no tx to list) its
// record, its place in the chain and a row for every address it involves.
func writePrimaryTx(txn *blockTxn, net *PrimaryNetwork, at txPlace, tx *pdata.Tx) error {
	if err := emitPrimaryActivity(txn, net, at, tx); err != nil {
		return err
	}
	var involved addrSet
	for i := range tx.Consumed {
		owners, err := consumeUTXO(txn, at, tx.ID, &tx.Consumed[i])
		if err != nil {
			return fmt.Errorf("consuming %s: %w", tx.Consumed[i].UTXOID, err)
		}
		involved.add(owners...)
	}
	for i := range tx.Produced {
		u := &tx.Produced[i]
		involved.add(u.Owners.Addrs...)
		if slices.Contains(tx.Unstaked, u.ID) {
			continue // returned stake is the stake UTXO itself, unstaked below
		}
		if err := produceUTXO(txn, net, at, tx.ID, u); err != nil {
			return fmt.Errorf("producing %s: %w", u.ID, err)
		}
	}
	for _, id := range tx.Unstaked {
		owners, err := unstakeUTXO(txn, at, id)
		if err != nil {
			return fmt.Errorf("unstaking %s: %w", id, err)
		}
		involved.add(owners...)
	}
	if tx.Asset != nil {
		if err := txn.set(assetKey(tx.Asset.ID), encodeAsset(tx.Asset)); err != nil {
			return err
		}
	}
	if tx.ID == ids.Empty {
		return nil
	}
	involved.addTxParties(tx)
	rec := ptxRecord{Chain: at.chain, Pos: at.pos, BlockID: at.block, Time: at.time, Outcome: tx.Outcome,
		Type: tx.Type, Bytes: tx.Bytes, Unstaked: tx.Unstaked}
	for _, in := range tx.Consumed {
		rec.Consumed = append(rec.Consumed, in.UTXOID)
	}
	for _, u := range tx.Produced {
		rec.Produced = append(rec.Produced, u.ID)
	}
	if err := txn.set(ptxKey(tx.ID), encodePTx(&rec)); err != nil {
		return err
	}
	if err := txn.set(chainTxKey(at.chain, at.pos), tx.ID[:]); err != nil {
		return err
	}
	for _, addr := range involved.list {
		if err := txn.set(addrTxKey(at.chain, addr, at.pos), tx.ID[:]); err != nil {
			return err
		}
	}
	return writeAssetTxs(txn, at, tx)
}

// addrSet collects addresses once each, in first-seen order. Most txs name
// a handful, found faster by a scan of the list than in a map, which is made
// only once the list grows past addrSetScan.
type addrSet struct {
	seen map[ids.ShortID]bool
	list []ids.ShortID
}

const addrSetScan = 16

func (s *addrSet) add(addrs ...ids.ShortID) {
	for _, a := range addrs {
		if s.has(a) {
			continue
		}
		s.list = append(s.list, a)
		switch {
		case s.seen != nil:
			s.seen[a] = true
		case len(s.list) > addrSetScan:
			s.seen = make(map[ids.ShortID]bool, 2*len(s.list))
			for _, b := range s.list {
				s.seen[b] = true
			}
		}
	}
}

func (s *addrSet) has(a ids.ShortID) bool {
	if s.seen != nil {
		return s.seen[a]
	}
	return slices.Contains(s.list, a)
}

func (s *addrSet) addOwners(o *pdata.Owners) {
	if o != nil {
		s.add(o.Addrs...)
	}
}

// addTxParties adds the addresses a tx names beyond its UTXOs: reward and
// subnet owners, L1 validator owners, and the C-chain accounts of an atomic
// tx (indexed in the same 20-byte address space).
func (s *addrSet) addTxParties(tx *pdata.Tx) {
	if st := tx.Staker; st != nil {
		s.addOwners(st.RewardsOwner)
		s.addOwners(st.DelegationRewardsOwner)
	}
	s.addOwners(tx.SubnetOwner)
	for _, v := range tx.L1Validators {
		s.addOwners(v.RemainingBalanceOwner)
		s.addOwners(v.DeactivationOwner)
	}
	for _, a := range tx.EVMInputs {
		s.add(ids.ShortID(a.Address))
	}
	for _, a := range tx.EVMOutputs {
		s.add(ids.ShortID(a.Address))
	}
}
