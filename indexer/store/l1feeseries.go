package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/pdata"
)

// The L1 validator fee series (metricdata.L1FeeSeries): the P writer keeps,
// in each block's own commit, what a query needs to sum the fees charged to
// any set of validations per UTC day with reads proportional to the days
// and the validations asked:
//
//   - 0x3D, one row per day: the accrued fees (l1fees.go) after the day's
//     last block, the total charged to every validation through it, and
//     how many validations were charged that day. The accrued fees are
//     what one active validation pays per unit of time, so a validation
//     active over a stretch of days paid exactly the difference of two of
//     these rows: the per-validation figures need no per-block writes.
//   - 0x3E, one row per validation: its creation day, its active periods
//     in accrued-fee terms (from the accrued fees at activation to the
//     position it had paid up to when it stopped, with the days), and the
//     last day it was counted as paying.
//   - 0x3F: the validations of each subnet and of each node.
//
// Charges (metricdata's definition): at a block's advance every active
// validation pays the accrued-fee increase, or what it had left when that
// runs it out; a validation platformvm deactivates after the txs (it
// cannot pay for one more second) pays what it had left; a disable or a
// removal refunds the rest (not charged). So a deactivation at accrued
// fees A with EndAccumulatedFee E stops the period at E when the fee state
// ran it out (E <= A at the advance, E > A after the txs) and at A when a
// tx did, and the day's running total, which counted every validation
// active before the advance as paying the whole increase, moves by stop-A.
//
// Paying validations are counted per day without touching every validation
// at every block: the day's first block whose advance charges anything
// visits the active validations once (0x39) and counts each; a validation
// activated after that visit is noted in the day row (Pending) and counted
// when a later advance of the day charges it; a charge at deactivation
// counts the validation then. Each validation row's PaidDay keeps one from
// being counted twice in a day.
//
// The rows start with the first block that creates an L1 validation on a
// store that holds none (a store written before them, which holds
// validations without their rows, keeps them unknown until a rebuild), and
// go on while the fee state is known: a block whose predecessor's day has
// no row writes none. Every block writes its day's row, so the next
// transaction finds the carried totals with one point read.

const l1FeeDaySeconds = 86400

// l1FeeDay is the start of ts's UTC day.
func l1FeeDay(ts int64) int64 {
	d := ts % l1FeeDaySeconds
	if d < 0 {
		d += l1FeeDaySeconds
	}
	return ts - d
}

// Kinds of the 0x3F rows.
const (
	l1FeeBySubnet byte = 0
	l1FeeByNode   byte = 1
)

func l1FeeDayKey(day int64) []byte     { return key{tagL1FeeDay}.u64(uint64(day)) }
func l1FeeValKey(id ids.ID) []byte     { return key{tagL1FeeVal}.id(id) }
func l1FeeSubnetPrefix(s ids.ID) key   { return key{tagL1FeeBy, l1FeeBySubnet}.id(s) }
func l1FeeNodePrefix(n ids.NodeID) key { return key{tagL1FeeBy, l1FeeByNode}.bytes(n.Bytes()) }

// l1FeeDayRow is a 0x3D row: the figures after the day's last block.
type l1FeeDayRow struct {
	Start   int64  // the day (key)
	Accrued uint64 // the accrued fees
	Total   uint64 // charged to every validation since the rows started
	Paying  uint64 // validations charged during the day
	// Swept says a block of the day charged every active validation and
	// counted it; Pending are those activated since, not counted yet.
	Swept   bool
	Pending []ids.ID
}

func (r *l1FeeDayRow) encode() []byte {
	w := rowWriter{buf: make([]byte, 0, 32+len(r.Pending)*ids.IDLen)}
	w.byte(rowVersion1)
	w.uint(r.Accrued)
	w.uint(r.Total)
	w.uint(r.Paying)
	w.bool(r.Swept)
	writeIDs(&w, r.Pending)
	return w.buf
}

func decodeL1FeeDay(day int64, v []byte) (l1FeeDayRow, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return l1FeeDayRow{}, fmt.Errorf("L1 fee day row version %d", ver)
	}
	row := l1FeeDayRow{Start: day, Accrued: r.uint(), Total: r.uint(), Paying: r.uint(), Swept: r.bool()}
	row.Pending = readIDs(&r)
	return row, r.done()
}

