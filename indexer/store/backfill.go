package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Back-fill: an EVM chain indexed from a later height than its target
// (state sync, pruning, indexFrom) is filled toward the target once the
// node serves older blocks, without stopping the follower.
//
// It runs in two phases, both under the chain's commit lock, one batch per
// transaction, so a kill at any point resumes exactly:
//
//  1. Filling, downward: each commit writes the blocks just below the
//     cursor's FirstHeight, newest first, and lowers FirstHeight to the
//     lowest of them: the index keeps holding one contiguous range and
//     HistoryFrom drops as it goes. Every row keyed by its block (txs,
//     receipts, transfers, activity, deployer rows, status rows, TPS
//     buckets) comes out as a from-genesis build writes it. The rows a
//     from-genesis build keeps last-write-wins (a contract's deployment,
//     an address's token kind) are written only where absent, and the one
//     it keeps first-write-wins (a contract's standard) is overwritten:
//     writing newest first, the oldest write is the last one.
//  2. Re-deriving, upward: the running state a block carries on from its
//     predecessors (the block rows' cumulative tx counts, NFT ownership,
//     holder counts, collection totals and their per-block history rows)
//     cannot be written downward. Once the fill reaches the target it is
//     cleared and recomputed from the stored transfer rows, from the first
//     held block up to the follower's cursor; while that runs, the
//     follower writes no running state (the re-derive reaches its blocks
//     too), and the re-derive ends in the commit that reaches the cursor.
//
// The state between the two is the back-fill row (keys.go 0x04): absent,
// the running state counts from the cursor's FirstHeight (every store
// written before back-fills existed, and every chain never back-filled).
//
// The C-chain's burn totals (0x62) are running state too, known only from
// genesis on (burns.go): the re-derive writes them when it starts at
// block 1 (backfillburns.go); a chain filled to a later height keeps them
// unknown.

// ErrNotParent means a back-filled block is not the parent of the block
// the index holds after it.
var ErrNotParent = errors.New("the block is not the parent of the indexed block after it")

// The back-fill phases.
const (
	backfillFilling    byte = 1 // blocks being written below FirstHeight
	backfillClearing   byte = 2 // the running state rows being deleted
	backfillRederiving byte = 3 // the running state recomputed from Next on
)

// backfillRow is the 0x04 row of a chain with a back-fill under way.
type backfillRow struct {
	Phase byte
	// DerivedFrom is the first height the running state counted from when
	// the back-fill began.
	DerivedFrom uint64
	// Next is, while re-deriving, the first height whose running state is
	// still to be written.
	Next uint64
}

func backfillKey(chain netinfo.Chain) []byte { return newKey(tagBackfill, chain) }

func (r backfillRow) encode() []byte {
	w := rowWriter{buf: make([]byte, 0, 24)}
	w.byte(rowVersion1)
	w.byte(r.Phase)
	w.uint(r.DerivedFrom)
	w.uint(r.Next)
	return w.buf
}

func decodeBackfillRow(v []byte) (backfillRow, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return backfillRow{}, fmt.Errorf("back-fill row version %d", ver)
	}
	row := backfillRow{Phase: r.byte(), DerivedFrom: r.uint(), Next: r.uint()}
	return row, r.done()
}

func readBackfillRow(txn *badger.Txn, chain netinfo.Chain) (*backfillRow, error) {
	v, err := getValue(txn, backfillKey(chain))
	if err != nil || v == nil {
		return nil, err
	}
	row, err := decodeBackfillRow(v)
	if err != nil {
		return nil, fmt.Errorf("reading %s back-fill row: %w", chain, err)
	}
	return &row, nil
}

// BackfillPending reports whether a back-fill of chain has written older
// blocks whose running state (cumulative tx counts, NFT holdings, holder
// and collection counts) is not re-derived yet: until it is, those values
// count from the height the index first started at, as when HistoryFrom
// is above 1.
func (s *Store) BackfillPending(ctx context.Context, chain netinfo.Chain) (bool, error) {
	pending := false
	err := s.read(ctx, func(txn *badger.Txn) error {
		row, err := readBackfillRow(txn, chain)
		pending = row != nil
		return err
	})
	return pending, err
}

