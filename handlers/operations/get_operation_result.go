package operations

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/operations/exportjob"
)

// parseGetOperationResultRequest reads {operationId}.
func parseGetOperationResultRequest(r *http.Request) (string, error) {
	id := api.PathVar(r, paramOperationID)
	if id == "" {
		return "", api.BadRequest("%s is required", paramOperationID)
	}
	return id, nil
}

// serveGetOperationResult answers an operation's state. Any replica
// answers for any operation it can verify (server.go); one it has not seen
// starts the export here, RUNNING until done.
func (s *server) serveGetOperationResult(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	job, err := s.job(r, heights)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, statusResponse(r, job))
	return nil
}

// job finds the job of the request's {operationId}; the reply reflects the
// heights its export is pinned to.
func (s *server) job(r *http.Request, heights *api.Heights) (exportjob.Job, error) {
	id, err := parseGetOperationResultRequest(r)
	if err != nil {
		return exportjob.Job{}, err
	}
	if s.exports == nil {
		return exportjob.Job{}, s.NotServedYet(r)
	}
	job, err := s.exports.Status(r.Context(), id)
	if err != nil {
		return exportjob.Job{}, jobError(id, err)
	}
	for _, c := range job.Spec.Chains {
		heights.Pin(c.Stream, c.To)
	}
	return job, nil
}
