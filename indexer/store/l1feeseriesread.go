package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// L1FeeSeries answers q from the fee series rows (l1feeseries.go): one read
// of the day rows in the range (and the one before it), and for a subnet,
// node or validation one row per validation; the figures of each day are
// then arithmetic on them.
func (s *Store) L1FeeSeries(ctx context.Context, q metricdata.L1FeeQuery) (metricdata.L1FeeSeries, error) {
	var out metricdata.L1FeeSeries
	err := s.read(ctx, func(txn *badger.Txn) error {
		var err error
		out, err = readL1FeeSeries(ctx, txn, q)
		return err
	})
	if err != nil {
		return metricdata.L1FeeSeries{}, fmt.Errorf("reading the L1 validator fee series: %w", err)
	}
	return out, nil
}

func readL1FeeSeries(ctx context.Context, txn *badger.Txn, q metricdata.L1FeeQuery) (metricdata.L1FeeSeries, error) {
	out := metricdata.L1FeeSeries{Known: true}
	cursor, err := readCursor(txn, netinfo.P, StreamBlocks)
	if err != nil {
		return out, err
	}
	// Which validations, and whether the subject is known.
	var vals []ids.ID
	switch q.Scope {
	case metricdata.L1FeeTotal:
		out.Found = true
	case metricdata.L1FeeValidation:
		row, err := getValue(txn, l1ValidationKey(q.Validation))
		if err != nil {
			return out, fmt.Errorf("reading L1 validation %s: %w", q.Validation, err)
		}
		out.Found = row != nil
		vals = []ids.ID{q.Validation}
	case metricdata.L1FeeSubnet:
		row, err := getValue(txn, subnetKey(q.Subnet))
		if err != nil {
			return out, fmt.Errorf("reading subnet %s: %w", q.Subnet, err)
		}
		if vals, err = l1FeeMembers(ctx, txn, l1FeeSubnetPrefix(q.Subnet)); err != nil {
			return out, err
		}
		out.Found = row != nil || len(vals) > 0
	case metricdata.L1FeeNode:
		if vals, err = l1FeeMembers(ctx, txn, l1FeeNodePrefix(q.Node)); err != nil {
			return out, err
		}
		// A node the index knows as a staker, without an L1 validation,
		// has an empty series.
		out.Found = len(vals) > 0
		if !out.Found {
			if out.Found, err = anyKey(ctx, txn, key{tagStkNode}.bytes(q.Node.Bytes())); err != nil {
				return out, fmt.Errorf("looking for node %s's stakers: %w", q.Node, err)
			}
		}
	default:
		return out, fmt.Errorf("unknown L1 fee scope %d", q.Scope)
	}
	if cursor.NextHeight <= 1 {
		return out, nil // no P-chain block indexed yet
	}
	newest := l1FeeDay(cursor.LastBlockTs)
	v, err := getValue(txn, l1FeeDayKey(newest))
	if err != nil {
		return out, fmt.Errorf("reading the L1 fee row of day %d: %w", newest, err)
	}
	if v == nil {
		// Every block writes its day's row once the rows have started:
		// either no validation exists yet, or the rows are missing.
		held, err := anyKey(ctx, txn, key{tagL1Val})
		if err != nil {
			return out, err
		}
		if held {
			out.Found, out.Known = out.Found || q.Scope == metricdata.L1FeeNode, false
		}
		return out, nil
	}
	if !out.Found {
		return out, nil
	}

	// The first day of the series.
	rows := make([]l1FeeValRow, 0, len(vals))
	first := int64(-1)
	for _, id := range vals {
		v, err := getValue(txn, l1FeeValKey(id))
		if err != nil {
			return out, fmt.Errorf("reading L1 validation %s fee row: %w", id, err)
		}
		if v == nil {
			out.Known = false // a validation from before the rows
			return out, nil
		}
		row, err := decodeL1FeeVal(v)
		if err != nil {
			return out, fmt.Errorf("L1 validation %s fee row: %w", id, err)
		}
		rows = append(rows, row)
		if first < 0 || row.Created < first {
			first = row.Created
		}
	}
	if q.Scope == metricdata.L1FeeTotal {
		prefix := key{tagL1FeeDay}
		err := scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
			first = int64(beUint64(item.Key()[1:]))
			return false, nil
		})
		if err != nil {
			return out, fmt.Errorf("finding the first L1 fee day: %w", err)
		}
	}
	if first < 0 {
		return out, nil // a subnet without L1 validations
	}
	lo, hi := max(l1FeeDay(q.From), first), min(l1FeeDay(q.To), newest)
	if lo > hi {
		return out, nil
	}

	// The days' rows, from the day before lo (index 0) to hi.
	n := int((hi-lo)/l1FeeDaySeconds) + 1
	days, err := readL1FeeDays(ctx, txn, lo-l1FeeDaySeconds, n+1)
	if err != nil {
		return out, err
	}
	cum := make([]uint64, n+1)
	paying := make([]uint64, n+1)
	if q.Scope == metricdata.L1FeeTotal {
		for i, d := range days {
			cum[i] = d.Total
			if d.Start == lo+int64(i-1)*l1FeeDaySeconds {
				paying[i] = d.Paying
			}
		}
	} else {
		prev := make([]uint64, len(rows))
		for i := range n + 1 {
			day := lo + int64(i-1)*l1FeeDaySeconds
			for j := range rows {
				c := rows[j].cumulative(day, days[i].Accrued)
				cum[i] += c
				if i > 0 && c > prev[j] {
					paying[i]++
				}
				prev[j] = c
			}
		}
	}
	out.Days = make([]metricdata.L1FeeDay, 0, n)
	for i := n; i >= 1; i-- {
		out.Days = append(out.Days, metricdata.L1FeeDay{
			Start:      lo + int64(i-1)*l1FeeDaySeconds,
			Fees:       cum[i] - cum[i-1],
			Cumulative: cum[i],
			Paying:     paying[i],
		})
	}
	return out, nil
}

