package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// ContentTypeJSON is set on every reply, success or error: SDK clients only
// match a response when its content type is application/json, and net/http
// would otherwise sniff our bodies as text/plain.
const ContentTypeJSON = "application/json"

// Error is an error that maps to a specific HTTP status and a message
// meant for the client. Any other error reaching the top of a handler is an
// internal failure and is reported as a generic 500.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return e.Message }

// NewError builds an Error with a formatted client-facing message.
func NewError(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

func BadRequest(format string, args ...any) *Error {
	return NewError(http.StatusBadRequest, format, args...)
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
	if RequestInfoFrom(r.Context()).MetricsService {
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

// WriteError writes the spec error body with the given status.
func WriteError(w http.ResponseWriter, r *http.Request, status int, message string) {
	WriteJSON(w, status, errorBody(r, status, message))
}

func NotFound(format string, args ...any) *Error {
	return NewError(http.StatusNotFound, format, args...)
}

// ToError classifies err: apiErrors pass through, a context error means
// the request ran out of time (timeout is the request deadline, for the
// message) or was cancelled, anything else is an internal failure whose
// details stay in the log rather than in the reply.
func ToError(err error, timeout time.Duration) (apiErr *Error, internal bool) {
	switch {
	case errors.As(err, &apiErr):
		return apiErr, false
	case errors.Is(err, context.DeadlineExceeded):
		return NewError(http.StatusServiceUnavailable,
			"the request did not finish within %s; try again, or ask for less (smaller pageSize or block range)", timeout), false
	case errors.Is(err, context.Canceled):
		return NewError(http.StatusServiceUnavailable, "the request was cancelled; try again"), false
	default:
		return NewError(http.StatusInternalServerError, "internal error; see the node's log"), true
	}
}

// WriteJSON encodes v before touching the response, so an encoding failure
// still produces a well-formed 500 instead of a truncated body.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body = []byte(fmt.Sprintf(
			`{"message":"encoding the response failed","error":%q,"statusCode":%d}`,
			http.StatusText(status), status,
		))
	}
	w.Header().Set("Content-Type", ContentTypeJSON)
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// QuoteList renders values as "'a', 'b', 'c'" for error messages.
func QuoteList(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = "'" + v + "'"
	}
	return strings.Join(quoted, ", ")
}