// RunningStateFrom is the first height from which chain's running state
// counts: the block rows' cumulative tx counts count the txs from it on,
// and NFT ownership, holder and collection counts follow the transfers
// from it on. It is HistoryFrom, except while a back-fill is pending:
// during its fill it is the height the index held from before (the
// back-filled blocks are not counted yet), and ok is false while the
// re-derive rebuilds that state (none of it can be trusted until it ends).
func (s *Store) RunningStateFrom(ctx context.Context, chain netinfo.Chain) (from uint64, ok bool, err error) {
	if rs := s.running.get(chain); rs != nil {
		return rs.from, rs.ok, nil
	}
	gen := s.running.generation(chain)
	fresh := false
	err = s.read(ctx, func(txn *badger.Txn) error {
		row, err := readBackfillRow(txn, chain)
		if err != nil {
			return err
		}
		if row != nil {
			from, ok = row.DerivedFrom, row.Phase == backfillFilling
			return nil
		}
		c, err := readCursor(txn, chain, StreamBlocks)
		from, ok, fresh = c.FirstHeight, true, c.Fresh
		return err
	})
	if err != nil {
		return 0, false, fmt.Errorf("reading where %s's running state starts: %w", chain, err)
	}
	if !fresh { // a fresh chain may still start above genesis
		s.running.keep(chain, gen, runningState{from: from, ok: ok})
	}
	return from, ok, nil
}

// skipRunningState says whether the block being written must leave the
// running state alone: it is written downward (a back-fill), or a
// re-derive is under way that will reach it.
func (w *blockTxn) skipRunningState() (bool, error) {
	if w.downward {
		return true, nil
	}
	if !w.backfillRead {
		row, err := readBackfillRow(w.txn, w.chain)
		if err != nil {
			return false, err
		}
		w.backfillRead = true
		w.rederiving = row != nil && row.Phase != backfillFilling
	}
	return w.rederiving, nil
}

// Backfill writes blocks (consecutive heights, in either order) that end
// just below the cursor's FirstHeight, newest first, and lowers
// FirstHeight to the lowest of them; it commits in as many transactions
// as Badger's limits ask, each with the lowered cursor.
func (w *EVMWriter) Backfill(ctx context.Context, blocks []*evmdata.Block) error {
	blocks = slices.Clone(blocks)
	slices.SortFunc(blocks, func(a, b *evmdata.Block) int { return cmp.Compare(b.Number, a.Number) })
	for len(blocks) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := w.backfillSome(blocks)
		if err != nil {
			return err
		}
		blocks = blocks[n:]
	}
	return nil
}

// backfillSome commits a non-empty prefix of blocks (newest first) in one
// transaction, shorter when a block overflows it.
func (w *EVMWriter) backfillSome(blocks []*evmdata.Block) (int, error) {
	limit := len(blocks)
	for {
		n, err := w.backfillPrefix(blocks[:limit])
		var overflow *errOverflow
		if !errors.As(err, &overflow) {
			return n, err
		}
		if overflow.index == 0 {
			return 0, fmt.Errorf("%s block %d alone exceeds one Badger transaction: %w", w.chain, blocks[0].Number, badger.ErrTxnTooBig)
		}
		limit = overflow.index
	}
}