// cumulative is what the validation was charged through the day, given
// the accrued fees after the day's last block.
func (r *l1FeeValRow) cumulative(day int64, accrued uint64) uint64 {
	var c uint64
	for _, p := range r.Periods {
		switch {
		case day < p.FromDay:
		case p.ToDay != 0 && p.ToDay <= day:
			c += p.To - p.From
		case accrued > p.From: // always, from its first day on
			c += accrued - p.From
		}
	}
	return c
}

// readL1FeeDays returns n consecutive days from the one starting at from,
// each the row of the latest day at or before it (zero before any).
func readL1FeeDays(ctx context.Context, txn *badger.Txn, from int64, n int) ([]l1FeeDayRow, error) {
	prefix := key{tagL1FeeDay}
	var carry l1FeeDayRow
	carry.Start = -1
	err := scanRange(ctx, txn, prefix, prefix, l1FeeDayKey(from+1), true, func(item *badger.Item) (bool, error) {
		day := int64(beUint64(item.Key()[1:]))
		v, err := item.ValueCopy(nil)
		if err != nil {
			return false, err
		}
		carry, err = decodeL1FeeDay(day, v)
		return false, err
	})
	if err != nil {
		return nil, fmt.Errorf("reading the L1 fee row before day %d: %w", from, err)
	}
	out := make([]l1FeeDayRow, n)
	i := 0
	end := from + int64(n)*l1FeeDaySeconds
	err = scanRange(ctx, txn, prefix, l1FeeDayKey(from+1), l1FeeDayKey(end), false, func(item *badger.Item) (bool, error) {
		day := int64(beUint64(item.Key()[1:]))
		for ; i < n && from+int64(i)*l1FeeDaySeconds < day; i++ {
			out[i] = carry
		}
		v, err := item.ValueCopy(nil)
		if err != nil {
			return false, err
		}
		if carry, err = decodeL1FeeDay(day, v); err != nil {
			return false, err
		}
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the L1 fee rows from day %d: %w", from, err)
	}
	for ; i < n; i++ {
		out[i] = carry
	}
	return out, nil
}

// l1FeeMembers lists the validations under a 0x3F prefix.
func l1FeeMembers(ctx context.Context, txn *badger.Txn, prefix key) ([]ids.ID, error) {
	var out []ids.ID
	err := scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
		id, err := ids.ToID(item.Key()[len(prefix):])
		if err != nil {
			return false, err
		}
		out = append(out, id)
		return true, nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing L1 validations: %w", err)
	}
	return out, nil
}

// anyKey says a key with the prefix exists.
func anyKey(ctx context.Context, txn *badger.Txn, prefix key) (bool, error) {
	found := false
	err := scanRange(ctx, txn, prefix, prefix, nil, false, func(*badger.Item) (bool, error) {
		found = true
		return false, nil
	})
	return found, err
}
