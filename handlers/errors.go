package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// contentTypeJSON is set on every reply, success or error: SDK clients only
// match a response when its content type is application/json, and net/http
// would otherwise sniff our bodies as text/plain.
const contentTypeJSON = "application/json"

// apiError is an error that maps to a specific HTTP status and a message
// meant for the client. Any other error reaching the top of a handler is an
// internal failure and is reported as a generic 500.
type apiError struct {
	status  int
	message string
}

func (e *apiError) Error() string { return e.message }

// newAPIError builds an apiError with a formatted client-facing message.
func newAPIError(status int, format string, args ...any) *apiError {
	return &apiError{status: status, message: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *apiError {
	return newAPIError(http.StatusBadRequest, format, args...)
}

// dataErrorBody is the error body of the data service: message is a string.
type dataErrorBody struct {
	Message    string `json:"message"`
	Error      string `json:"error"`
	StatusCode int    `json:"statusCode"`
}

// metricsErrorBody is the error body of the metrics service, whose message is
// an array of strings (spec, Errors).
type metricsErrorBody struct {
	Message    []string `json:"message"`
	Error      string   `json:"error"`
	StatusCode int      `json:"statusCode"`
}

// errorBody returns the spec error body for status and message in the
// flavour of the service that r addresses.
func errorBody(r *http.Request, status int, message string) any {
	if requestInfoFrom(r.Context()).metricsService {
		return metricsErrorBody{
			Message:    []string{message},
			Error:      http.StatusText(status),
			StatusCode: status,
		}
	}
	return dataErrorBody{
		Message:    message,
		Error:      http.StatusText(status),
		StatusCode: status,
	}
}

// writeErrorStatus writes the spec error body with the given status.
func writeErrorStatus(w http.ResponseWriter, r *http.Request, status int, message string) {
	writeJSON(w, status, errorBody(r, status, message))
}

func notFound(format string, args ...any) *apiError {
	return newAPIError(http.StatusNotFound, format, args...)
}

// toAPIError classifies err: apiErrors pass through, a context error means
// the request ran out of time (timeout is the request deadline, for the
// message) or was cancelled, anything else is an internal failure whose
// details stay in the log rather than in the reply.
func toAPIError(err error, timeout time.Duration) (apiErr *apiError, internal bool) {
	switch {
	case errors.As(err, &apiErr):
		return apiErr, false
	case errors.Is(err, context.DeadlineExceeded):
		return newAPIError(http.StatusServiceUnavailable,
			"the request did not finish within %s; try again, or ask for less (smaller pageSize or block range)", timeout), false
	case errors.Is(err, context.Canceled):
		return newAPIError(http.StatusServiceUnavailable, "the request was cancelled; try again"), false
	default:
		return newAPIError(http.StatusInternalServerError, "internal error; see the node's log"), true
	}
}

// writeJSON encodes v before touching the response, so an encoding failure
// still produces a well-formed 500 instead of a truncated body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(fmt.Sprintf(
			`{"message":"encoding the response failed","error":%q,"statusCode":%d}`,
			http.StatusText(status), status,
		))
	}
	w.Header().Set("Content-Type", contentTypeJSON)
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// quoteList renders values as "'a', 'b', 'c'" for error messages.
func quoteList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "'" + v + "'"
	}
	return strings.Join(quoted, ", ")
}
