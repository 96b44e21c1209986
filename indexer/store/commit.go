package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/chaindata"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// writeBlockFunc writes one block's rows through w.
type writeBlockFunc[B chaindata.Block] func(w *blockTxn, b B) error

// commitBlocks writes consecutive blocks of one chain stream, starting at its
// cursor, in as few transactions as Badger's limits allow. Each transaction
// holds whole blocks, their TPS counts and the advanced cursor, so every
// commit is exactly-once and a crash resumes at a block edge. A batch too big
// for one transaction is split instead of failing (Badger refuses a
// transaction past MaxBatchSize / MaxBatchCount with ErrTxnTooBig).
//
// A commit that collides with another writer (badger.ErrConflict: two
// primary-network chains touched one UTXO) is returned for the caller to
// retry the batch, as long as nothing of the batch is committed yet. Once a
// first part is, the rest is retried here: the caller's copy of the cursor
// would otherwise lag the stored one and its retry be refused as not
// contiguous.
func commitBlocks[B chaindata.Block](ctx context.Context, s *Store, chain netinfo.Chain, stream Stream,
	blocks []B, now time.Time, write writeBlockFunc[B],
) error {
	committed, conflicts := false, 0
	for len(blocks) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := commitSome(s, chain, stream, blocks, now, write)
		if errors.Is(err, badger.ErrConflict) && committed && conflicts < maxConflictRetries {
			conflicts++
			continue
		}
		if err != nil {
			return err
		}
		committed, conflicts = true, 0
		blocks = blocks[n:]
	}
	return nil
}

// maxConflictRetries bounds the retries of one conflicting transaction
// within a batch; each retry re-reads what the other writer committed, so
// one is normally enough.
const maxConflictRetries = 8

// commitSome commits a non-empty prefix of blocks in one transaction and
// returns its length. When a block overflows the transaction, the blocks
// before it are committed alone (a retry with a shorter prefix); a block that
// overflows a transaction on its own is an error that names it.
func commitSome[B chaindata.Block](s *Store, chain netinfo.Chain, stream Stream, blocks []B, now time.Time,
	write writeBlockFunc[B],
) (int, error) {
	limit := len(blocks)
	for {
		n, err := commitPrefix(s, chain, stream, blocks[:limit], now, write)
		var overflow *errOverflow
		if !errors.As(err, &overflow) {
			return n, err
		}
		if overflow.index == 0 {
			return 0, fmt.Errorf("%s block %d alone exceeds one Badger transaction (%d bytes / %d entries at most): %w",
				chain, blocks[0].Height(), s.db.MaxBatchSize(), s.db.MaxBatchCount(), badger.ErrTxnTooBig)
		}
		limit = overflow.index
	}
}

// errOverflow says which block of a prefix overflowed the transaction.
type errOverflow struct{ index int }

func (e *errOverflow) Error() string {
	return fmt.Sprintf("block %d of the batch overflows the transaction", e.index)
}

