// Package exportjob runs transaction exports (postTransactionExportJob) in
// the background: it plans an export (the blocks of its dates, pinned into
// its operationId, operationid.go), keeps each job's record and CSV result
// in the store, runs a bounded number of jobs at once in small steps
// (step.go), resumes the unfinished ones after a restart and deletes
// results once they expire. handlers/operations serves the operations on
// top of it; the VM starts it (Run) and stops it with its context.
package exportjob

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// Store is what the runner reads and writes (*store.Store).
type Store interface {
	AddressTxs(ctx context.Context, chain netinfo.Chain, q evmdata.AddressTxQuery) ([]evmdata.IndexedTx, error)
	FirstEVMBlockAtOrAfter(ctx context.Context, chain netinfo.Chain, ts, from, to uint64) (uint64, error)
	Cursor(ctx context.Context, chain netinfo.Chain, stream store.Stream) (store.Cursor, error)

	ExportJob(ctx context.Context, id store.ExportJobID) (store.ExportJob, bool, error)
	CreateExportJob(ctx context.Context, j store.ExportJob) (store.ExportJob, bool, error)
	ExportJobs(ctx context.Context) ([]store.ExportJob, error)
	SaveExportJob(ctx context.Context, j store.ExportJob) error
	AppendExportPart(ctx context.Context, next store.ExportJob, part []byte) error
	ExportParts(ctx context.Context, id store.ExportJobID, parts uint32, fn func(part []byte) error) error
	DeleteExportJob(ctx context.Context, id store.ExportJobID) error
}

// Rows shapes the CSV rows of an export (evm.ExportRows).
type Rows interface {
	Row(evmChainID uint64, itx *evmdata.IndexedTx) []string
}

// Config bounds the exports; zero values take the defaults.
type Config struct {
	// Workers is how many jobs run at once (default 1: exports share the
	// machine with the node and the followers).
	Workers int
	// MaxJobs bounds the jobs queued or running (default 16); more are
	// refused with 429.
	MaxJobs int
	// MaxRows bounds one export's rows (default 50,000: about 18 MB of
	// CSV, which a download holds in memory, as the node's HTTP bridge
	// sends a reply whole): the export then
	// completes with the warning WarnTruncatedExport and the date to go on
	// from. The bound is in rows, not bytes or time, so every replica
	// truncates at the same row.
	MaxRows uint64
	// MaxRunTime bounds one run of a job (default 10 minutes): a job not
	// done by then fails. A job resumed after a restart runs again for as
	// long.
	MaxRunTime time.Duration
	// Lifetime is how long an operation and its result exist after it was
	// created (default 24 hours); then its result is deleted and the
	// operation is unknown (404).
	Lifetime time.Duration
	// StepTxs bounds the transactions one step reads per address (default
	// 256): a step is one store transaction, so progress is saved often.
	StepTxs int
	// IndexPoll is how often a job waits for this node's index to reach
	// its range (default 1s).
	IndexPoll time.Duration
	// ChainWait is how long a run waits for a chain this node does not list
	// (yet: it discovers its EVM chains after a restart) before the job
	// fails (default 2 minutes).
	ChainWait time.Duration
}

func (c Config) withDefaults() Config {
	if c.Workers <= 0 {
		c.Workers = 1
	}
	if c.MaxJobs <= 0 {
		c.MaxJobs = 16
	}
	if c.MaxRows == 0 {
		c.MaxRows = 50_000
	}
	if c.MaxRunTime <= 0 {
		c.MaxRunTime = 10 * time.Minute
	}
	if c.Lifetime <= 0 {
		c.Lifetime = 24 * time.Hour
	}
	if c.StepTxs <= 0 {
		c.StepTxs = 256
	}
	if c.IndexPoll <= 0 {
		c.IndexPoll = time.Second
	}
	if c.ChainWait <= 0 {
		c.ChainWait = 2 * time.Minute
	}
	return c
}

// sweepInterval is how often expired jobs are deleted.
const sweepInterval = time.Minute

// Runner runs the exports. Create it with New, run it with Run.
type Runner struct {
	store Store
	node  api.NodeView
	rows  Rows
	// header is the CSV header row.
	header []string
	// primary runs the primary-network exports (nil: refused).
	primary *primaryExports
	cfg     Config
	log     logging.Logger
	now     func() time.Time

	queue chan store.ExportJobID
	mu    sync.Mutex
	// active holds the jobs queued or running, so each runs once; jobs
	// queued before Run wait in the queue.
	active map[store.ExportJobID]bool
}

// New returns a runner; nothing runs before Run. now may be nil (the
// clock).
func New(st Store, node api.NodeView, rows Rows, header []string, cfg Config, log logging.Logger, now func() time.Time) *Runner {
	cfg = cfg.withDefaults()
	if log == nil {
		log = logging.NoLog{}
	}
	if now == nil {
		now = time.Now
	}
	return &Runner{store: st, node: node, rows: rows, header: header, cfg: cfg, log: log, now: now,
		queue: make(chan store.ExportJobID, cfg.MaxJobs), active: map[store.ExportJobID]bool{}}
}

