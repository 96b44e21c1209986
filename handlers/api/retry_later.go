package api

// RetryLaterError is a failure the client should retry after a while:
// its reply is the spec error body of Err with a Retry-After header.
type RetryLaterError struct {
	Err               *Error
	RetryAfterSeconds int
}

func (e *RetryLaterError) Error() string { return e.Err.Error() }

func (e *RetryLaterError) Unwrap() error { return e.Err }
