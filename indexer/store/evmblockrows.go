package store

import (
	"github.com/ava-labs/avalanchego/cache/lru"

	"github.com/avadata/avadata/indexer/netinfo"
)

// blockRows keeps decoded EVM block rows (0x81) across requests: every
// listed transaction shows its block, and a page of an address's
// transactions reads as many block rows as it has items. A block row is
// written once, with its block, and never changed (each block is committed
// exactly once, commit.go), so a kept row never goes stale; a block not
// indexed yet is an error and is not kept. The rows are shared: callers
// read them and never change what they point to.
type blockRows struct {
	entries *lru.Cache[blockRowKey, evmBlockRow]
}

// blockRowEntries bounds the kept rows (a few hundred bytes each): the
// newest blocks, which listings show most, and the hot ones of a busy page.
const blockRowEntries = 1 << 13

type blockRowKey struct {
	chain  netinfo.Chain
	height uint64
}

func newBlockRows() *blockRows {
	return &blockRows{entries: lru.NewCache[blockRowKey, evmBlockRow](blockRowEntries)}
}

// get returns the kept row; a nil blockRows keeps nothing.
func (b *blockRows) get(chain netinfo.Chain, height uint64) (evmBlockRow, bool) {
	if b == nil {
		return evmBlockRow{}, false
	}
	return b.entries.Get(blockRowKey{chain, height})
}

func (b *blockRows) put(chain netinfo.Chain, height uint64, row evmBlockRow) {
	if b != nil {
		b.entries.Put(blockRowKey{chain, height}, row)
	}
}
