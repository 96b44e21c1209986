package store

import (
	"encoding/binary"
	"math/big"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/netinfo"
)

// The key builder: the layout itself is keys.go's table; these put its
// parts together, integers fixed-width big-endian so byte order is numeric
// order.

// key builds a key from a tag, a chain and fixed-width parts.
type key []byte

func newKey(tag byte, chain netinfo.Chain) key { return key{tag, byte(chain)} }

func (k key) u64(v uint64) key { return binary.BigEndian.AppendUint64(k, v) }

func (k key) u32(v uint32) key { return binary.BigEndian.AppendUint32(k, v) }

func (k key) u16(v uint16) key { return binary.BigEndian.AppendUint16(k, v) }

func (k key) addr(a common.Address) key { return append(k, a[:]...) }

func (k key) hash(h common.Hash) key { return append(k, h[:]...) }

func (k key) tokenID(id *big.Int) key { return append(k, tokenIDBytes(id)...) }

func (k key) bytes(b []byte) key { return append(k, b...) }

func (k key) id(id ids.ID) key { return append(k, id[:]...) }

// tokenIDBytes is a token id as 32 big-endian bytes (ids above 2^256 cannot
// come out of a log; they are cut to the low 32 bytes).
func tokenIDBytes(id *big.Int) []byte {
	var b [32]byte
	if id != nil {
		raw := id.Bytes()
		copy(b[32-min(len(raw), 32):], raw[max(len(raw)-32, 0):])
	}
	return b[:]
}

// sizedKey starts a whole key of n bytes with its tag, so that it is built
// in one allocation: the primary writers build several per tx. Only for
// whole keys: a prefix that callers extend in two ways must have no spare
// capacity, or the two keys would share it.
func sizedKey(n int, tag byte) key { return append(make(key, 0, n), tag) }

// wholeKey starts a whole key of n bytes with its tag and chain (sizedKey):
// the EVM writer builds a dozen per tx.
func wholeKey(n int, tag byte, chain netinfo.Chain) key {
	return append(make(key, 0, n), tag, byte(chain))
}

func (k key) shortID(a ids.ShortID) key { return append(k, a[:]...) }

func (k key) seq(n int64, id ids.ID) []byte { return k.u64(uint64(n)).id(id) }

func beUint64(b []byte) uint64 { return binary.BigEndian.Uint64(b) }
