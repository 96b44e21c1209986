package store

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// validator_activity events of L1 validators. The P writer applies a
// block's L1 fee state (l1fees.go) before it writes the block's txs: the
// time advance first (the fees the elapsed seconds cost, the validators it
// runs out of balance), then the L1 txs, then the validators that cannot
// pay one more second. Those steps note what they do to a validator here,
// with the balance it had then; the block's writer sends the notes in the
// block's order: the advance's before the first tx, each tx's with the tx,
// the last step's after the last tx. By then the node and subnet of every
// validation are recorded (a validator registered in the block included).
//
// l1_validator_balance_threshold: a validator's balance only falls as the
// fees accrue at a block's time advance (txs only add to it, or end it), so
// that is where it is judged, at every P block that advances the time: a
// validator whose EndAccumulatedFee E left a balance E - before >= T and
// leaves E - after < T crossed threshold T. It fires once per crossing,
// and again only after a top-up lifts the balance back to T or above. A
// validator registered, or topped up, to a balance below T has not
// crossed it.

// l1Step is when in a block an L1 note happened.
type l1Step uint8

const (
	l1AtAdvance l1Step = iota // the time advance, before the txs
	l1AtTx                    // a tx (l1Note.tx)
	l1AtEnd                   // after the txs: too little balance for a second
)

// l1Note is one thing that happened to an L1 validator in a block.
type l1Note struct {
	step         l1Step
	tx           *pdata.Tx
	sub          string
	validationID ids.ID
	// node and subnet, when the tx names them (else read at send time).
	node    ids.NodeID
	subnet  ids.ID
	balance uint64
	amount  uint64
	// hook is the one webhook a threshold note is for (its threshold).
	hook *webhookdata.Webhook
}

// l1Notes are a block's L1 notes, in the order they happened.
type l1Notes []l1Note

// noteL1 keeps a note for the block's writer, when validator webhooks
// watch the chain.
func noteL1(txn *blockTxn, n l1Note) {
	if txn.watchesValidators() != nil {
		txn.l1Notes = append(txn.l1Notes, n)
	}
}

// noteL1Tx notes what an L1 tx did to validator v: its balance after it,
// and the amount a top-up added.
func noteL1Tx(txn *blockTxn, tx *pdata.Tx, sub string, v *pdata.L1Validator, balance uint64) {
	noteL1(txn, l1Note{step: l1AtTx, tx: tx, sub: sub, validationID: v.ValidationID, node: v.NodeID, subnet: v.Subnet,
		balance: balance, amount: v.BalanceChange})
}

// noteL1Deactivated notes a validator the fee state ran out (end, its
// EndAccumulatedFee): at the advance (its balance is then spent), or after
// the txs with less than a second's fee left, which the node charges.
func noteL1Deactivated(txn *blockTxn, validationID ids.ID, end uint64, atAdvance bool) {
	n := l1Note{step: l1AtEnd, sub: webhookdata.SubL1ValidatorDisabled, validationID: validationID}
	if atAdvance {
		n.step = l1AtAdvance
	} else {
		n.balance = balanceLeft(end, txn.l1fees.AccruedFees)
	}
	noteL1(txn, n)
}

// noteL1Thresholds notes, for each validator_activity webhook with a
// balance threshold T, the active validators whose balance the advance
// from accrued fees before to after takes from T or more to below T: those
// whose EndAccumulatedFee is in [before+T, after+T). It runs before the
// advance deactivates anyone.
func noteL1Thresholds(txn *blockTxn, before, after uint64) error {
	cw := txn.watchesValidators()
	if cw == nil || txn.l1fees.ActiveL1Validators == 0 || after == before {
		return nil
	}
	prefix := key{tagL1Active}
	for _, h := range cw.Hooks {
		threshold, ok := l1Threshold(h)
		if !ok {
			continue
		}
		lo, hi := prefix.u64(saturatingAdd(before, threshold)), []byte(nil)
		if top := saturatingAdd(after, threshold); top < math.MaxUint64 {
			hi = prefix.u64(top)
		}
		err := scanRange(context.Background(), txn.txn, prefix, lo, hi, false, func(item *badger.Item) (bool, error) {
			k := item.Key()
			end := beUint64(k[1:9])
			validationID, err := ids.ToID(k[len(k)-ids.IDLen:])
			if err != nil {
				return false, err
			}
			txn.l1Notes = append(txn.l1Notes, l1Note{step: l1AtAdvance, sub: webhookdata.SubL1ValidatorBalanceThreshold,
				validationID: validationID, balance: balanceLeft(end, after), hook: h})
			return true, nil
		})
		if err != nil {
			return fmt.Errorf("finding L1 validators below webhook %s's threshold: %w", h.ID, err)
		}
	}
	return nil
}

