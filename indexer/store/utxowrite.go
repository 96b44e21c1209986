package store

import (
	"fmt"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// UTXO writes. A UTXO's creation (0x20) and consumption (0x21) are written
// by whichever writer meets them, in either order (an import can be indexed
// before its export), and each side reads the other's row to keep the
// owners' balance rows (0x22) complete, and the spending tx listed under the
// owners (0x11). So the index comes out the same whichever side is written
// first. Badger's conflict detection orders two writers that race on the
// same UTXO: each read of the other's row is tracked, so the second commit
// fails with ErrConflict and is retried.

// consumeUTXO records in as spent by the tx at at and returns the addresses
// that spent it: the UTXO's owners when its creation is known, else the
// signers of the input.
func consumeUTXO(txn *blockTxn, at txPlace, txID ids.ID, in *pdata.Input) ([]ids.ShortID, error) {
	spent := spentRow{Chain: at.chain, Tx: txID, Height: at.pos.Height, Time: at.time}
	if err := txn.set(spentKey(in.UTXOID), encodeSpent(&spent)); err != nil {
		return nil, err
	}
	u, ok, err := readUTXORow(txn, in.UTXOID)
	if err != nil || !ok {
		return in.Signers.Addresses(), err
	}
	if err := moveUTXOListRowsToSpent(txn, &u); err != nil {
		return nil, err
	}
	return u.Owners.Addrs, writeBalances(txn, &u, &spent)
}

// produceUTXO records u's creation by the tx at at, held by its chain or, for
// an export, by the destination's atomic memory.
func produceUTXO(txn *blockTxn, net *PrimaryNetwork, at txPlace, txID ids.ID, u *pdata.UTXO) error {
	row := utxoRow{UTXO: *u, CreatedOn: at.chain, CreatingTx: txID, Height: at.pos.Height, Time: at.time}
	row.Hold, row.Atomic, row.Source = net.holdOf(at.chain, u)
	var spent *spentRow
	if spendMayPrecede(at, &row) {
		var err error
		if spent, err = readSpentRow(txn, u.ID); err != nil {
			return err
		}
	}
	if err := txn.set(utxoKey(u.ID), encodeUTXO(&row)); err != nil {
		return err
	}
	if spent != nil {
		if err := listSpender(txn, spent, u.Owners.Addrs); err != nil {
			return fmt.Errorf("listing the tx that spent it: %w", err)
		}
	}
	if err := writeUTXOListRows(txn, &row, spent != nil); err != nil {
		return err
	}
	return writeBalances(txn, &row, spent)
}

// spendMayPrecede says whether another writer may have met the spend of a
// UTXO before its creation at at: an export's import on another chain, or a
// DAG or genesis X-chain output spent in a vertex or a linear block written
// first. Any other output is spent only later in its own chain's block
// stream, which writes in order, so its creation needs no lookup (nor the
// read that would make a racing writer's commit conflict: none exists).
func spendMayPrecede(at txPlace, u *utxoRow) bool {
	if u.Atomic {
		return true
	}
	switch at.chain {
	case netinfo.P:
		return false
	case netinfo.X:
		return at.pos.Height == 0
	default:
		return true
	}
}

// listSpender lists the tx that spent a UTXO under the UTXO's owners. The
// spend was met before the creation (an import indexed before its export, a
// linear X block before the DAG vertex that made the UTXO, a DAG tx before
// the genesis block), when only the input's signers could stand for the
// owners; now the tx is listed for all of them, as if the creation had come
// first.
func listSpender(txn *blockTxn, spent *spentRow, owners []ids.ShortID) error {
	v, err := txn.get(ptxKey(spent.Tx))
	if err != nil || v == nil {
		return err // no record: nothing lists the spender to add to
	}
	rec, err := decodePTx(v)
	if err != nil {
		return fmt.Errorf("tx %s: %w", spent.Tx, err)
	}
	for _, addr := range owners {
		if err := txn.set(addrTxKey(rec.Chain, addr, rec.Pos), spent.Tx[:]); err != nil {
			return err
		}
	}
	return nil
}

// unstakeUTXO ends a stake UTXO's staking period at at's time and returns its
// owners. A UTXO the index never saw created has nothing to end.
func unstakeUTXO(txn *blockTxn, at txPlace, id ids.ID) ([]ids.ShortID, error) {
	u, ok, err := readUTXORow(txn, id)
	if err != nil || !ok {
		return nil, err
	}
	u.Unstaked, u.UnstakedTime = true, at.time
	if err := txn.set(utxoKey(id), encodeUTXO(&u)); err != nil {
		return nil, err
	}
	spent, err := readSpentRow(txn, id)
	if err != nil {
		return nil, err
	}
	return u.Owners.Addrs, writeBalances(txn, &u, spent)
}

// writeBalances (re)writes the balance row of u under each of its owners,
// and its lock row (locked.go).
func writeBalances(txn *blockTxn, u *utxoRow, spent *spentRow) error {
	if u.Hold == noChain {
		return nil
	}
	if err := writeLock(txn, u, spent); err != nil {
		return err
	}
	b := balanceOf(u, spent)
	v := encodeBalance(&b)
	var owners addrSet
	owners.add(u.Owners.Addrs...)
	for _, addr := range owners.list {
		if err := txn.set(uaddrKey(u.Hold, addr, u.ID), v); err != nil {
			return err
		}
	}
	return nil
}

func readUTXORow(txn *blockTxn, id ids.ID) (utxoRow, bool, error) {
	v, err := txn.get(utxoKey(id))
	if err != nil || v == nil {
		return utxoRow{}, false, err
	}
	u, err := decodeUTXO(id, v)
	return u, err == nil, err
}

func readSpentRow(txn *blockTxn, id ids.ID) (*spentRow, error) {
	v, err := txn.get(spentKey(id))
	if err != nil || v == nil {
		return nil, err
	}
	s, err := decodeSpent(v)
	if err != nil {
		return nil, err
	}
	return &s, nil
}
