package exportjob

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// What the operations ask of the runner: plan an export, create it, say
// where one is, and hand over its result.

// Errors the operations turn into replies.
var (
	// ErrUnknown: an operationId avadata did not issue (with this node's
	// page-token key).
	ErrUnknown = errNotOurs
	// ErrExpired: an operation past its lifetime, whose result is gone.
	ErrExpired = errors.New("the operation has expired")
	// ErrBusy: MaxJobs exports are queued or running.
	ErrBusy = errBusy
)

// Job is an operation as this node knows it.
type Job struct {
	OperationID string
	Spec        Spec
	Record      store.ExportJob
	ExpiresAt   time.Time
}

// Plan is an export as asked: the chains and addresses, and the UTC days
// it covers (nil: from the first block, to the last block indexed now).
type Plan struct {
	Chains    []netinfo.ChainInfo
	Addresses []common.Address
	// Primary, when set, makes it a primary-network export of
	// PrimaryAddresses (X/P-chain and EVM addresses, by their 20 bytes) on
	// PrimaryChains; Chains and Addresses are then unused.
	Primary          PrimaryKind
	PrimaryChains    []netinfo.Chain
	PrimaryAddresses []ids.ShortID
	FirstDay         *time.Time
	LastDay          *time.Time
}

// day is one UTC day.
const day = 24 * time.Hour

// Spec fixes a plan's blocks: each chain's range runs from the first block
// of FirstDay to the last block of LastDay, within what this node has
// indexed now (a binary search over the index's block times, which never
// decrease along a chain).
func (r *Runner) Spec(ctx context.Context, p Plan) (Spec, error) {
	if p.Primary != 0 {
		return r.primarySpec(ctx, p)
	}
	spec := Spec{Addresses: p.Addresses, CreatedAt: r.now().Truncate(time.Second)}
	for _, ci := range p.Chains {
		cursor, err := r.store.Cursor(ctx, ci.Chain, store.StreamBlocks)
		if err != nil {
			return Spec{}, fmt.Errorf("reading the indexed height of %s: %w", ci.Chain, err)
		}
		height := max(cursor.NextHeight, 1) - 1
		// The chain's index may start above genesis (a state-synced
		// node): an export without firstDate starts at its first block,
		// and dates that may hold earlier blocks are refused
		// (api/history.go). The cursor read here is this request's.
		first := max(cursor.FirstHeight, 1)
		history := api.NewHistory(ci, first)
		c := ChainRange{Stream: api.EVMChainStream(ci), From: first, To: height}
		if p.FirstDay != nil {
			if c.From, err = r.store.FirstEVMBlockAtOrAfter(ctx, ci.Chain, unixSeconds(*p.FirstDay), first, height); err != nil {
				return Spec{}, err
			}
			if history.Partial() && c.From == first {
				return Spec{}, api.BadRequest("%s: firstDate %s may hold blocks before it; ask for a later firstDate, "+
					"or give the node the chain's full history and set indexFrom", history.Starts(), p.FirstDay.Format(time.DateOnly))
			}
		}
		if p.LastDay != nil {
			next, err := r.store.FirstEVMBlockAtOrAfter(ctx, ci.Chain, unixSeconds(p.LastDay.Add(day)), first, height)
			if err != nil {
				return Spec{}, err
			}
			if history.Partial() && next == first {
				return Spec{}, api.BadRequest("%s: lastDate %s ends before it; ask for a later lastDate, "+
					"or give the node the chain's full history and set indexFrom", history.Starts(), p.LastDay.Format(time.DateOnly))
			}
			c.To = next - 1
		}
		spec.Chains = append(spec.Chains, c)
	}
	return spec, nil
}

func unixSeconds(t time.Time) uint64 { return uint64(max(t.Unix(), 0)) }

// Create starts the export of spec and returns its job.
func (r *Runner) Create(ctx context.Context, spec Spec) (Job, error) {
	if !r.hasRoom() {
		return Job{}, ErrBusy
	}
	opID, err := encodeOperationID(r.node.PageTokenKey(), spec)
	if err != nil {
		return Job{}, err
	}
	return r.open(ctx, opID, spec)
}

// Status returns the job of an operationId. A valid operation this node
// has not seen (created through another replica, or deleted here) is
// started here: it runs the same export.
func (r *Runner) Status(ctx context.Context, operationID string) (Job, error) {
	spec, err := decodeOperationID(r.node.PageTokenKey(), operationID, r.now())
	if err != nil {
		return Job{}, err
	}
	if r.expired(spec, r.now()) {
		return Job{}, ErrExpired
	}
	return r.open(ctx, operationID, spec)
}

// open finds or creates the job of an operation and makes sure an
// unfinished one is queued.
func (r *Runner) open(ctx context.Context, opID string, spec Spec) (Job, error) {
	now := r.now().UnixMilli()
	rec, found, err := r.store.ExportJob(ctx, jobID(opID))
	if err != nil {
		return Job{}, err
	}
	if !found {
		if !r.hasRoom() {
			return Job{}, ErrBusy
		}
		rec, _, err = r.store.CreateExportJob(ctx, store.ExportJob{ID: jobID(opID), OperationID: opID,
			State: store.ExportRunning, Message: "queued", CreatedAtMs: now, UpdatedAtMs: now})
		if err != nil {
			return Job{}, err
		}
	}
	if !rec.State.Done() {
		// Busy: it stays queued in the store and is queued here when asked
		// about again, or at the next start.
		if err := r.enqueue(rec.ID); err != nil && !errors.Is(err, errBusy) {
			return Job{}, err
		}
	}
	return Job{OperationID: opID, Spec: spec, Record: rec, ExpiresAt: r.ExpiresAt(spec)}, nil
}

// hasRoom reports whether another job may be queued.
func (r *Runner) hasRoom() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.active) < r.cfg.MaxJobs
}

// Result passes a finished job's CSV to fn, part after part.
func (r *Runner) Result(ctx context.Context, j Job, fn func(part []byte) error) error {
	return r.store.ExportParts(ctx, j.Record.ID, j.Record.Parts, fn)
}