// l1Threshold is h's l1ValidatorFeeBalanceThreshold when h wants
// l1_validator_balance_threshold events and sets a threshold above 0 (a
// balance is never below 0).
func l1Threshold(h *webhookdata.Webhook) (uint64, bool) {
	if h.EventType != webhookdata.ValidatorActivity || !h.WantsSubEvent(webhookdata.SubL1ValidatorBalanceThreshold) {
		return 0, false
	}
	t, err := strconv.ParseUint(h.Metadata.L1ValidatorFeeBalanceThreshold, 10, 64)
	return t, err == nil && t > 0
}

// balanceLeft is the balance of a validator whose EndAccumulatedFee is
// end once the fees have accrued to accrued (0: inactive or spent).
func balanceLeft(end, accrued uint64) uint64 {
	if end <= accrued {
		return 0
	}
	return end - accrued
}

func saturatingAdd(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// emitL1Events sends the notes of step (and of tx, at l1AtTx) of block b,
// stamped ts; at l1AtEnd, the last step, it also drops the block's notes.
func emitL1Events(txn *blockTxn, b *pdata.Block, ts int64, step l1Step, tx *pdata.Tx) error {
	if len(txn.l1Notes) == 0 {
		return nil
	}
	cw := txn.webhookWatches()
	if cw == nil {
		// Cannot happen: the chain's commit lock keeps the watches of a
		// transaction that noted anything.
		txn.l1Notes = nil
		return nil
	}
	at := txPlace{pos: pdata.TxPos{Height: b.Number}, block: b.ID, time: ts}
	for i := range txn.l1Notes {
		n := &txn.l1Notes[i]
		if n.step != step || (step == l1AtTx && n.tx != tx) {
			continue
		}
		if err := emitL1Note(txn, cw, at, n); err != nil {
			return fmt.Errorf("L1 validator %s: %w", n.validationID, err)
		}
	}
	if step == l1AtEnd {
		txn.l1Notes = txn.l1Notes[:0]
	}
	return nil
}

func emitL1Note(txn *blockTxn, cw *webhookdata.ChainWatches, at txPlace, n *l1Note) error {
	node, subnet := n.node, n.subnet
	if node == ids.EmptyNodeID {
		var err error
		if node, subnet, err = l1ValidationOf(txn, n.validationID); err != nil || node == ids.EmptyNodeID {
			return err // a validation the index does not hold: nobody to tell
		}
	}
	hooks := validatorHooks(cw, node, subnet, n.sub)
	if n.hook != nil {
		if !slices.Contains(hooks, n.hook) {
			return nil
		}
		hooks = []*webhookdata.Webhook{n.hook}
	}
	if len(hooks) == 0 {
		return nil
	}
	weight, err := l1Weight(txn, n.validationID)
	if err != nil {
		return err
	}
	for _, h := range hooks {
		e := webhookdata.L1ValidatorEvent{ValidatorEventBase: validatorEventBase(h, n.sub, at, node, subnet),
			ValidationID: n.validationID.String(), Balance: strconv.FormatUint(n.balance, 10),
			Weight: strconv.FormatUint(weight, 10)}
		if n.tx != nil {
			e.TxHash, e.TxType = n.tx.ID.String(), n.tx.Type
		}
		if n.sub == webhookdata.SubL1ValidatorBalanceIncreased {
			e.Amount = strconv.FormatUint(n.amount, 10)
		}
		if err := txn.emitWebhookEvent(h, at.pos.Height, e); err != nil {
			return err
		}
	}
	return nil
}

// l1ValidationOf reads the node and subnet the index recorded for a
// validation (l1validation.go); empty when it holds none.
func l1ValidationOf(txn *blockTxn, validationID ids.ID) (ids.NodeID, ids.ID, error) {
	v, err := txn.get(l1ValidationKey(validationID))
	if err != nil || v == nil {
		if err != nil {
			err = fmt.Errorf("reading L1 validation %s: %w", validationID, err)
		}
		return ids.EmptyNodeID, ids.Empty, err
	}
	if len(v) != l1ValidationSize {
		return ids.EmptyNodeID, ids.Empty, fmt.Errorf("L1 validation %s: row has %d bytes, want %d", validationID, len(v), l1ValidationSize)
	}
	node, _ := ids.ToNodeID(v[:ids.NodeIDLen])
	subnet, _ := ids.ToID(v[ids.NodeIDLen : ids.NodeIDLen+ids.IDLen])
	return node, subnet, nil
}

// l1Weight is a validation's weight as the block's txs left it (0x3A).
func l1Weight(txn *blockTxn, validationID ids.ID) (uint64, error) {
	v, err := txn.get(l1WeightKey(validationID))
	if err != nil {
		return 0, fmt.Errorf("reading L1 validation %s weight: %w", validationID, err)
	}
	if len(v) != 8 {
		return 0, nil
	}
	return beUint64(v), nil
}
