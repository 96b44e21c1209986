package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/avadata/avadata/handlers/api"
)

// JSON-RPC 2.0 error codes for requests that never reach a method.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
)

// rpcRequestShape is what every JSON-RPC 2.0 request object must have
// before gorilla/rpc sees it: gorilla answers a body of `null`, or an object
// without a method, with an empty 200 (it takes them for notifications).
type rpcRequestShape struct {
	JSONRPC string
	Method  *string
	ID      json.RawMessage
}

// rpcMembers are the member names of a JSON-RPC 2.0 request object.
var rpcMembers = [...]string{"jsonrpc", "method", "params", "id"}

// decodeRPCRequest reads the request object's members by their exact names:
// JSON-RPC's names are case-sensitive, where encoding/json (and gorilla/rpc
// after it) would take "Method" for "method". A member named like one but
// for its case is refused, so gorilla never reads it.
func decodeRPCRequest(body []byte) (rpcRequestShape, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return rpcRequestShape{}, errors.New("the request object has members of the wrong type")
	}
	for _, name := range slices.Sorted(maps.Keys(members)) { // the same reply every time
		for _, member := range rpcMembers {
			if name != member && strings.EqualFold(name, member) {
				return rpcRequestShape{}, fmt.Errorf("member %q: JSON-RPC member names are case-sensitive (%q)", name, member)
			}
		}
	}
	req := rpcRequestShape{ID: members["id"]}
	if v, ok := members["jsonrpc"]; ok && json.Unmarshal(v, &req.JSONRPC) != nil {
		return req, errors.New("the request object has members of the wrong type")
	}
	if v, ok := members["method"]; ok && json.Unmarshal(v, &req.Method) != nil {
		return req, errors.New("the request object has members of the wrong type")
	}
	return req, nil
}

// validateRPCRequest reads the body and checks it is one JSON-RPC 2.0
// request object with a method. On success it returns the body to hand on;
// otherwise it has written the reply: a JSON-RPC error, or a 413 in the
// spec's error body for a body over the limit (as on every route: the body
// was not read whole, so there is no request to answer in JSON-RPC).
func validateRPCRequest(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, bool) {
	body, err := api.ReadBody(r, limit)
	if err != nil {
		var apiErr *api.Error
		if errors.As(err, &apiErr) && apiErr.Status == http.StatusRequestEntityTooLarge {
			api.WriteError(w, r, apiErr.Status, apiErr.Message)
		} else {
			writeRPCError(w, nil, rpcParseError, err.Error())
		}
		return nil, false
	}
	trimmed := bytes.TrimSpace(body)
	switch {
	case len(trimmed) == 0:
		writeRPCError(w, nil, rpcParseError, "empty request body: send a JSON-RPC 2.0 request object")
		return nil, false
	case !json.Valid(trimmed):
		writeRPCError(w, nil, rpcParseError, "the request body is not valid JSON")
		return nil, false
	case trimmed[0] == '[':
		// Valid JSON that is no request object, as JSON-RPC 2.0 calls an
		// empty batch: batches are not served (gorilla/rpc cannot decode one).
		writeRPCError(w, nil, rpcInvalidRequest, "batches are not supported: send one JSON-RPC 2.0 request object")
		return nil, false
	case trimmed[0] != '{':
		writeRPCError(w, nil, rpcInvalidRequest, "the request must be a JSON-RPC 2.0 request object")
		return nil, false
	}
	req, err := decodeRPCRequest(trimmed)
	id := validRPCID(req.ID)
	if err != nil {
		writeRPCError(w, id, rpcInvalidRequest, err.Error())
		return nil, false
	}
	switch {
	case req.JSONRPC != "2.0":
		writeRPCError(w, id, rpcInvalidRequest, `"jsonrpc" must be "2.0"`)
		return nil, false
	case req.Method == nil || *req.Method == "":
		writeRPCError(w, id, rpcInvalidRequest, `"method" is required, e.g. "avadata.status"`)
		return nil, false
	}
	return body, true
}

// validRPCID echoes the request's id when it is one JSON-RPC allows (a
// string, a number or null), else null.
func validRPCID(id json.RawMessage) json.RawMessage {
	var v any
	if len(id) == 0 || json.Unmarshal(id, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return id
	default:
		return nil
	}
}

// writeRPCError writes a JSON-RPC 2.0 error response (HTTP 200, as JSON-RPC
// errors are answers, not transport failures).
func writeRPCError(w http.ResponseWriter, id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	api.WriteJSON(w, http.StatusOK, map[string]any{
		"jsonrpc": "2.0",
		"error":   map[string]any{"code": code, "message": message},
		"id":      id,
	})
}
