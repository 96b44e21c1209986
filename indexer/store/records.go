package store

import (
	"encoding/binary"
	"fmt"
	"time"
)

// Cursor is a follower's position, written in the same transaction as the
// data it covers so that a crash can neither lose nor double a block.
type Cursor struct {
	NextHeight  uint64    // the next block height to index
	LastApplied time.Time // wall-clock time of the last write
	LastBlockTs int64     // timestamp of the last indexed block
	// FirstHeight is the first height the stream holds: 1 when it was
	// indexed from genesis, higher when it started where the node's history
	// did (history.go). Every height from it to NextHeight-1 is indexed.
	FirstHeight uint64
	// Fresh says the stream was never written (not stored).
	Fresh bool
}

// cursorSize is the record's size; a record of legacySize was written
// before streams could start above genesis, and starts at 1.
const (
	cursorSize       = 32
	legacyCursorSize = 24
)

func (c Cursor) encode() []byte {
	b := make([]byte, 0, cursorSize)
	b = binary.BigEndian.AppendUint64(b, c.NextHeight)
	b = binary.BigEndian.AppendUint64(b, uint64(c.LastApplied.UnixNano()))
	b = binary.BigEndian.AppendUint64(b, uint64(c.LastBlockTs))
	return binary.BigEndian.AppendUint64(b, max(c.FirstHeight, 1))
}

func decodeCursor(b []byte) (Cursor, error) {
	if len(b) != cursorSize && len(b) != legacyCursorSize {
		return Cursor{}, fmt.Errorf("cursor record has %d bytes, want %d", len(b), cursorSize)
	}
	c := Cursor{
		NextHeight:  binary.BigEndian.Uint64(b),
		LastApplied: time.Unix(0, int64(binary.BigEndian.Uint64(b[8:]))),
		LastBlockTs: int64(binary.BigEndian.Uint64(b[16:])),
		FirstHeight: 1,
	}
	if len(b) == cursorSize {
		c.FirstHeight = binary.BigEndian.Uint64(b[24:])
	}
	return c, nil
}

const tpsBucketSize = 32

func (t TPSBucket) encode() []byte {
	b := make([]byte, 0, tpsBucketSize)
	b = binary.BigEndian.AppendUint64(b, t.TxCount)
	b = binary.BigEndian.AppendUint64(b, t.BlockCount)
	b = binary.BigEndian.AppendUint64(b, uint64(t.FirstBlockTs))
	return binary.BigEndian.AppendUint64(b, uint64(t.LastBlockTs))
}

func decodeTPSBucket(start int64, b []byte) (TPSBucket, error) {
	if len(b) != tpsBucketSize {
		return TPSBucket{}, fmt.Errorf("tps bucket record has %d bytes, want %d", len(b), tpsBucketSize)
	}
	return TPSBucket{
		Start:        start,
		TxCount:      binary.BigEndian.Uint64(b),
		BlockCount:   binary.BigEndian.Uint64(b[8:]),
		FirstBlockTs: int64(binary.BigEndian.Uint64(b[16:])),
		LastBlockTs:  int64(binary.BigEndian.Uint64(b[24:])),
	}, nil
}

// bucketStart returns the start of the UTC day that contains ts.
func bucketStart(ts int64) int64 {
	if ts < 0 {
		return 0
	}
	return ts - ts%BucketSeconds
}

// add counts a block of time ts holding txs transactions into the bucket.
func (t *TPSBucket) add(ts int64, txs int) {
	if t.BlockCount == 0 || ts < t.FirstBlockTs {
		t.FirstBlockTs = ts
	}
	if ts > t.LastBlockTs {
		t.LastBlockTs = ts
	}
	t.TxCount += uint64(txs)
	t.BlockCount++
}