func (w *EVMWriter) backfillPrefix(blocks []*evmdata.Block) (int, error) {
	s, chain := w.s, w.chain
	defer s.chainLocks.lock(chain)()
	txn := s.newBlockTxn(chain)
	defer txn.txn.Discard()
	txn.downward = true
	cursor, err := readCursor(txn.txn, chain, StreamBlocks)
	if err != nil {
		return 0, err
	}
	if cursor.Fresh {
		return 0, fmt.Errorf("back-filling %s: the chain's index is not started", chain)
	}
	txn.cursor = cursor
	row, err := readBackfillRow(txn.txn, chain)
	if err != nil {
		return 0, err
	}
	if row == nil {
		row = &backfillRow{DerivedFrom: cursor.FirstHeight}
	}
	// A fill that starts again (the node serves still older blocks) after a
	// re-derive began makes the re-derive start over once it is done.
	*row = backfillRow{Phase: backfillFilling, DerivedFrom: row.DerivedFrom}
	held, ok, err := readEVMBlock(txn.txn, chain, cursor.FirstHeight)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, fmt.Errorf("back-filling %s: the first held block %d is not indexed", chain, cursor.FirstHeight)
	}
	childParent := held.ParentHash
	n := 0
	for i, b := range blocks {
		if i > 0 && txn.overHalf() {
			break
		}
		if b.Number == 0 || b.Number != cursor.FirstHeight-1-uint64(i) {
			return 0, fmt.Errorf("%s: back-fill block %d where %d was due: %w", chain, b.Number, cursor.FirstHeight-1-uint64(i), ErrNotContiguous)
		}
		if b.Hash != childParent {
			// The node's history is not the one the index holds (its
			// database was replaced, or it lost blocks it had accepted).
			return 0, fmt.Errorf("%s: back-fill block %d has hash %s, but the block after it names parent %s: %w",
				chain, b.Number, b.Hash, childParent, ErrNotParent)
		}
		childParent = b.ParentHash
		txn.blockTs = b.Time()
		if err := w.writeBlock(txn, b); err != nil {
			return 0, overflowOr(fmt.Errorf("back-filling %s block %d: %w", chain, b.Number, err), i)
		}
		if err := txn.countTPS(txn.blockTs, b.TxCount()); err != nil {
			return 0, err
		}
		n++
	}
	first := blocks[n-1].Number
	next := cursor
	next.FirstHeight = first
	if err := txn.flushTPS(); err != nil {
		return 0, overflowOr(err, n-1)
	}
	if err := txn.set(backfillKey(chain), row.encode()); err != nil {
		return 0, overflowOr(err, n-1)
	}
	if err := txn.set(cursorKey(chain, StreamBlocks), next.encode()); err != nil {
		return 0, overflowOr(err, n-1)
	}
	err = txn.txn.Commit()
	if txn.contractsWritten {
		s.contracts.invalidate(chain)
	}
	if err != nil {
		// A failed commit may still have been applied: read both again.
		s.running.set(chain, nil)
		s.forgetHistoryFrom(chain)
		return 0, fmt.Errorf("committing back-filled %s blocks %d..%d: %w", chain, first, blocks[0].Number, err)
	}
	s.noteHistoryFrom(chain, first)
	s.running.set(chain, &runningState{from: row.DerivedFrom, ok: row.Phase == backfillFilling})
	return n, nil
}

// Rederive takes one step of the re-derive (one transaction, at most
// blocks blocks, fewer when Badger's limits ask) and reports whether the
// chain's running state is whole again (nothing is pending), and, while
// not, the next height to re-derive (0 before the re-derive proper
// starts).
// Call it once the fill has reached its target; calling it while blocks
// are still to be back-filled makes them, once written, start it over.
func (w *EVMWriter) Rederive(ctx context.Context, blocks int) (next uint64, done bool, err error) {
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	s, chain := w.s, w.chain
	defer s.chainLocks.lock(chain)()
	txn := s.newBlockTxn(chain)
	defer txn.txn.Discard()
	row, err := readBackfillRow(txn.txn, chain)
	if err != nil || row == nil {
		return 0, row == nil, err
	}
	cursor, err := readCursor(txn.txn, chain, StreamBlocks)
	if err != nil {
		return 0, false, err
	}
	txn.cursor = cursor
	switch row.Phase {
	case backfillFilling:
		row.Phase = backfillClearing
	case backfillClearing:
		// The cached metric rows go with the stored ones, committed or not.
		defer s.dropMetricCache(chain)
		cleared, err := clearRunningState(ctx, txn)
		if err != nil {
			return 0, false, fmt.Errorf("clearing %s running state: %w", chain, err)
		}
		if cleared {
			row.Phase, row.Next = backfillRederiving, cursor.FirstHeight
		}
	case backfillRederiving:
		if row.Next, err = w.rederiveBlocks(ctx, txn, row.Next, cursor, max(blocks, 1)); err != nil {
			return 0, false, err
		}
		done = row.Next >= cursor.NextHeight
		if err := txn.flushMetrics(); err != nil {
			return 0, false, fmt.Errorf("writing %s metric rows: %w", chain, err)
		}
	default:
		return 0, false, fmt.Errorf("%s back-fill row in phase %d", chain, row.Phase)
	}
	if done {
		err = txn.delete(backfillKey(chain))
	} else {
		err = txn.set(backfillKey(chain), row.encode())
	}
	if err != nil {
		return 0, false, err
	}
	err = txn.txn.Commit()
	if txn.contractsWritten {
		s.contracts.invalidate(chain)
	}
	txn.metricsCommitted(err == nil)
	if err != nil {
		s.running.set(chain, nil) // a failed commit may still have been applied
		return 0, false, fmt.Errorf("committing a %s re-derive step: %w", chain, err)
	}
	if done {
		s.running.set(chain, &runningState{from: cursor.FirstHeight, ok: true})
	} else {
		s.running.set(chain, &runningState{from: row.DerivedFrom, ok: row.Phase == backfillFilling})
	}
	return row.Next, done, nil
}

