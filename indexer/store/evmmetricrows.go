package store

import (
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/avadata/avadata/indexer/metricdata"
)

// The encodings of the EVM metric rows (keys.go 0x9B, 0x9E): fixed layouts,
// integers big-endian, big integers as 32 bytes, after a version byte. The
// bucket's granularity and start are its key's.

const (
	metricBucketLen = 1 + 3*8 + 3*32 + 3*8 + 2*16 + 4*8 + 4*8
	metricTotalsLen = 1 + 6*8
)

type fixedWriter struct{ buf []byte }

func (w *fixedWriter) u64(v uint64) { w.buf = binary.BigEndian.AppendUint64(w.buf, v) }
func (w *fixedWriter) i64(v int64)  { w.u64(uint64(v)) }

func (w *fixedWriter) big(v *big.Int) {
	var b [32]byte
	if v != nil && v.Sign() > 0 {
		v.FillBytes(b[:]) // below 2^256: sums of gas × wei prices
	}
	w.buf = append(w.buf, b[:]...)
}

type fixedReader struct{ buf []byte }

func (r *fixedReader) u64() uint64 {
	v := binary.BigEndian.Uint64(r.buf)
	r.buf = r.buf[8:]
	return v
}
func (r *fixedReader) i64() int64 { return int64(r.u64()) }

func (r *fixedReader) big() *big.Int {
	v := new(big.Int).SetBytes(r.buf[:32])
	r.buf = r.buf[32:]
	return v
}

func encodeMetricBucket(b *metricdata.ChainBucket) []byte {
	w := fixedWriter{buf: make([]byte, 0, metricBucketLen)}
	w.buf = append(w.buf, rowVersion1)
	w.u64(b.Blocks)
	w.u64(b.Txs)
	w.u64(b.GasUsed)
	w.big(b.FeesPaid)
	w.big(b.GasPriceSum)
	w.big(b.MaxGasPrice)
	w.i64(b.FirstBlockTs)
	w.i64(b.LastBlockTs)
	w.i64(b.PrevBlockTs)
	w.u64(b.MaxTps.Count)
	w.u64(b.MaxTps.Seconds)
	w.u64(b.MaxGps.Count)
	w.u64(b.MaxGps.Seconds)
	w.u64(b.ActiveAddresses)
	w.u64(b.ActiveSenders)
	w.u64(b.Deployers)
	w.u64(b.Contracts)
	w.u64(b.CumulativeTxs)
	w.u64(b.CumulativeAddresses)
	w.u64(b.CumulativeContracts)
	w.u64(b.CumulativeDeployers)
	return w.buf
}

func decodeMetricBucket(g metricdata.Granularity, start int64, v []byte) (metricdata.ChainBucket, error) {
	if len(v) != metricBucketLen || v[0] != rowVersion1 {
		return metricdata.ChainBucket{}, fmt.Errorf("metric bucket row of %d bytes (want %d, version %d)", len(v), metricBucketLen, rowVersion1)
	}
	r := fixedReader{buf: v[1:]}
	b := metricdata.ChainBucket{Granularity: g, Start: start}
	b.Blocks = r.u64()
	b.Txs = r.u64()
	b.GasUsed = r.u64()
	b.FeesPaid = r.big()
	b.GasPriceSum = r.big()
	b.MaxGasPrice = r.big()
	b.FirstBlockTs = r.i64()
	b.LastBlockTs = r.i64()
	b.PrevBlockTs = r.i64()
	b.MaxTps = metricdata.Rate{Count: r.u64(), Seconds: r.u64()}
	b.MaxGps = metricdata.Rate{Count: r.u64(), Seconds: r.u64()}
	b.ActiveAddresses = r.u64()
	b.ActiveSenders = r.u64()
	b.Deployers = r.u64()
	b.Contracts = r.u64()
	b.CumulativeTxs = r.u64()
	b.CumulativeAddresses = r.u64()
	b.CumulativeContracts = r.u64()
	b.CumulativeDeployers = r.u64()
	return b, nil
}

func encodeMetricTotals(t *metricdata.ChainTotals) []byte {
	w := fixedWriter{buf: make([]byte, 0, metricTotalsLen)}
	w.buf = append(w.buf, rowVersion1)
	w.u64(t.LastHeight)
	w.i64(t.LastBlockTs)
	w.u64(t.Txs)
	w.u64(t.Addresses)
	w.u64(t.Contracts)
	w.u64(t.Deployers)
	return w.buf
}

func decodeMetricTotals(v []byte) (metricdata.ChainTotals, error) {
	if len(v) != metricTotalsLen || v[0] != rowVersion1 {
		return metricdata.ChainTotals{}, fmt.Errorf("metric totals row of %d bytes", len(v))
	}
	r := fixedReader{buf: v[1:]}
	return metricdata.ChainTotals{LastHeight: r.u64(), LastBlockTs: r.i64(), Txs: r.u64(), Addresses: r.u64(),
		Contracts: r.u64(), Deployers: r.u64()}, nil
}

// copyBucket is b with big integers of its own, so that a transaction
// adding to it leaves the cache's copy alone.
func copyBucket(b metricdata.ChainBucket) metricdata.ChainBucket {
	b.FeesPaid = new(big.Int).Set(b.FeesPaid)
	b.GasPriceSum = new(big.Int).Set(b.GasPriceSum)
	b.MaxGasPrice = new(big.Int).Set(b.MaxGasPrice)
	return b
}
