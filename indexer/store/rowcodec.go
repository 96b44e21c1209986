package store

import (
	"encoding/binary"
	"errors"
	"math/big"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"
)

// Rows are compact binary records: varints for integers, raw bytes for
// addresses and hashes, length-prefixed big-endian bytes for big integers.
// rowWriter appends fields; rowReader reads them back in the same order and
// remembers the first failure, so decoders check once at the end.

type rowWriter struct{ buf []byte }

func (w *rowWriter) uint(v uint64)   { w.buf = binary.AppendUvarint(w.buf, v) }
func (w *rowWriter) byte(v byte)     { w.buf = append(w.buf, v) }
func (w *rowWriter) raw(b []byte)    { w.buf = append(w.buf, b...) }
func (w *rowWriter) bytes(b []byte)  { w.uint(uint64(len(b))); w.raw(b) }
func (w *rowWriter) string(s string) { w.bytes([]byte(s)) }

func (w *rowWriter) bool(v bool) {
	if v {
		w.byte(1)
	} else {
		w.byte(0)
	}
}

// big writes nil as a zero-length value that reads back as nil, so "absent"
// (a pre-London base fee) and zero stay apart: zero is written as one 0x00.
func (w *rowWriter) big(v *big.Int) {
	switch {
	case v == nil:
		w.uint(0)
	case v.Sign() == 0:
		w.bytes([]byte{0})
	default:
		w.bytes(v.Bytes())
	}
}

func (w *rowWriter) address(a common.Address) { w.raw(a[:]) }
func (w *rowWriter) id(id ids.ID)             { w.raw(id[:]) }
func (w *rowWriter) shortID(id ids.ShortID)   { w.raw(id[:]) }

// int writes a signed integer (Unix times) as a zig-zag varint.
func (w *rowWriter) int(v int64)        { w.buf = binary.AppendVarint(w.buf, v) }
func (w *rowWriter) hash(h common.Hash) { w.raw(h[:]) }

func (w *rowWriter) optAddress(a *common.Address) {
	w.bool(a != nil)
	if a != nil {
		w.address(*a)
	}
}

var errShortRow = errors.New("row is truncated or malformed")

type rowReader struct {
	buf []byte
	err error
}

func (r *rowReader) fail() { r.err, r.buf = errShortRow, nil }

func (r *rowReader) uint() uint64 {
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *rowReader) raw(n int) []byte {
	if n > len(r.buf) || n < 0 {
		r.fail()
		return make([]byte, max(n, 0))
	}
	b := r.buf[:n:n]
	r.buf = r.buf[n:]
	return b
}

func (r *rowReader) byte() byte { return r.raw(1)[0] }
func (r *rowReader) bool() bool { return r.byte() == 1 }

func (r *rowReader) bytes() []byte {
	n := r.uint()
	if n > uint64(len(r.buf)) {
		r.fail()
		return nil
	}
	return append([]byte(nil), r.raw(int(n))...)
}

func (r *rowReader) string() string { return string(r.bytes()) }

func (r *rowReader) big() *big.Int {
	b := r.bytes()
	if len(b) == 0 {
		return nil
	}
	return new(big.Int).SetBytes(b)
}

func (r *rowReader) address() common.Address {
	return common.BytesToAddress(r.raw(common.AddressLength))
}
func (r *rowReader) hash() common.Hash { return common.BytesToHash(r.raw(common.HashLength)) }

func (r *rowReader) id() ids.ID {
	var id ids.ID
	copy(id[:], r.raw(ids.IDLen))
	return id
}

func (r *rowReader) shortID() ids.ShortID {
	var id ids.ShortID
	copy(id[:], r.raw(ids.ShortIDLen))
	return id
}

func (r *rowReader) int() int64 {
	v, n := binary.Varint(r.buf)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *rowReader) optAddress() *common.Address {
	if !r.bool() {
		return nil
	}
	a := r.address()
	return &a
}

// done returns the first failure, or an error if bytes are left over.
func (r *rowReader) done() error {
	if r.err == nil && len(r.buf) != 0 {
		return errShortRow
	}
	return r.err
}

// writeList writes a list: its length, then each element with write.
func writeList[T any](w *rowWriter, list []T, write func(*rowWriter, T)) {
	w.uint(uint64(len(list)))
	for _, v := range list {
		write(w, v)
	}
}

// readList reads a list writeList wrote, of elements of size bytes each
// (of decodes one from its bytes): a length the rest of the row cannot hold
// fails the row before anything is allocated for it. The reader itself is
// not handed to of, so it stays on its decoder's stack.
func readList[T any](r *rowReader, size int, of func([]byte) T) []T {
	n := r.uint()
	if n > uint64(len(r.buf)/size) {
		r.fail()
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = of(r.raw(size))
	}
	return out
}

func writeIDs(w *rowWriter, list []ids.ID) { writeList(w, list, (*rowWriter).id) }
func readIDs(r *rowReader) []ids.ID {
	return readList(r, ids.IDLen, func(b []byte) ids.ID { return ids.ID(b) })
}

func writeShortIDs(w *rowWriter, list []ids.ShortID) { writeList(w, list, (*rowWriter).shortID) }
func readShortIDs(r *rowReader) []ids.ShortID {
	return readList(r, ids.ShortIDLen, func(b []byte) ids.ShortID { return ids.ShortID(b) })
}