// runningStateTags are the keyspaces of an EVM chain's running state that
// a re-derive recomputes (the block rows' cumulative counts are rewritten
// in place).
func runningStateTags() []byte {
	return []byte{tagNFTOwner, tagNFTBy, tagHolder, tagColl, tag1155, tagHolderH, tagCollH, tagNFTByH,
		tagEMetric, tagELast, tagELastH, tagEMTotals}
}

// clearRunningState deletes running state rows of txn's chain until half
// the transaction's budget is used; true once none is left.
func clearRunningState(ctx context.Context, txn *blockTxn) (bool, error) {
	for _, tag := range runningStateTags() {
		prefix := newKey(tag, txn.chain)
		var keys [][]byte
		err := scanRange(ctx, txn.txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
			keys = append(keys, item.KeyCopy(nil))
			return len(keys) < clearBatch, nil
		})
		if err != nil {
			return false, err
		}
		for i, k := range keys {
			if i > 0 && txn.overHalf() {
				return false, nil
			}
			if err := txn.delete(k); err != nil {
				return false, err
			}
		}
		if len(keys) == clearBatch || txn.overHalf() {
			return false, nil
		}
	}
	return true, nil
}

// clearBatch bounds the keys one clearing transaction deletes per keyspace.
const clearBatch = 20000

// rederiveBlocks recomputes the running state of at most n blocks from
// next on, until the cursor or half the transaction's budget, and returns
// the next height still to do.
func (w *EVMWriter) rederiveBlocks(ctx context.Context, txn *blockTxn, next uint64, cursor Cursor, n int) (uint64, error) {
	end := min(next+uint64(n), cursor.NextHeight)
	// One scan per keyspace for the step's transfers and txs: an iterator
	// of a transaction holding writes costs as much as the writes to open.
	transfers, err := w.storedTransfers(ctx, txn, next, end)
	if err != nil {
		return 0, fmt.Errorf("reading %s transfers of blocks %d..%d: %w", w.chain, next, end-1, err)
	}
	txs, err := w.storedMetricTxs(ctx, txn, next, end, transfers)
	if err != nil {
		return 0, fmt.Errorf("reading %s txs of blocks %d..%d: %w", w.chain, next, end-1, err)
	}
	for ; next < end; next++ {
		if err := w.rederiveBlock(txn, next, cursor.FirstHeight, nftMoves(transfers[next]), txs[next]); err != nil {
			return 0, fmt.Errorf("re-deriving %s block %d: %w", w.chain, next, err)
		}
		if txn.overHalf() {
			return next + 1, nil
		}
	}
	return next, nil
}

// rederiveBlock writes block h's running state as the ordered writer does:
// its cumulative tx count, the C-chain's burn totals, the NFT moves of its
// transfers in log order, and its metric rows (from its txs as
// storedMetricTxs rebuilds them).
func (w *EVMWriter) rederiveBlock(txn *blockTxn, h, first uint64, transfers []evmdata.TokenTransfer, txs []evmdata.Tx) error {
	k := newKey(tagEVMBlock, w.chain).u64(h)
	v, err := txn.get(k)
	if err != nil {
		return err
	}
	if v == nil {
		return fmt.Errorf("the block row is missing")
	}
	row, err := decodeEVMBlock(h, v)
	if err != nil {
		return err
	}
	cumulative := row.TxCount
	if h > max(first, 1) {
		prev, ok, err := readEVMBlock(txn.txn, w.chain, h-1)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("block %d, which it carries on from, is not indexed", h-1)
		}
		cumulative += prev.CumulativeTxs
	}
	if cumulative != row.CumulativeTxs {
		row.CumulativeTxs = cumulative
		if err := txn.set(k, encodeEVMBlockRow(&row)); err != nil {
			return err
		}
	}
	if err := w.rederiveCBurns(txn, h, row.FeesSpent); err != nil {
		return fmt.Errorf("the burn totals: %w", err)
	}
	if err := txn.applyMetrics(&evmdata.Block{Number: h, Timestamp: row.Timestamp, Txs: txs}, h > max(first, 1)); err != nil {
		return fmt.Errorf("the metric rows: %w", err)
	}
	for i := range transfers {
		t := &transfers[i]
		if t.Kind == evmdata.Erc721 {
			err = w.move721(txn, h, t)
		} else {
			err = w.move1155(txn, h, t)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
