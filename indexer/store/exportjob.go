package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dgraph-io/badger/v4"
)

// Export jobs (keys.go 0xB0, 0xB1): the record of each transaction export
// this node runs, and its CSV result in parts. The job runner
// (handlers/operations/exportjob) appends each part together with the
// record's new progress in one transaction, so a job stopped at any point
// (a restart, a crash) resumes after its last part: nothing is lost and
// nothing written twice.
//
// The records are few (bounded by the runner) and change shape as exports
// grow, so a record is JSON with a version, not a rowcodec row.

// ExportJobIDLen is the length of a job's ID (keys.go).
const ExportJobIDLen = 16

// ExportJobID names a job in the store: derived from its operation ID, so
// every replica files the same operation under the same ID.
type ExportJobID [ExportJobIDLen]byte

// ExportState is where a job is.
type ExportState string

const (
	ExportRunning   ExportState = "running"
	ExportCompleted ExportState = "completed"
	// ExportTruncated completed at the size bound before the end of its
	// range.
	ExportTruncated ExportState = "truncated"
	ExportFailed    ExportState = "failed"
)

// Done reports whether the job will not run again.
func (s ExportState) Done() bool { return s != ExportRunning }

// exportJobVersion is the record's format.
const exportJobVersion = 1

// ExportJob is one job's record.
type ExportJob struct {
	ID ExportJobID `json:"-"`
	// OperationID is the signed operation ID the job was created with; it
	// holds the whole request (handlers/operations/exportjob).
	OperationID string      `json:"op"`
	State       ExportState `json:"state"`
	// Code is the OpenAPI's OperationStatusCode of a job that failed or was
	// truncated; Message says what happened; NextDate is where a truncated
	// export's follow-up starts.
	Code     string `json:"code,omitempty"`
	Message  string `json:"msg,omitempty"`
	NextDate string `json:"next,omitempty"`
	// Times in Unix milliseconds: when this node first saw the job, when
	// the record last changed.
	CreatedAtMs int64 `json:"created"`
	UpdatedAtMs int64 `json:"updated"`
	// Progress: the chain being exported (index into the request's
	// chains), the position of the last transaction exported in it
	// (HasAfter false: none yet), the rows, parts and bytes written.
	ChainIndex int    `json:"chain"`
	HasAfter   bool   `json:"hasAfter,omitempty"`
	AfterBlock uint64 `json:"afterBlock,omitempty"`
	AfterIndex uint32 `json:"afterIndex,omitempty"`
	Rows       uint64 `json:"rows"`
	Parts      uint32 `json:"parts"`
	Bytes      uint64 `json:"bytes"`
}

func exportJobKey(id ExportJobID) []byte { return key{tagXJob}.bytes(id[:]) }

func exportPartPrefix(id ExportJobID) key { return key{tagXPart}.bytes(id[:]) }

// exportJobRow is a record as stored: the job and its format's version.
type exportJobRow struct {
	Version int `json:"v"`
	ExportJob
}

func encodeExportJob(j ExportJob) ([]byte, error) {
	return json.Marshal(exportJobRow{Version: exportJobVersion, ExportJob: j})
}

func decodeExportJob(id ExportJobID, v []byte) (ExportJob, error) {
	var row exportJobRow
	if err := json.Unmarshal(v, &row); err != nil {
		return ExportJob{}, fmt.Errorf("decoding export job record %x: %w", id, err)
	}
	if row.Version != exportJobVersion {
		return ExportJob{}, fmt.Errorf("export job record %x has version %d, this avadata reads %d", id, row.Version, exportJobVersion)
	}
	row.ID = id
	return row.ExportJob, nil
}

func readExportJob(txn *badger.Txn, id ExportJobID) (ExportJob, bool, error) {
	v, err := getValue(txn, exportJobKey(id))
	if err != nil || v == nil {
		return ExportJob{}, false, err
	}
	j, err := decodeExportJob(id, v)
	return j, err == nil, err
}

func writeExportJob(txn *badger.Txn, j ExportJob) error {
	v, err := encodeExportJob(j)
	if err != nil {
		return fmt.Errorf("encoding export job record %x: %w", j.ID, err)
	}
	return txn.Set(exportJobKey(j.ID), v)
}

// ExportJob reads a job's record; false when the store has none.
func (s *Store) ExportJob(ctx context.Context, id ExportJobID) (ExportJob, bool, error) {
	var (
		j     ExportJob
		found bool
	)
	err := s.read(ctx, func(txn *badger.Txn) error {
		var err error
		j, found, err = readExportJob(txn, id)
		return err
	})
	if err != nil {
		return ExportJob{}, false, fmt.Errorf("reading export job %x: %w", id, err)
	}
	return j, found, nil
}

