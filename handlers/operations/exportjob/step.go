package exportjob

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// A job runs in steps. Each step reads the next transactions of the chain
// being exported, at most StepTxs per address, and stores them as one part
// of the CSV together with the job's new position, in one transaction
// (store.AppendExportPart): a job stopped between two steps resumes after
// the last part, so no row is lost or written twice.
//
// Rows are the transactions in which one of the addresses is the sender,
// the recipient or the contract created (the address's native
// transactions, listNativeTransactions' set), each once, ordered by chain
// (in the request's order), then block, then position in the block.

// runJob runs a job's steps until it is done, its time is up or ctx ends.
func (r *Runner) runJob(ctx context.Context, id store.ExportJobID) error {
	j, found, err := r.store.ExportJob(ctx, id)
	if err != nil || !found || j.State.Done() {
		return err
	}
	spec, err := decodeOperationID(r.node.PageTokenKey(), j.OperationID, r.now())
	if err != nil {
		return &invalidError{msg: err.Error()}
	}
	if r.expired(spec, r.now()) {
		return nil // the sweep deletes it
	}
	// The bound is per run: a job resumed after a restart gets it again.
	stepCtx, cancel := context.WithTimeout(ctx, r.cfg.MaxRunTime)
	defer cancel()
	started := r.now()
	for !j.State.Done() {
		if j, err = r.step(stepCtx, spec, j); err != nil {
			if errors.Is(err, errChainUnknown) && r.now().Sub(started) < r.cfg.ChainWait {
				if err = sleep(stepCtx, r.cfg.IndexPoll); err == nil {
					continue
				}
			}
			if errors.Is(err, errChainUnknown) {
				return &invalidError{msg: fmt.Sprintf("this node does not follow the chain %s the export asks for",
					spec.Chains[j.ChainIndex].Stream)}
			}
			if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
				return fmt.Errorf("the export did not finish within %s (it had written %d rows)", r.cfg.MaxRunTime, j.Rows)
			}
			return err
		}
	}
	return nil
}

// errChainUnknown is a chain this node's network does not list: not
// followed, or not discovered yet (the node finds its EVM chains after the
// runner starts, so a job resumed at start waits Config.ChainWait for it).
var errChainUnknown = errors.New("chain not followed")

// sleep waits d unless ctx ends first.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// step advances j by one step and returns its new record.
func (r *Runner) step(ctx context.Context, spec Spec, j store.ExportJob) (store.ExportJob, error) {
	if j.ChainIndex >= len(spec.Chains) {
		return r.complete(ctx, spec, j)
	}
	if spec.Primary != 0 {
		return r.primaryStep(ctx, spec, j)
	}
	c := spec.Chains[j.ChainIndex]
	if c.Empty() {
		return r.save(ctx, nextChain(j))
	}
	ci, ok := r.chainOfStream(c.Stream)
	if !ok {
		return j, errChainUnknown
	}
	reached, err := r.indexReached(ctx, ci, c.To)
	if err != nil || !reached {
		return j, err
	}
	txs, chainDone, err := r.nextTxs(ctx, ci, c, spec.Addresses, j)
	if err != nil {
		return j, err
	}
	next := j
	if len(txs) > 0 {
		last := txs[len(txs)-1].Tx
		next.HasAfter, next.AfterBlock, next.AfterIndex = true, txs[len(txs)-1].Block.Number, last.Index
	}
	if chainDone {
		next = nextChain(next)
	}
	txs = slices.DeleteFunc(txs, func(itx evmdata.IndexedTx) bool { return !involves(&itx.Tx, spec.Addresses) })
	if left := r.cfg.MaxRows - j.Rows; uint64(len(txs)) > left {
		next.State, next.Code = store.ExportTruncated, codeTruncated
		next.NextDate = time.Unix(int64(txs[left].Block.Timestamp), 0).UTC().Format(time.DateOnly)
		next.Message = fmt.Sprintf("the export stopped at %d rows, its bound: the rows from %s on (block %d of chain %d) are not in it; "+
			"ask for another export with firstDate %s", r.cfg.MaxRows, next.NextDate, txs[left].Block.Number, ci.EVMChainID, next.NextDate)
		txs = txs[:left]
	}
	rows := make([][]string, len(txs))
	for i := range txs {
		rows[i] = r.rows.Row(ci.EVMChainID, &txs[i])
	}
	return r.appendRows(ctx, j, next, r.header, rows)
}

// appendRows stores the step from j to next with its rows as the job's
// next part (nothing but the progress when there are none).
func (r *Runner) appendRows(ctx context.Context, j, next store.ExportJob, header []string, rows [][]string) (store.ExportJob, error) {
	if len(rows) == 0 && next.State == store.ExportRunning {
		return r.save(ctx, next)
	}
	part, err := csvPart(header, rows, j.Parts == 0)
	if err != nil {
		return j, err
	}
	next.Rows += uint64(len(rows))
	next.Parts++
	next.Bytes += uint64(len(part))
	if next.State == store.ExportRunning {
		next.Message = fmt.Sprintf("running: %d rows so far", next.Rows)
	}
	next.UpdatedAtMs = r.now().UnixMilli()
	if err := r.store.AppendExportPart(ctx, next, part); err != nil {
		return j, err
	}
	return next, nil
}