// Run resumes the unfinished jobs the store holds, then runs jobs and
// deletes expired ones until ctx ends; it returns once every worker has
// stopped (a job stopped mid-way resumes at the next Run).
func (r *Runner) Run(ctx context.Context) {
	if err := r.resume(ctx); err != nil && ctx.Err() == nil {
		r.log.Error("resuming export jobs", zap.Error(err))
	}
	var wg sync.WaitGroup
	for range r.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(ctx)
		}()
	}
	r.sweepUntilDone(ctx)
	wg.Wait()
}

// resume queues the jobs a previous run left unfinished.
func (r *Runner) resume(ctx context.Context) error {
	jobs, err := r.store.ExportJobs(ctx)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		if !j.State.Done() {
			if err := r.enqueue(j.ID); err != nil {
				return err
			}
			r.log.Info("resuming export job", zap.String("operationId", j.OperationID), zap.Uint64("rows", j.Rows))
		}
	}
	return nil
}

// errBusy is a job refused because MaxJobs are queued or running.
var errBusy = errors.New("too many exports in progress")

// enqueue queues a job unless it is queued or running already.
func (r *Runner) enqueue(id store.ExportJobID) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active[id] {
		return nil
	}
	if len(r.active) >= r.cfg.MaxJobs {
		return errBusy
	}
	r.active[id] = true
	r.queue <- id // never blocks: the queue holds MaxJobs
	return nil
}

func (r *Runner) finished(id store.ExportJobID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.active, id)
}

// work runs queued jobs one after the other until ctx ends.
func (r *Runner) work(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case id := <-r.queue:
			r.runRecovered(ctx, id)
		}
	}
}

// runRecovered runs one job; a panic fails the job instead of the node.
func (r *Runner) runRecovered(ctx context.Context, id store.ExportJobID) {
	defer r.finished(id)
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("export job panicked", zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			r.failJob(ctx, id, fmt.Errorf("the export stopped on an internal error: %v", p))
		}
	}()
	if err := r.runJob(ctx, id); err != nil && ctx.Err() == nil {
		r.log.Warn("export job failed", zap.Error(err))
		r.failJob(ctx, id, err)
	}
}

// failJob records that a job failed with err.
func (r *Runner) failJob(ctx context.Context, id store.ExportJobID, err error) {
	j, found, rerr := r.store.ExportJob(ctx, id)
	if rerr != nil || !found || j.State.Done() {
		return
	}
	j.State, j.Code, j.Message = store.ExportFailed, codeInternal, err.Error()
	var invalid *invalidError
	if errors.As(err, &invalid) {
		j.Code = codeInvalidRequest
	}
	j.UpdatedAtMs = r.now().UnixMilli()
	if err := r.store.SaveExportJob(ctx, j); err != nil && ctx.Err() == nil {
		r.log.Error("recording a failed export job", zap.Error(err))
	}
}

// The OpenAPI's OperationStatusCode values.
const (
	codeInvalidRequest = "ErrInvalidRequest"
	codeInternal       = "ErrInternal"
	codeTruncated      = "WarnTruncatedExport"
)

// invalidError is a job this node cannot run as asked (a chain it does not
// follow): ErrInvalidRequest rather than ErrInternal.
type invalidError struct{ msg string }

func (e *invalidError) Error() string { return e.msg }

// sweepUntilDone deletes expired jobs now and every sweepInterval until
// ctx ends.
func (r *Runner) sweepUntilDone(ctx context.Context) {
	ticker := time.NewTicker(sweepInterval)
	defer ticker.Stop()
	for {
		if err := r.sweep(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("deleting expired export jobs", zap.Error(err))
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
	}
}

// sweep deletes the jobs whose operation has expired, and the records
// that do not decode (another avadata's, or another pageTokenSecret's).
func (r *Runner) sweep(ctx context.Context) error {
	jobs, err := r.store.ExportJobs(ctx)
	if err != nil {
		return err
	}
	now := r.now()
	for _, j := range jobs {
		spec, err := decodeOperationID(r.node.PageTokenKey(), j.OperationID, now)
		if err == nil && !r.expired(spec, now) {
			continue
		}
		r.mu.Lock()
		running := r.active[j.ID]
		r.mu.Unlock()
		if running {
			continue // deleted at the next sweep, once it has stopped
		}
		if err := r.store.DeleteExportJob(ctx, j.ID); err != nil {
			return err
		}
	}
	return nil
}

// expired reports whether an operation's lifetime is over.
func (r *Runner) expired(spec Spec, now time.Time) bool {
	return now.Sub(spec.CreatedAt) > r.cfg.Lifetime
}

// ExpiresAt is when an operation and its result are deleted.
func (r *Runner) ExpiresAt(spec Spec) time.Time { return spec.CreatedAt.Add(r.cfg.Lifetime) }