// CreateExportJob stores j unless a job with its ID exists; it returns the
// job the store holds and whether it is j.
func (s *Store) CreateExportJob(ctx context.Context, j ExportJob) (ExportJob, bool, error) {
	if err := ctx.Err(); err != nil {
		return ExportJob{}, false, err
	}
	created := false
	err := s.db.Update(func(txn *badger.Txn) error {
		existing, found, err := readExportJob(txn, j.ID)
		if err != nil || found {
			j = existing
			return err
		}
		created = true
		return writeExportJob(txn, j)
	})
	if err != nil {
		return ExportJob{}, false, fmt.Errorf("creating export job %x: %w", j.ID, err)
	}
	return j, created, nil
}

// ExportJobs lists every job's record.
func (s *Store) ExportJobs(ctx context.Context) ([]ExportJob, error) {
	var out []ExportJob
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := key{tagXJob}
		return scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
			var id ExportJobID
			if len(item.Key()) != 1+ExportJobIDLen {
				return false, fmt.Errorf("export job key %x has the wrong length", item.Key())
			}
			copy(id[:], item.Key()[1:])
			v, err := item.ValueCopy(nil)
			if err != nil {
				return false, err
			}
			j, err := decodeExportJob(id, v)
			if err != nil {
				return false, err
			}
			out = append(out, j)
			return true, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("listing export jobs: %w", err)
	}
	return out, nil
}

// errExportJobMoved is a write whose expected state is not the stored one:
// another writer advanced or removed the job.
var errExportJobMoved = errors.New("the stored job is not in the state this write expects")

// SaveExportJob replaces the record of a job that exists and has written
// as many parts as j says (its state changes; progress goes through
// AppendExportPart).
func (s *Store) SaveExportJob(ctx context.Context, j ExportJob) error {
	return s.updateExportJob(ctx, j, j.Parts, nil)
}

// AppendExportPart writes the next part of a job's result and its new
// record, next (whose Parts counts the new part), in one transaction. It
// fails, writing nothing, unless the stored record has written exactly the
// parts before this one.
func (s *Store) AppendExportPart(ctx context.Context, next ExportJob, part []byte) error {
	if next.Parts == 0 {
		return fmt.Errorf("appending to export job %x: the new record counts no part", next.ID)
	}
	return s.updateExportJob(ctx, next, next.Parts-1, part)
}

func (s *Store) updateExportJob(ctx context.Context, j ExportJob, storedParts uint32, part []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := s.db.Update(func(txn *badger.Txn) error {
		stored, found, err := readExportJob(txn, j.ID)
		if err != nil {
			return err
		}
		if !found || stored.Parts != storedParts {
			return fmt.Errorf("%w (found %t, %d parts written, expected %d)", errExportJobMoved, found, stored.Parts, storedParts)
		}
		if part != nil {
			if err := txn.Set(exportPartPrefix(j.ID).u32(storedParts), part); err != nil {
				return err
			}
		}
		return writeExportJob(txn, j)
	})
	if err != nil {
		return fmt.Errorf("updating export job %x: %w", j.ID, err)
	}
	return nil
}

// ExportParts passes the parts of a job's result to fn in order, the first
// parts of them: a job's record counts its parts.
func (s *Store) ExportParts(ctx context.Context, id ExportJobID, parts uint32, fn func(part []byte) error) error {
	err := s.read(ctx, func(txn *badger.Txn) error {
		prefix := exportPartPrefix(id)
		want := uint32(0)
		err := scanRange(ctx, txn, prefix, prefix, prefix.u32(parts), false, func(item *badger.Item) (bool, error) {
			if n := binary.BigEndian.Uint32(item.Key()[len(prefix):]); n != want {
				return false, fmt.Errorf("part %d is missing", want)
			}
			want++
			return true, item.Value(fn)
		})
		if err == nil && want != parts {
			err = fmt.Errorf("%d of %d parts are stored", want, parts)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("reading the result of export job %x: %w", id, err)
	}
	return nil
}

// exportDeleteBatch bounds the keys one transaction of DeleteExportJob
// removes, well within Badger's transaction limits.
const exportDeleteBatch = 1000

// DeleteExportJob removes a job's parts, then its record (so a job whose
// deletion is cut short keeps a record, and is deleted again).
func (s *Store) DeleteExportJob(ctx context.Context, id ExportJobID) error {
	prefix := exportPartPrefix(id)
	for {
		var keys [][]byte
		err := s.read(ctx, func(txn *badger.Txn) error {
			return scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
				keys = append(keys, item.KeyCopy(nil))
				return len(keys) < exportDeleteBatch, nil
			})
		})
		if err == nil {
			err = s.db.Update(func(txn *badger.Txn) error {
				for _, k := range keys {
					if err := txn.Delete(k); err != nil {
						return err
					}
				}
				if len(keys) < exportDeleteBatch {
					return txn.Delete(exportJobKey(id))
				}
				return nil
			})
		}
		if err != nil {
			return fmt.Errorf("deleting export job %x: %w", id, err)
		}
		if len(keys) < exportDeleteBatch {
			return nil
		}
	}
}
