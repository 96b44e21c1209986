package handlers

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/rpc/v2/json2"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	ID json.RawMessage `json:"id"`
}

func callRPC(t *testing.T, srv *handlertest.API, body string, headers ...string) rpcReply {
	t.Helper()
	rec := srv.Request(t, http.MethodPost, "/ext/bc/data/rpc", body, headers...)
	var reply rpcReply
	handlertest.RequireJSON(t, rec, http.StatusOK, &reply)
	require.Equal(t, "2.0", reply.JSONRPC)
	return reply
}

func requireRPCError(t *testing.T, reply rpcReply, code json2.ErrorCode, fragment string) {
	t.Helper()
	require.NotNil(t, reply.Error, "result: %s", reply.Result)
	require.Equal(t, int(code), reply.Error.Code)
	require.Contains(t, reply.Error.Message, fragment)
}

func TestRPCStatus(t *testing.T) {
	backend := handlertest.NewFakes()
	backend.FollowerStatuses = []follower.Status{{Chain: netinfo.X, ChainName: "X", IndexedHeight: 7}}
	srv := newTestAPI(t, handlertest.Config(), backend, nil)

	for _, body := range []string{
		`{"jsonrpc":"2.0","method":"avadata.status","id":1}`,
		`{"jsonrpc":"2.0","method":"avadata.status","params":{},"id":1}`,
		`{"jsonrpc":"2.0","method":"avadata.status","params":[],"id":1}`,
	} {
		reply := callRPC(t, srv, body, "Content-Type", "application/json")
		require.Nil(t, reply.Error)
		require.JSONEq(t, "1", string(reply.ID))

		var got StatusResponse
		require.NoError(t, json.Unmarshal(reply.Result, &got))
		var rest StatusResponse
		handlertest.RequireJSON(t, srv.Get(t, "/v1/status"), http.StatusOK, &rest)
		require.Equal(t, rest, got, "same body as GET /v1/status")
		require.Equal(t, uint64(7), got.Chains[0].IndexedHeight)
	}

	// Clients that omit or mislabel the content type still get JSON-RPC.
	reply := callRPC(t, srv, `{"jsonrpc":"2.0","method":"avadata.status","id":"a"}`, "Content-Type", "text/plain")
	require.Nil(t, reply.Error)
	require.JSONEq(t, `"a"`, string(reply.ID))
}

func TestRPCMalformedRequests(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), &handlertest.Controller{})
	tests := []struct {
		name     string
		body     string
		code     json2.ErrorCode
		fragment string
	}{
		{name: "truncated JSON", body: `{"jsonrpc":"2.0","method":`, code: json2.E_PARSE, fragment: ""},
		{name: "not JSON", body: `hello`, code: json2.E_PARSE, fragment: ""},
		{name: "empty body", body: ``, code: json2.E_PARSE, fragment: ""},
		{name: "batch", body: `[{"jsonrpc":"2.0","method":"avadata.status","id":1}]`, code: json2.E_INVALID_REQ, fragment: "batches are not supported"},
		{name: "empty array", body: `[]`, code: json2.E_INVALID_REQ, fragment: "batches are not supported"},
		{name: "string", body: `"avadata.status"`, code: json2.E_INVALID_REQ, fragment: "request object"},
		{name: "true", body: `true`, code: json2.E_INVALID_REQ, fragment: "request object"},
		{name: "null", body: `null`, code: json2.E_INVALID_REQ, fragment: "request object"},
		{name: "number", body: `5`, code: json2.E_INVALID_REQ, fragment: "request object"},
		{name: "no method", body: `{"jsonrpc":"2.0","id":1}`, code: json2.E_INVALID_REQ, fragment: `"method" is required`},
		{name: "no method, no id", body: `{}`, code: json2.E_INVALID_REQ, fragment: `"jsonrpc" must be "2.0"`},
		{name: "method not a string", body: `{"jsonrpc":"2.0","method":5,"id":1}`, code: json2.E_INVALID_REQ, fragment: "wrong type"},
		{name: "wrong version", body: `{"jsonrpc":"1.0","method":"avadata.status","id":1}`, code: json2.E_INVALID_REQ, fragment: "2.0"},
		{name: "members in another case", body: `{"jsonrpC":"2.0","methoD":"0"}`, code: json2.E_INVALID_REQ, fragment: `member "jsonrpC"`},
		{name: "method in another case", body: `{"jsonrpc":"2.0","method":"avadata.status","METHOD":"avadata.pauseFollower","id":1}`, code: json2.E_INVALID_REQ, fragment: "case-sensitive"},
		{name: "id in another case", body: `{"jsonrpc":"2.0","method":"avadata.status","ID":1}`, code: json2.E_INVALID_REQ, fragment: `member "ID"`},
		{name: "unknown method", body: `{"jsonrpc":"2.0","method":"avadata.nope","id":1}`, code: json2.E_NO_METHOD, fragment: `"avadata.nope" not found`},
		{name: "unknown service", body: `{"jsonrpc":"2.0","method":"eth.status","id":1}`, code: json2.E_NO_METHOD, fragment: "not found"},
		{name: "no service", body: `{"jsonrpc":"2.0","method":"status","id":1}`, code: json2.E_NO_METHOD, fragment: "not found"},
		{name: "Go method name", body: `{"jsonrpc":"2.0","method":"avadata.Status","id":1}`, code: json2.E_NO_METHOD, fragment: "not found"},
		{name: "empty method", body: `{"jsonrpc":"2.0","method":"avadata.","id":1}`, code: json2.E_NO_METHOD, fragment: "not found"},
		{name: "bad params", body: `{"jsonrpc":"2.0","method":"avadata.pauseFollower","params":{"chain":5},"id":1}`, code: json2.E_BAD_PARAMS, fragment: "invalid params"},
		{name: "bad chain", body: `{"jsonrpc":"2.0","method":"avadata.pauseFollower","params":{"chain":"Q"},"id":1}`, code: json2.E_BAD_PARAMS, fragment: `invalid chain "Q"`},
		{name: "missing chain", body: `{"jsonrpc":"2.0","method":"avadata.resumeFollower","params":{},"id":1}`, code: json2.E_BAD_PARAMS, fragment: "want P, X, C, p-chain"},
		{name: "unknown name", body: `{"jsonrpc":"2.0","method":"avadata.pauseFollower","params":{"chain":"nope"},"id":1}`, code: json2.E_BAD_PARAMS, fragment: "dispatch (" + fakenet.SubnetChainID.String() + ")"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requireRPCError(t, callRPC(t, srv, tt.body), tt.code, tt.fragment)
		})
	}

	t.Run("oversized body", func(t *testing.T) {
		// Without the admin methods the bound is maxRPCBodyBytes.
		srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
		body := `{"jsonrpc":"2.0","method":"avadata.status","params":{"pad":"` + strings.Repeat("x", maxRPCBodyBytes) + `"},"id":1}`
		rec := srv.Request(t, http.MethodPost, "/ext/bc/data/rpc", body)
		handlertest.RequireDataError(t, rec, http.StatusRequestEntityTooLarge, "request body too large", "65536 bytes (64 KiB)")
		// Streamed without a length, the bound holds while reading.
		req := httptest.NewRequest(http.MethodPost, "http://node/ext/bc/data/rpc", strings.NewReader(body))
		req.ContentLength = -1
		handlertest.RequireDataError(t, srv.Serve(req), http.StatusRequestEntityTooLarge, "64 KiB")
	})
}

