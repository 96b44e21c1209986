package vm

import (
	"github.com/avadata/avadata/handlers/evm"
	"github.com/avadata/avadata/handlers/operations/exportjob"
	"github.com/avadata/avadata/indexer/store"
)

// Transaction exports run in the background beside the followers: the
// runner reads the index and keeps its jobs in it, the handlers create and
// poll them, and it runs until Shutdown (vm.ctx); unfinished jobs resume at
// the next start.

var _ exportjob.Store = (*store.Store)(nil)

// newExports builds the export runner; Initialize starts it.
func (vm *VM) newExports() *exportjob.Runner {
	return exportjob.New(vm.store, vm, evm.NewExportRows(), evm.ExportColumns(), exportjob.Config{}, vm.log, nil)
}