// nextTxs reads the transactions of the addresses on chain c after j's
// position, in order and each once: at most StepTxs per address, cut where
// every address's reads are complete (an address that filled its batch may
// have more before another's last). chainDone says the chain has no more.
func (r *Runner) nextTxs(ctx context.Context, ci netinfo.ChainInfo, c ChainRange, addrs []common.Address,
	j store.ExportJob,
) ([]evmdata.IndexedTx, bool, error) {
	q := evmdata.AddressTxQuery{Blocks: evmdata.BlockRange{From: c.From, To: c.To + 1}, Pinned: c.To, Limit: r.cfg.StepTxs}
	if j.HasAfter {
		q.After = &evmdata.TxPos{Block: j.AfterBlock, Index: j.AfterIndex}
	}
	var (
		all   []evmdata.IndexedTx
		bound *evmdata.TxPos // the last position every address's reads cover
	)
	for _, a := range addrs {
		q.Address = a
		txs, err := r.store.AddressTxs(ctx, ci.Chain, q)
		if err != nil {
			return nil, false, err
		}
		if len(txs) == q.Limit {
			last := txPos(&txs[len(txs)-1])
			if bound == nil || last.Less(*bound) {
				bound = &last
			}
		}
		all = append(all, txs...)
	}
	slices.SortFunc(all, func(a, b evmdata.IndexedTx) int {
		pa, pb := txPos(&a), txPos(&b)
		switch {
		case pa.Less(pb):
			return -1
		case pb.Less(pa):
			return 1
		}
		return 0
	})
	all = slices.CompactFunc(all, func(a, b evmdata.IndexedTx) bool { return txPos(&a) == txPos(&b) })
	if bound == nil {
		return all, true, nil
	}
	cut := slices.IndexFunc(all, func(itx evmdata.IndexedTx) bool { return bound.Less(txPos(&itx)) })
	if cut >= 0 {
		all = all[:cut]
	}
	return all, false, nil
}

func txPos(itx *evmdata.IndexedTx) evmdata.TxPos {
	return evmdata.TxPos{Block: itx.Block.Number, Index: itx.Tx.Index}
}

// involves reports whether one of addrs sent tx, received it or is the
// contract it created.
func involves(tx *evmdata.Tx, addrs []common.Address) bool {
	for _, a := range addrs {
		if tx.From == a || (tx.To != nil && *tx.To == a) || (tx.ContractAddress != nil && *tx.ContractAddress == a) {
			return true
		}
	}
	return false
}

// csvPart writes rows as CSV, after the header row in the first part.
func csvPart(header []string, rows [][]string, first bool) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if first {
		if err := w.Write(header); err != nil {
			return nil, err
		}
	}
	for _, row := range rows {
		if err := w.Write(row); err != nil {
			return nil, err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("writing CSV rows: %w", err)
	}
	if buf.Len() == 0 {
		return []byte{}, nil
	}
	return buf.Bytes(), nil
}

// nextChain moves j to the start of the next chain.
func nextChain(j store.ExportJob) store.ExportJob {
	j.ChainIndex++
	j.HasAfter, j.AfterBlock, j.AfterIndex = false, 0, 0
	return j
}

// complete ends a job whose every chain is exported; a result without
// rows is the header row alone.
func (r *Runner) complete(ctx context.Context, spec Spec, j store.ExportJob) (store.ExportJob, error) {
	j.State, j.Message = store.ExportCompleted, describe(spec, j.Rows)
	j.UpdatedAtMs = r.now().UnixMilli()
	if j.Parts == 0 {
		header := r.header
		if spec.Primary != 0 && r.primary != nil {
			header = r.primary.header
		}
		part, err := csvPart(header, nil, true)
		if err != nil {
			return j, err
		}
		j.Parts, j.Bytes = 1, uint64(len(part))
		return j, r.store.AppendExportPart(ctx, j, part)
	}
	return j, r.store.SaveExportJob(ctx, j)
}

// save stores j's progress when a step wrote no part.
func (r *Runner) save(ctx context.Context, j store.ExportJob) (store.ExportJob, error) {
	j.UpdatedAtMs = r.now().UnixMilli()
	return j, r.store.SaveExportJob(ctx, j)
}

// describe says what a completed export holds.
func describe(spec Spec, rows uint64) string {
	ranges := make([]string, len(spec.Chains))
	for i, c := range spec.Chains {
		if c.Empty() {
			ranges[i] = c.Stream + ": no blocks"
		} else {
			ranges[i] = fmt.Sprintf("%s: blocks %d-%d", c.Stream, c.From, c.To)
		}
	}
	return fmt.Sprintf("exported %d transactions of %d addresses (%s)", rows, len(spec.Addresses)+len(spec.PrimaryAddresses),
		strings.Join(ranges, "; "))
}

// chainOfStream finds the followed EVM chain a stream names.
func (r *Runner) chainOfStream(stream string) (netinfo.ChainInfo, bool) {
	for _, ci := range r.node.Network().EVMChains() {
		if api.EVMChainStream(ci) == stream {
			return ci, true
		}
	}
	return netinfo.ChainInfo{}, false
}

// indexReached reports whether this node has indexed chain up to height;
// when not, it waits IndexPoll first (a replica behind the one that
// created the export catches up, then runs it).
func (r *Runner) indexReached(ctx context.Context, ci netinfo.ChainInfo, height uint64) (bool, error) {
	cursor, err := r.store.Cursor(ctx, ci.Chain, store.StreamBlocks)
	if err != nil {
		return false, fmt.Errorf("reading the indexed height of %s: %w", ci.Chain, err)
	}
	// Rows carry the EVM chain id, which the follower reads from the node
	// when it starts.
	if cursor.NextHeight > height && ci.EVMChainID != 0 {
		return true, nil
	}
	return false, sleep(ctx, r.cfg.IndexPoll)
}