func TestRPCFollowerControl(t *testing.T) {
	ctrl := &handlertest.Controller{}
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), ctrl)

	reply := callRPC(t, srv, `{"jsonrpc":"2.0","method":"avadata.pauseFollower","params":{"chain":"P"},"id":1}`)
	require.Nil(t, reply.Error)
	require.JSONEq(t, `{"chain":"P","paused":true}`, string(reply.Result))

	reply = callRPC(t, srv, `{"jsonrpc":"2.0","method":"avadata.resumeFollower","params":[{"chain":"c-chain"}],"id":2}`)
	require.Nil(t, reply.Error)
	require.JSONEq(t, `{"chain":"C","paused":false}`, string(reply.Result))

	reply = callRPC(t, srv, `{"jsonrpc":"2.0","method":"avadata.pauseFollower","params":{"chain":"Dispatch"},"id":5}`)
	require.Nil(t, reply.Error)
	require.JSONEq(t, `{"chain":"dispatch","paused":true}`, string(reply.Result), "a subnet chain by name, any case")

	reply = callRPC(t, srv, `{"jsonrpc":"2.0","method":"avadata.resumeFollower","params":{"chain":"`+fakenet.SubnetChainID.String()+`"},"id":6}`)
	require.Nil(t, reply.Error)
	require.JSONEq(t, `{"chain":"dispatch","paused":false}`, string(reply.Result), "a chain by blockchain ID")

	require.Equal(t, []netinfo.Chain{netinfo.P, fakenet.SubnetChain}, ctrl.Paused)
	require.Equal(t, []netinfo.Chain{netinfo.C, fakenet.SubnetChain}, ctrl.Resumed)

	ctrl.Err = errors.New("follower not running")
	reply = callRPC(t, srv, `{"jsonrpc":"2.0","method":"avadata.pauseFollower","params":{"chain":"x"},"id":3}`)
	requireRPCError(t, reply, json2.E_SERVER, "pausing the X follower: follower not running")

	reply = callRPC(t, srv, `{"jsonrpc":"2.0","method":"avadata.status","id":4}`)
	require.Nil(t, reply.Error, "status is available with the admin API too")
}

func TestRPCFollowerControlDisabled(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	for _, method := range []string{"avadata.pauseFollower", "avadata.resumeFollower"} {
		reply := callRPC(t, srv, `{"jsonrpc":"2.0","method":"`+method+`","params":{"chain":"P"},"id":1}`)
		requireRPCError(t, reply, json2.E_NO_METHOD, "admin API is disabled")
	}
}

func TestRPCNotification(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	rec := srv.Request(t, http.MethodPost, "/rpc", `{"jsonrpc":"2.0","method":"avadata.status"}`)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Empty(t, rec.Body.String(), "notifications get no reply")
	require.Equal(t, "application/json", rec.Header().Get("Content-Type"))
}

func TestRPCNeedsPost(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	handlertest.RequireDataError(t, srv.Get(t, "/rpc"), http.StatusMethodNotAllowed, "GET")
}