// commitPrefix writes blocks into one transaction, stopping early once half
// of Badger's budget is used, and commits them with the cursor.
func commitPrefix[B chaindata.Block](s *Store, chain netinfo.Chain, stream Stream, blocks []B, now time.Time,
	write writeBlockFunc[B],
) (int, error) {
	defer s.chainLocks.lock(chain)()
	w := s.newBlockTxn(chain)
	defer w.txn.Discard()
	// Events written apart from the transaction (webhookevent.go) go again
	// unless its blocks are committed. A commit that failed otherwise than
	// by a conflict may still have been applied: they are kept then (sent
	// at least once, never lost).
	keepApart := false
	defer func() {
		if !keepApart {
			w.dropWebhookEventsApart()
		}
	}()
	cursor, err := readCursor(w.txn, chain, stream)
	if err != nil {
		return 0, err
	}
	w.cursor = cursor
	// Only a chain's block stream is news: the X-chain's vertices are its
	// history before Cortina.
	w.hooks.off = stream != StreamBlocks
	n := 0
	var lastTs int64
	for i, b := range blocks {
		if i > 0 && w.overHalf() {
			break
		}
		if b.Height() != cursor.NextHeight+uint64(i) {
			return 0, fmt.Errorf("%s: block %d where %d was due: %w", chain, b.Height(), cursor.NextHeight+uint64(i), ErrNotContiguous)
		}
		w.blockTs = b.Time()
		err := write(w, b)
		if err == nil {
			err = w.placeWebhookEvents(i == 0)
		}
		if err != nil {
			if errors.Is(err, badger.ErrTxnTooBig) {
				return 0, &errOverflow{index: i}
			}
			return 0, fmt.Errorf("writing %s block %d: %w", chain, b.Height(), err)
		}
		// Only a chain's block stream counts TPS: another stream re-reads
		// txs the chain already counts, or (X-chain vertices) stamps them
		// with the node's acceptance time rather than the network's.
		if stream == StreamBlocks {
			if err := w.countTPS(w.blockTs, b.TxCount()); err != nil {
				return 0, err
			}
		}
		lastTs = w.blockTs
		n++
	}
	last := blocks[n-1]
	next := Cursor{NextHeight: last.Height() + 1, LastApplied: now, LastBlockTs: lastTs, FirstHeight: cursor.FirstHeight}
	if err := w.flushTPS(); err != nil {
		return 0, overflowOr(err, n-1)
	}
	if err := w.flushMetrics(); err != nil {
		return 0, overflowOr(err, n-1)
	}
	if err := w.set(cursorKey(chain, stream), next.encode()); err != nil {
		return 0, overflowOr(err, n-1)
	}
	err = w.txn.Commit()
	keepApart = !errors.Is(err, badger.ErrConflict)
	if w.contractsWritten { // committed or not: a failed commit may still have been applied
		s.contracts.invalidate(chain)
	}
	w.metricsCommitted(err == nil)
	if err != nil {
		return 0, fmt.Errorf("committing %s blocks %d..%d: %w", chain, blocks[0].Height(), last.Height(), err)
	}
	if w.hooks.written > 0 {
		s.notifyWebhooks(chain)
	}
	return n, nil
}

func overflowOr(err error, index int) error {
	if errors.Is(err, badger.ErrTxnTooBig) {
		return &errOverflow{index: index}
	}
	return err
}

// entryOverhead is what Badger adds to an entry beyond its key and value;
// over-estimating keeps the soft budget clear of its hard limits.
const entryOverhead = 24

// blockTxn is one write transaction of a chain's blocks: it counts what it
// holds against Badger's limits and accumulates the TPS buckets it touches.
type blockTxn struct {
	s       *Store
	chain   netinfo.Chain
	txn     *badger.Txn
	size    int64
	count   int64
	buckets map[int64]*TPSBucket
	// contractsWritten says the transaction wrote a contract or deployment
	// row: the chain's cached contracts end with its commit.
	contractsWritten bool

	// cursor is the stream's cursor as the transaction found it.
	cursor Cursor
	// blockTs is the time of the block being written: its own, unless the
	// writer resolves it (an Apricot P-chain block carries none). TPS and
	// the cursor count the block at this time.
	blockTs int64
	// chainTime is the P-chain time after the last block this transaction
	// wrote (valid once chainTimeKnown), the time of the next Apricot block.
	chainTime      int64
	chainTimeKnown bool
	// dagTxNext is the position index (at height 0) of the next DAG-era
	// X-chain tx (valid once dagTxNextKnown): the vertex writer finds it
	// once per transaction and counts on (dagtx.go).
	dagTxNext      uint32
	dagTxNextKnown bool
	// supply is the P-chain supply state after the last block this
	// transaction wrote (supply.go).
	supply supplyState
	// l1fees is the L1 validator fee state after the last P-chain block
	// this transaction wrote (l1fees.go).
	l1fees l1FeeState
	// l1series is the L1 validator fee series' state after it
	// (l1feeseries.go).
	l1series l1SeriesState
	// burns are the chain's burn totals after the last block this
	// transaction wrote (burns.go).
	burns burnState
	// stake is the P-chain staking figures this transaction changed
	// (stakeseries.go).
	stake stakeState
	// prev is the stored record of block prevHeight (nil: not stored),
	// read once for the chain time, the supply and the L1 fees that the
	// transaction's first block carries on from.
	prev       *blockRecord
	prevHeight uint64
	prevRead   bool
	// downward says the transaction back-fills EVM blocks below the
	// cursor's FirstHeight, newest first (backfill.go).
	downward bool
	// rederiving says a back-fill's re-derive is under way (valid once
	// backfillRead): the follower's blocks leave the running state to it.
	rederiving   bool
	backfillRead bool
	// metrics are the EVM metric rows the transaction's blocks changed,
	// written at its commit (evmmetric.go); nil until a block counts.
	metrics *metricTxn
	// contractKinds are the kinds the contract rows (0x88) the transaction
	// read or wrote hold (noteContract).
	contractKinds map[common.Address]evmdata.ErcType
	// lists are the position lists of the block being written
	// (positionlist.go).
	lists positionLists
	// addrTokens are the address-token rows (0x96) the transaction wrote,
	// with the kind each holds (addrTokenWritten).
	addrTokens map[[2 * common.AddressLength]byte]byte
	// hooks are the webhook events of the transaction's blocks
	// (webhookevent.go).
	hooks webhookEvents
	// l1Notes are what the block being written did to L1 validators, for
	// the validator webhooks (webhookl1.go).
	l1Notes l1Notes
}

