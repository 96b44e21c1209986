package operations

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// Route names: the hosted API's operation IDs, and the download of an
// export's result, which the hosted API serves from elsewhere (its
// downloadUrl) and avadata serves itself.
const (
	routePostTransactionExportJob = "postTransactionExportJob"
	routeGetOperationResult       = "getOperationResult"
	routeDownloadOperationResult  = "downloadOperationResult"
)

// paramOperationID is the {operationId} path parameter.
const paramOperationID = "operationId"

// operationsBase is the path of the operations.
const operationsBase = "/v1/operations"

func (s *server) operationRoutes() []api.Route {
	return []api.Route{
		{Name: routePostTransactionExportJob, Method: http.MethodPost, Path: operationsBase + "/transactions:export",
			Summary: "start an export of addresses' EVM transactions", Handler: s.Adapt(s.servePostTransactionExportJob)},
		{Name: routeGetOperationResult, Method: http.MethodGet, Path: operationsBase + "/{operationId}",
			Summary: "state of an operation", Handler: s.Adapt(s.serveGetOperationResult)},
		{Name: routeDownloadOperationResult, Method: http.MethodGet, Path: operationsBase + "/{operationId}/download",
			Summary: "the CSV of a completed export", Handler: s.Adapt(s.serveDownloadOperationResult)},
	}
}
