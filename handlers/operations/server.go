// Package operations serves the hosted API's operations: background jobs a
// client starts and then polls. Today that is the EVM transaction export
// (postTransactionExportJob, getOperationResult and the download of its
// result), which exportjob runs.
//
// An operation's ID is signed and self-describing (exportjob/operationid.go),
// so behind a load balancer any replica answers for any operation: one
// that has not seen it runs the same export from its own index, and until
// its result is ready there, its download answers 503 with Retry-After,
// which a balancer retries on another replica.
package operations

import (
	"context"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/operations/exportjob"
)

// Exports runs transaction exports (*exportjob.Runner).
type Exports interface {
	Spec(ctx context.Context, p exportjob.Plan) (exportjob.Spec, error)
	Create(ctx context.Context, spec exportjob.Spec) (exportjob.Job, error)
	Status(ctx context.Context, operationID string) (exportjob.Job, error)
	Result(ctx context.Context, j exportjob.Job, fn func(part []byte) error) error
	// ServesPrimary reports whether primary-network exports run.
	ServesPrimary() bool
}

// server serves the operations.
type server struct {
	*api.Core
	// exports is nil when the node runs no export jobs: the operations
	// then answer that they are not served.
	exports Exports
}

// Routes returns the routes of the operations.
func Routes(core *api.Core, exports Exports) []api.Route {
	s := &server{Core: core, exports: exports}
	return s.operationRoutes()
}
