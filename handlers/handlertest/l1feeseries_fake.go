package handlertest

import (
	"context"

	"github.com/avadata/avadata/indexer/metricdata"
)

// L1FeeSeries is the store's: it records the query and answers with
// L1Fees (nil: a known, empty series).
func (f *Fakes) L1FeeSeries(ctx context.Context, q metricdata.L1FeeQuery) (metricdata.L1FeeSeries, error) {
	f.Mu.Lock()
	fn := f.L1Fees
	f.L1FeeQueries = append(f.L1FeeQueries, q)
	f.Mu.Unlock()
	if err := ctx.Err(); err != nil {
		return metricdata.L1FeeSeries{}, err
	}
	if fn == nil {
		return metricdata.L1FeeSeries{Found: true, Known: true}, nil
	}
	return fn(q)
}
