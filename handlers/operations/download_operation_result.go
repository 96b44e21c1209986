package operations

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/store"
)

// The download of a completed export's CSV: the downloadUrl of its
// getOperationResult reply. The operationId is the credential, as a
// hosted download URL is: no API key is needed.
//
// The file: RFC 4180 CSV, UTF-8, a header row then one row per transaction
// (columns: evm.ExportColumns), rows in chain, block, position order.

// downloadRetryAfter is the Retry-After, in seconds, of a download asked
// before this replica has the result.
const downloadRetryAfter = 2

// serveDownloadOperationResult sends the CSV of a completed export. A
// replica whose copy is not done yet answers 503 with Retry-After (retry
// here or on another replica); a failed export has no result (404).
func (s *server) serveDownloadOperationResult(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	job, err := s.job(r, heights)
	if err != nil {
		return err
	}
	switch job.Record.State {
	case store.ExportFailed:
		return api.NotFound("operation '%s' failed and has no result: %s", api.Truncate(job.OperationID), job.Record.Message)
	case store.ExportRunning:
		w.Header().Set("Retry-After", strconv.Itoa(downloadRetryAfter))
		return api.NewError(http.StatusServiceUnavailable,
			"the export is still running on this replica (%d rows so far): retry in %ds, here or on another replica",
			job.Record.Rows, downloadRetryAfter)
	}
	// Read whole before answering, so a failed read is still an error
	// reply (the reply is held whole on its way out anyway: the time
	// budget and the node's bridge buffer it).
	body := make([]byte, 0, job.Record.Bytes)
	err = s.exports.Result(r.Context(), job, func(part []byte) error {
		body = append(body, part...)
		return nil
	})
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="transactions-%x.csv"`, job.Record.ID[:8]))
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	return nil
}