// previousBlock reads the stored record of the block before height, the
// state the ordered writer carries on from; nil when it is not stored.
func previousBlock(txn *blockTxn, height uint64) (*blockRecord, error) {
	if txn.prevRead && txn.prevHeight == height-1 {
		return txn.prev, nil
	}
	v, err := txn.get(blockKey(txn.chain, height-1))
	if err != nil {
		return nil, fmt.Errorf("reading %s block %d: %w", txn.chain, height-1, err)
	}
	var prev *blockRecord
	if v != nil {
		r, err := decodeBlock(txn.chain, height-1, v)
		if err != nil {
			return nil, fmt.Errorf("reading %s block %d: %w", txn.chain, height-1, err)
		}
		prev = &r
	}
	txn.prev, txn.prevHeight, txn.prevRead = prev, height-1, true
	return prev, nil
}

func (s *Store) newBlockTxn(chain netinfo.Chain) *blockTxn {
	return &blockTxn{s: s, chain: chain, txn: s.db.NewTransaction(true), buckets: map[int64]*TPSBucket{}}
}

func (w *blockTxn) overHalf() bool {
	size, count := w.size, w.count
	if m := w.metrics; m != nil { // the metric rows written at the commit
		size, count = size+m.pendingSize, count+m.pendingCount
	}
	return size > w.s.db.MaxBatchSize()/2 || count > w.s.db.MaxBatchCount()/2
}

func (w *blockTxn) set(k, v []byte) error {
	w.size += int64(len(k) + len(v) + entryOverhead)
	w.count++
	w.contractsWritten = w.contractsWritten || writesContract(k)
	return w.txn.Set(k, v)
}

func (w *blockTxn) delete(k []byte) error {
	w.size += int64(len(k) + entryOverhead)
	w.count++
	w.contractsWritten = w.contractsWritten || writesContract(k)
	return w.txn.Delete(k)
}

// get returns a copy of k's value, or nil when k is absent (the transaction
// sees its own pending writes).
func (w *blockTxn) get(k []byte) ([]byte, error) { return getValue(w.txn, k) }

// has reports whether k exists.
func (w *blockTxn) has(k []byte) (bool, error) {
	_, err := w.txn.Get(k)
	if errors.Is(err, badger.ErrKeyNotFound) {
		return false, nil
	}
	return err == nil, err
}

// countTPS counts a block of time ts holding txs transactions into its day's
// bucket, loading the stored bucket the first time the transaction touches
// that day.
func (w *blockTxn) countTPS(ts int64, txs int) error {
	start := bucketStart(ts)
	bucket, ok := w.buckets[start]
	if !ok {
		loaded, err := readTPSBucket(w.txn, w.chain, start)
		if err != nil {
			return err
		}
		bucket = &loaded
		w.buckets[start] = bucket
	}
	bucket.add(ts, txs)
	return nil
}

func (w *blockTxn) flushTPS() error {
	for _, bucket := range w.buckets {
		if err := w.set(tpsKey(w.chain, bucket.Start), bucket.encode()); err != nil {
			return fmt.Errorf("writing %s tps bucket: %w", w.chain, err)
		}
	}
	return nil
}