// l1FeePeriod is a stretch of a validation's activity in accrued-fee terms:
// while it lasts the validation pays what the accrued fees grow by.
type l1FeePeriod struct {
	From    uint64 // the accrued fees when it became active
	FromDay int64
	To      uint64 // the position it paid up to when it stopped
	ToDay   int64  // the day it stopped; 0 while active
}

// l1FeeValRow is a 0x3E row.
type l1FeeValRow struct {
	Created int64 // the day of the creating tx's block
	PaidDay int64 // the last day it was counted as paying (0: none)
	Periods []l1FeePeriod
}

func (r *l1FeeValRow) encode() []byte {
	w := rowWriter{buf: make([]byte, 0, 16+len(r.Periods)*24)}
	w.byte(rowVersion1)
	w.int(r.Created)
	w.int(r.PaidDay)
	writeList(&w, r.Periods, func(w *rowWriter, p l1FeePeriod) {
		w.uint(p.From)
		w.int(p.FromDay)
		w.uint(p.To)
		w.int(p.ToDay)
	})
	return w.buf
}

func decodeL1FeeVal(v []byte) (l1FeeValRow, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return l1FeeValRow{}, fmt.Errorf("L1 fee validation row version %d", ver)
	}
	row := l1FeeValRow{Created: r.int(), PaidDay: r.int()}
	n := r.uint()
	if n > uint64(len(r.buf)) {
		return l1FeeValRow{}, errShortRow
	}
	row.Periods = make([]l1FeePeriod, 0, n)
	for range n {
		row.Periods = append(row.Periods, l1FeePeriod{From: r.uint(), FromDay: r.int(), To: r.uint(), ToDay: r.int()})
	}
	return row, r.done()
}

// l1SeriesState is the series' state after the last P-chain block the
// transaction wrote.
type l1SeriesState struct {
	loaded bool
	on     bool // the rows are being written
	day    l1FeeDayRow
}

// startL1Series readies the series for block b at time ts, after the fee
// state was loaded.
func startL1Series(txn *blockTxn, b *pdata.Block, ts int64) error {
	st := &txn.l1series
	if !st.loaded {
		st.loaded = true
		if b.Number > 1 {
			prev, err := previousBlock(txn, b.Number)
			if err != nil {
				return err
			}
			if prev != nil {
				day := l1FeeDay(prev.Time)
				v, err := txn.get(l1FeeDayKey(day))
				if err != nil {
					return fmt.Errorf("reading the L1 fee row of day %d: %w", day, err)
				}
				if v != nil {
					if st.day, err = decodeL1FeeDay(day, v); err != nil {
						return err
					}
					st.on = true
				}
			}
		}
	}
	if !txn.l1fees.known {
		st.on = false
		return nil
	}
	day := l1FeeDay(ts)
	if st.on {
		if st.day.Start != day {
			st.day = l1FeeDayRow{Start: day, Accrued: st.day.Accrued, Total: st.day.Total}
		}
		return nil
	}
	if !createsL1Validations(b) {
		return nil
	}
	held, err := holdsL1Validations(txn)
	if err != nil || held {
		return err
	}
	st.on = true
	st.day = l1FeeDayRow{Start: day, Accrued: txn.l1fees.AccruedFees}
	return nil
}

// endL1Series writes the day's row after the block.
func endL1Series(txn *blockTxn) error {
	st := &txn.l1series
	if !txn.l1fees.known {
		// The block made the fee state unknown: the rows stop here.
		st.on = false
	}
	if !st.on {
		return nil
	}
	st.day.Accrued = txn.l1fees.AccruedFees
	return txn.set(l1FeeDayKey(st.day.Start), st.day.encode())
}

func createsL1Validations(b *pdata.Block) bool {
	for _, tx := range b.Txs {
		if (tx.Type == "ConvertSubnetToL1Tx" || tx.Type == "RegisterL1ValidatorTx") && len(tx.L1Validators) > 0 {
			return true
		}
	}
	return false
}

// holdsL1Validations says the store has an L1 validation row.
func holdsL1Validations(txn *blockTxn) (bool, error) {
	held := false
	prefix := key{tagL1Val}
	err := scanRange(context.Background(), txn.txn, prefix, prefix, nil, false, func(*badger.Item) (bool, error) {
		held = true
		return false, nil
	})
	if err != nil {
		return false, fmt.Errorf("looking for L1 validations: %w", err)
	}
	return held, nil
}

