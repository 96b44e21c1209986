package vm

import (
	"time"

	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/evm"
	"github.com/avadata/avadata/handlers/operations/exportjob"
	"github.com/avadata/avadata/handlers/primary"
	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/store"
)

// Transaction exports run in the background beside the followers: the
// runner reads the index and keeps its jobs in it, the handlers create and
// poll them, and it runs until Shutdown (vm.ctx); unfinished jobs resume at
// the next start.

var _ exportjob.Store = (*store.Store)(nil)

// ExportsConfig is the exports key; zero values take exportjob's defaults
// (README.md lists them).
type ExportsConfig struct {
	// Workers is how many exports run at once.
	Workers int `json:"workers"`
	// MaxJobs bounds the exports queued or running; more get a 429.
	MaxJobs int `json:"maxJobs"`
	// MaxRows bounds one export's rows; a longer one completes truncated.
	MaxRows uint64 `json:"maxRows"`
	// MaxRunTime bounds one run of an export; a longer one fails.
	MaxRunTime Duration `json:"maxRunTime"`
	// Lifetime is how long an export and its result are kept.
	Lifetime Duration `json:"lifetime"`
	// StepTxs bounds the transactions one step reads per address: each
	// step is saved with its progress, so smaller steps save more often.
	StepTxs int `json:"stepTxs"`
}

// newExports builds the export runner; Initialize starts it.
func (vm *VM) newExports() *exportjob.Runner {
	c := vm.config.Exports
	cfg := exportjob.Config{Workers: c.Workers, MaxJobs: c.MaxJobs, MaxRows: c.MaxRows,
		MaxRunTime: time.Duration(c.MaxRunTime), Lifetime: time.Duration(c.Lifetime), StepTxs: c.StepTxs}
	runner := exportjob.New(vm.store, vm, evm.NewExportRows(), evm.ExportColumns(), cfg, vm.log, nil)
	// The primary-network exports read the txs as the primary listings do.
	decode, err := indexer.TxDecoder()
	if err != nil {
		vm.log.Warn("running no primary-network exports", zap.Error(err))
		return runner
	}
	return runner.WithPrimary(vm.store.PrimaryReader(decode), primary.NewExportRows(vm), primary.ExportColumns())
}
