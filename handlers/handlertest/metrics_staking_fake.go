package handlertest

import (
	"context"
	"slices"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/pdata"
)

// StakeSeries is what the fake store holds of the staking series: per
// subnet the series' span and its days (newest first, dense over the
// span), and the validations getValidatorsByDateRange lists. A subnet is
// known when it has an entry in Series.
type StakeSeries struct {
	Series      map[ids.ID]metricdata.StakingSeries
	Validations []FakeValidation
	// Calls records the (from, to, limit) of every StakingSeries call.
	Calls [][3]int64
}

// FakeValidation is one validation with its reward addresses.
type FakeValidation struct {
	Subnet     ids.ID
	Start, End int64
	metricdata.ValidatorRewardAddresses
}

// StakingSeries answers as the store does: the days of the subnet's series
// whose start lies in the days of from..to, newest first, at most limit.
func (f *Fakes) StakingSeries(_ context.Context, subnet ids.ID, from, to int64, limit int) (metricdata.StakingSeries, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.StakeSeries.Calls = append(f.StakeSeries.Calls, [3]int64{from, to, int64(limit)})
	series, ok := f.StakeSeries.Series[subnet]
	if !ok {
		return metricdata.StakingSeries{}, nil
	}
	series.SubnetKnown = true
	all := series.Days
	series.Days = nil
	lo, hi := metricdata.Day.Start(from), metricdata.Day.Start(to)
	for _, d := range all {
		if d.Day >= lo && d.Day <= hi && len(series.Days) < limit {
			series.Days = append(series.Days, d)
		}
	}
	return series, nil
}

// ValidatorRewardAddresses answers as the store does, from Validations
// (kept in start, tx ID order).
func (f *Fakes) ValidatorRewardAddresses(_ context.Context, subnet ids.ID, from, to int64, after *pdata.StakerPos,
	limit int,
) ([]metricdata.ValidatorRewardAddresses, bool, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if _, ok := f.StakeSeries.Series[subnet]; !ok {
		return nil, false, nil
	}
	list := slices.Clone(f.StakeSeries.Validations)
	slices.SortFunc(list, func(a, b FakeValidation) int {
		return cmpStakerPos(pdata.StakerPos{Start: a.Start, TxID: a.TxID}, pdata.StakerPos{Start: b.Start, TxID: b.TxID})
	})
	var out []metricdata.ValidatorRewardAddresses
	for _, v := range list {
		pos := pdata.StakerPos{Start: v.Start, TxID: v.TxID}
		if v.Subnet != subnet || v.Start > to || v.End < from || !afterPos(pos, after, false, cmpStakerPos) {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, v.ValidatorRewardAddresses)
	}
	return out, true, nil
}
