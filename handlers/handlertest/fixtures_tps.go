package handlertest

import "github.com/avadata/avadata/indexer/store"

const Day = int64(store.BucketSeconds)

// DailyBuckets returns n buckets, newest first, the newest starting at
// newestStart and ending with a block `elapsed` seconds into the Day.
func DailyBuckets(n int, newestStart, elapsed int64) []store.TPSBucket {
	buckets := make([]store.TPSBucket, n)
	for i := range buckets {
		start := newestStart - int64(i)*Day
		last := start + Day - 1
		if i == 0 {
			last = start + elapsed
		}
		buckets[i] = store.TPSBucket{
			Start:        start,
			TxCount:      uint64(1000 + 37*i),
			BlockCount:   uint64(10 + i),
			FirstBlockTs: start,
			LastBlockTs:  last,
		}
	}
	return buckets
}
