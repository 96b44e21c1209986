package nodeapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/ava-labs/libevm/rpc"
)

// JSON-RPC error codes of the node's batch limits (libevm's rpc package,
// which coreth and subnet-evm serve with).
const (
	codeInvalidRequest    = -32600 // with "batch too large": over batch-request-limit
	codeMethodNotFound    = -32601
	codeRequestTimeout    = -32002 // the node's api-max-duration ran out mid-batch
	codeResponseTooLarge  = -32003 // over batch-response-max-size
	msgBatchTooLarge      = "batch too large"
	msgUnfinalizedData    = "cannot query unfinalized data"
	msgBlockNotFoundStart = "block #"
	msgBlockNotFoundEnd   = " not found"
)

// callBatch sends elems in batches of at most perBatch calls, in order. A
// batch the node refuses (too many calls, response too large, out of time)
// is split and retried smaller, down to single calls, which carry no batch
// limits. On return each element holds its result or its own error; the
// returned error is a failure of a request as a whole.
func callBatch(ctx context.Context, c *rpc.Client, elems []rpc.BatchElem, perBatch int) error {
	for len(elems) > 0 {
		n := min(len(elems), perBatch)
		if err := callSplitting(ctx, c, elems[:n]); err != nil {
			return err
		}
		elems = elems[n:]
	}
	return nil
}

// callSplitting sends elems as one batch and retries what the node refused.
func callSplitting(ctx context.Context, c *rpc.Client, elems []rpc.BatchElem) error {
	if len(elems) == 1 {
		e := &elems[0]
		e.Error = c.CallContext(ctx, e.Result, e.Method, e.Args...)
		return nil
	}
	if err := c.BatchCallContext(ctx, elems); err != nil {
		if !isBatchRefused(err) {
			return err
		}
		return callHalves(ctx, c, elems)
	}
	refused := refusedElems(elems)
	switch len(refused) {
	case 0:
		return nil
	case len(elems):
		return callHalves(ctx, c, elems)
	default:
		// Over the response size limit the node answers the calls before the
		// limit and refuses the rest: retry only those.
		return callSubset(ctx, c, elems, refused)
	}
}

// callHalves retries elems as two batches of half the size.
func callHalves(ctx context.Context, c *rpc.Client, elems []rpc.BatchElem) error {
	for i := range elems {
		elems[i].Error = nil
	}
	mid := len(elems) / 2
	if err := callSplitting(ctx, c, elems[:mid]); err != nil {
		return err
	}
	return callSplitting(ctx, c, elems[mid:])
}

// callSubset retries the elements at the given indexes, a strict subset of
// elems, so every round makes progress. Results land in place through the
// elements' Result pointers; errors are copied back.
func callSubset(ctx context.Context, c *rpc.Client, elems []rpc.BatchElem, indexes []int) error {
	sub := make([]rpc.BatchElem, len(indexes))
	for k, i := range indexes {
		sub[k] = elems[i]
		sub[k].Error = nil
	}
	if err := callSplitting(ctx, c, sub); err != nil {
		return err
	}
	for k, i := range indexes {
		elems[i].Error = sub[k].Error
	}
	return nil
}

// refusedElems lists the elements the node did not answer because of the
// batch they were in.
func refusedElems(elems []rpc.BatchElem) []int {
	var refused []int
	for i := range elems {
		if isElemRefused(elems[i].Error) {
			refused = append(refused, i)
		}
	}
	return refused
}

// isElemRefused reports an element error that says nothing about the call
// itself, only about its batch. Over batch-request-limit the node answers
// with one "batch too large" error and no response for the other calls.
func isElemRefused(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, rpc.ErrMissingBatchResponse) {
		return true
	}
	switch rpcErrorCode(err) {
	case codeResponseTooLarge, codeRequestTimeout:
		return true
	case codeInvalidRequest:
		return strings.Contains(err.Error(), msgBatchTooLarge)
	}
	return false
}

// isBatchRefused reports a failure of a whole batch request that a smaller
// batch may not hit: an HTTP "too large" status, or a single error object
// instead of an array (how some servers answer an oversized batch).
func isBatchRefused(err error) bool {
	var httpErr rpc.HTTPError
	if errors.As(err, &httpErr) {
		return httpErr.StatusCode == http.StatusRequestEntityTooLarge ||
			strings.Contains(string(httpErr.Body), "too large")
	}
	var typeErr *json.UnmarshalTypeError
	return errors.As(err, &typeErr) || isElemRefused(err)
}

// rpcErrorCode is the JSON-RPC error code of err, 0 if it has none.
func rpcErrorCode(err error) int {
	var rpcErr rpc.Error
	if errors.As(err, &rpcErr) {
		return rpcErr.ErrorCode()
	}
	return 0
}

// isNotAccepted reports coreth's answer for a height above the last
// accepted block (unless the node allows unfinalized queries).
func isNotAccepted(err error) bool {
	return err != nil && strings.Contains(err.Error(), msgUnfinalizedData)
}

// isBlockNotFound reports the tracer's answer for a block the node does not
// have: "block #N not found".
func isBlockNotFound(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.HasPrefix(msg, msgBlockNotFoundStart) && strings.HasSuffix(msg, msgBlockNotFoundEnd)
}

// IsMethodNotFound reports that the node does not serve the method, e.g.
// debug_traceBlockByNumber on a chain without the debug-tracer API.
func IsMethodNotFound(err error) bool { return rpcErrorCode(err) == codeMethodNotFound }

// IsStateUnavailable reports that the node cannot trace a block because the
// state it needs was pruned, in the words of coreth's and subnet-evm's state
// accessor (or the trie under it).
func IsStateUnavailable(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "required historical state unavailable") ||
		strings.Contains(msg, "historical state not available") ||
		strings.Contains(msg, "missing trie node") ||
		strings.Contains(msg, "genesis state is missing")
}
