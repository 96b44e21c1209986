package operations

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/operations/exportjob"
	"github.com/avadata/avadata/indexer/store"
)

// operationStatusResponse is the OpenAPI's OperationStatusResponse.
// Timestamps are Unix seconds, as every timestamp of the API: created is
// when the operation was created (the same on every replica), updated when
// this replica last changed its state.
type operationStatusResponse struct {
	OperationID        string                     `json:"operationId"`
	OperationType      string                     `json:"operationType"`
	OperationStatus    string                     `json:"operationStatus"`
	Message            string                     `json:"message,omitempty"`
	Metadata           *transactionExportMetadata `json:"metadata,omitempty"`
	CreatedAtTimestamp int64                      `json:"createdAtTimestamp"`
	UpdatedAtTimestamp int64                      `json:"updatedAtTimestamp"`
}

// transactionExportMetadata is the OpenAPI's TransactionExportMetadata.
type transactionExportMetadata struct {
	Code        string `json:"code,omitempty"`
	DownloadURL string `json:"downloadUrl,omitempty"`
	NextDate    string `json:"nextDate,omitempty"`
}

// The OpenAPI's OperationType and OperationStatus values avadata answers.
const (
	operationTypeEVMExport = "TRANSACTION_EXPORT_EVM"

	statusRunning              = "RUNNING"
	statusCompleted            = "COMPLETED"
	statusCompletedWithWarning = "COMPLETED_WITH_WARNING"
	statusFailed               = "FAILED"
)

func operationStatus(state store.ExportState) string {
	switch state {
	case store.ExportCompleted:
		return statusCompleted
	case store.ExportTruncated:
		return statusCompletedWithWarning
	case store.ExportFailed:
		return statusFailed
	default:
		return statusRunning
	}
}

// statusResponse shapes a job; r is the request, whose URL the download
// URL is built on.
func statusResponse(r *http.Request, j exportjob.Job) operationStatusResponse {
	rec := j.Record
	out := operationStatusResponse{
		OperationID:        j.OperationID,
		OperationType:      operationTypeOf(j.Spec),
		OperationStatus:    operationStatus(rec.State),
		Message:            rec.Message,
		CreatedAtTimestamp: j.Spec.CreatedAt.Unix(),
		UpdatedAtTimestamp: max(time.UnixMilli(rec.UpdatedAtMs).Unix(), j.Spec.CreatedAt.Unix()),
	}
	md := transactionExportMetadata{Code: rec.Code, NextDate: rec.NextDate}
	if rec.State == store.ExportCompleted || rec.State == store.ExportTruncated {
		md.DownloadURL = downloadURL(r, j.OperationID)
	}
	if md != (transactionExportMetadata{}) {
		out.Metadata = &md
	}
	return out
}

// downloadURL is where the result of an operation is downloaded: on this
// API, at the base URL the request came in on. The node passes a plain
// HTTP/1.1 request to the plugin without its Host (handlers/limits/
// clientaddr.go), so the URL is absolute only when the request names its
// host (HTTP/2, or a proxy's X-Forwarded-Host); otherwise it is the path
// from the node's root, which a client resolves against the URL it asked.
func downloadURL(r *http.Request, operationID string) string {
	path := basePath(r) + operationsBase + "/" + operationID + "/download"
	host := r.Header.Get("X-Forwarded-Host")
	if host == "" {
		host = r.Host
	}
	if host == "" {
		return path
	}
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + host + path
}

// basePath is the node's "/ext/bc/<chain>" prefix of the request, which
// the router has stripped from its URL but not from RequestURI.
func basePath(r *http.Request) string {
	const nodePrefix = "/ext/bc/"
	uri, err := url.ParseRequestURI(r.RequestURI)
	if err != nil || !strings.HasPrefix(uri.Path, nodePrefix) {
		return ""
	}
	chain, _, _ := strings.Cut(uri.Path[len(nodePrefix):], "/")
	return nodePrefix + chain
}

// jobError turns the runner's refusals into replies.
func jobError(operationID string, err error) error {
	switch {
	case errors.Is(err, exportjob.ErrUnknown):
		return api.NotFound("operation '%s' not found: it is not an operationId this API issued "+
			"(replicas behind one load balancer must share pageTokenSecret)", api.Truncate(operationID))
	case errors.Is(err, exportjob.ErrExpired):
		return api.NotFound("operation '%s' has expired and its result was deleted: start the export again",
			api.Truncate(operationID))
	case errors.Is(err, exportjob.ErrBusy):
		return api.NewError(http.StatusTooManyRequests,
			"too many exports are queued or running on this node; retry in a minute")
	}
	return err
}