func readL1FeeVal(txn *blockTxn, id ids.ID) (l1FeeValRow, error) {
	v, err := txn.get(l1FeeValKey(id))
	if err != nil {
		return l1FeeValRow{}, fmt.Errorf("reading L1 validation %s fee row: %w", id, err)
	}
	if v == nil {
		return l1FeeValRow{}, fmt.Errorf("L1 validation %s has no fee series row", id)
	}
	return decodeL1FeeVal(v)
}

func writeL1FeeVal(txn *blockTxn, id ids.ID, row *l1FeeValRow) error {
	return txn.set(l1FeeValKey(id), row.encode())
}

// l1SeriesCreated starts the row of a validation a creating tx adds and
// indexes it by subnet and node.
func l1SeriesCreated(txn *blockTxn, v *pdata.L1Validator) error {
	st := &txn.l1series
	if !st.on {
		return nil
	}
	if err := writeL1FeeVal(txn, v.ValidationID, &l1FeeValRow{Created: st.day.Start}); err != nil {
		return err
	}
	if err := txn.set(l1FeeSubnetPrefix(v.Subnet).id(v.ValidationID), nil); err != nil {
		return err
	}
	if v.NodeID == ids.EmptyNodeID {
		return nil
	}
	return txn.set(l1FeeNodePrefix(v.NodeID).id(v.ValidationID), nil)
}

// l1SeriesAdvance charges the active validations the accrued fees' rise
// from before to after at a block's advance, before it deactivates any.
func l1SeriesAdvance(txn *blockTxn, before, after uint64) error {
	st := &txn.l1series
	if !st.on || after == before {
		return nil
	}
	st.day.Total += txn.l1fees.ActiveL1Validators * (after - before)
	if st.day.Swept {
		pending := st.day.Pending
		st.day.Pending = nil
		for _, id := range pending {
			end, err := l1End(txn, id)
			if err != nil {
				return err
			}
			if end > before {
				if err := l1SeriesPaid(txn, id); err != nil {
					return err
				}
			}
		}
		return nil
	}
	st.day.Swept, st.day.Pending = true, nil
	if txn.l1fees.ActiveL1Validators == 0 {
		return nil
	}
	var charged []ids.ID
	prefix := key{tagL1Active}
	err := scanRange(context.Background(), txn.txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
		k := item.Key()
		if beUint64(k[1:9]) > before {
			id, err := ids.ToID(k[9:])
			if err != nil {
				return false, err
			}
			charged = append(charged, id)
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("listing active L1 validators: %w", err)
	}
	for _, id := range charged {
		if err := l1SeriesPaid(txn, id); err != nil {
			return err
		}
	}
	return nil
}

// l1SeriesPaid counts the validation as paying today, once.
func l1SeriesPaid(txn *blockTxn, id ids.ID) error {
	st := &txn.l1series
	row, err := readL1FeeVal(txn, id)
	if err != nil {
		return err
	}
	if row.PaidDay == st.day.Start {
		return nil
	}
	row.PaidDay = st.day.Start
	st.day.Paying++
	return writeL1FeeVal(txn, id, &row)
}

// l1SeriesActivated opens a period of the validation at the accrued fees.
func l1SeriesActivated(txn *blockTxn, id ids.ID) error {
	st := &txn.l1series
	if !st.on {
		return nil
	}
	row, err := readL1FeeVal(txn, id)
	if err != nil {
		return err
	}
	row.Periods = append(row.Periods, l1FeePeriod{From: txn.l1fees.AccruedFees, FromDay: st.day.Start})
	if st.day.Swept {
		st.day.Pending = append(st.day.Pending, id)
	}
	return writeL1FeeVal(txn, id, &row)
}

// l1SeriesDeactivated closes the validation's period at stop, the position
// it paid up to.
func l1SeriesDeactivated(txn *blockTxn, id ids.ID, stop uint64) error {
	st := &txn.l1series
	if !st.on {
		return nil
	}
	row, err := readL1FeeVal(txn, id)
	if err != nil {
		return err
	}
	n := len(row.Periods)
	if n == 0 || row.Periods[n-1].ToDay != 0 {
		return fmt.Errorf("L1 validation %s is deactivated without an active period", id)
	}
	row.Periods[n-1].To, row.Periods[n-1].ToDay = stop, st.day.Start
	accrued := txn.l1fees.AccruedFees
	st.day.Total += stop - accrued // modulo 2^64: stop may be below
	if err := writeL1FeeVal(txn, id, &row); err != nil {
		return err
	}
	if stop > accrued {
		// What it had left, charged as it goes inactive.
		return l1SeriesPaid(txn, id)
	}
	return nil
}
