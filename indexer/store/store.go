// Package store is avadata's index: a Badger database in the chain's data
// directory. Writers are the followers (one per chain); readers are the HTTP
// handlers. keys.go lists the layout.
package store

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"go.uber.org/zap"
)

// Store is safe for concurrent use.
type Store struct {
	db  *badger.DB
	dir string
	log logging.Logger
	// primary holds the network facts the primary-network writers need
	// (SetPrimaryNetwork); set once before the followers start.
	primary atomic.Pointer[PrimaryNetwork]
	// contracts keeps Contract's answers (evmcontract_cache.go).
	contracts *contractCache
	// blockRows keeps decoded EVM block rows (evmblockrows.go).
	blockRows *blockRows
	// chainLocks serialise each chain's commits (history.go).
	chainLocks chainLocks
	// historyFrom caches each chain's first indexed height (history.go);
	// 0 until read.
	historyFrom [256]atomic.Uint64
	// running caches each chain's RunningStateFrom (backfill.go).
	running runningStates
	// metricCaches keeps each EVM chain's recent metric rows (evmmetric.go).
	metricCaches metricCaches
	// hooks are the webhooks' watch sets and delivery wake-up (webhook.go).
	hooks webhookState
}

// Open opens (or creates) the store in dir and checks its schema version.
func Open(dir string, log logging.Logger) (*Store, error) {
	opts := badger.DefaultOptions(dir).
		WithLogger(badgerLogger{log}).
		WithNumVersionsToKeep(1).
		WithCompression(options.ZSTD).
		WithValueThreshold(1 << 10).
		WithCompactL0OnClose(false).
		WithMetricsEnabled(false).
		// Sized for a plugin sharing the machine with its node: two 32 MB
		// memtables, two compactors (each holds table builders in memory),
		// and bounded caches so that table indexes of a billion-key index
		// do not all sit in RAM. At 1M indexed transactions the defaults
		// (5 x 64 MB memtables, 4 compactors) kept ~1 GB of heap.
		WithMemTableSize(32 << 20).
		WithNumMemtables(2).
		WithNumCompactors(2).
		WithBlockCacheSize(32 << 20).
		WithIndexCacheSize(16 << 20)
	db, err := badger.Open(opts)
	if err != nil {
		return nil, fmt.Errorf("opening badger store in %s: %w", dir, err)
	}
	s := &Store{db: db, dir: dir, log: log, contracts: newContractCache(), blockRows: newBlockRows()}
	if err := s.checkSchema(); err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// Close flushes and closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("closing badger store in %s: %w", s.dir, err)
	}
	return nil
}

// checkSchema writes the schema version into a new store and refuses a store
// written by a different layout.
func (s *Store) checkSchema() error {
	return s.db.Update(func(txn *badger.Txn) error {
		item, err := txn.Get(metaSchemaKey)
		if errors.Is(err, badger.ErrKeyNotFound) {
			return txn.Set(metaSchemaKey, binary.BigEndian.AppendUint32(nil, SchemaVersion))
		}
		if err != nil {
			return fmt.Errorf("reading schema version: %w", err)
		}
		return item.Value(func(v []byte) error {
			if len(v) != 4 {
				return fmt.Errorf("corrupt schema version record in %s", s.dir)
			}
			got := binary.BigEndian.Uint32(v)
			if got == readableSchemaVersion {
				// From the next block on the writers write rows this
				// version's readers alone take: the record says so, and a
				// binary of the version before refuses the store.
				return txn.Set(metaSchemaKey, binary.BigEndian.AppendUint32(nil, SchemaVersion))
			}
			if got != SchemaVersion {
				return fmt.Errorf("index in %s has schema version %d, this avadata needs %d: "+
					"stop the node, delete that directory and restart to rebuild the index", s.dir, got, SchemaVersion)
			}
			return nil
		})
	})
}

// PageTokenKey returns the secret that signs page tokens, creating it once.
func (s *Store) PageTokenKey() ([]byte, error) {
	var key []byte
	err := s.db.Update(func(txn *badger.Txn) error {
		item, err := txn.Get(metaTokenKeyKey)
		if err == nil {
			key, err = item.ValueCopy(nil)
			return err
		}
		if !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return err
		}
		return txn.Set(metaTokenKeyKey, key)
	})
	if err != nil {
		return nil, fmt.Errorf("loading page-token key: %w", err)
	}
	return key, nil
}

// RunGC reclaims value-log space periodically until ctx ends.
func (s *Store) RunGC(ctx context.Context, every time.Duration) {
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			for s.db.RunValueLogGC(0.5) == nil {
			}
		}
	}
}

// badgerLogger sends Badger's own messages to the node's logger.
type badgerLogger struct{ log logging.Logger }

func (l badgerLogger) Errorf(f string, a ...interface{}) {
	l.log.Error("badger", zap.String("msg", fmt.Sprintf(f, a...)))
}
func (l badgerLogger) Warningf(f string, a ...interface{}) {
	l.log.Warn("badger", zap.String("msg", fmt.Sprintf(f, a...)))
}
func (l badgerLogger) Infof(f string, a ...interface{}) {
	l.log.Debug("badger", zap.String("msg", fmt.Sprintf(f, a...)))
}
func (l badgerLogger) Debugf(f string, a ...interface{}) {
	l.log.Verbo("badger", zap.String("msg", fmt.Sprintf(f, a...)))
}
