package handlers

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gorilla/rpc/v2"
	"github.com/gorilla/rpc/v2/json2"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/webhooks"
	"github.com/avadata/avadata/indexer/netinfo"
)

// rpcServiceName is the JSON-RPC namespace: methods are "avadata.<method>".
const rpcServiceName = "avadata"

// maxRPCBodyBytes bounds JSON-RPC request bodies (413 beyond, or beyond
// Config.MaxBodyBytes if smaller); our methods take at most a chain name.
const maxRPCBodyBytes = 64 << 10

// maxAdminRPCBodyBytes bounds them when the admin methods exist:
// avadata.importWebhooks takes a node's webhooks, each up to a create
// request's size. Config.MaxBodyBytes (maxRequestBodyBytes) still bounds
// every body; a larger set is imported in parts.
const maxAdminRPCBodyBytes = 32 << 20

// newRPCHandler builds the POST /rpc handler. The follower controls exist
// only when ctrl is non-nil (adminApiEnabled); otherwise calling them yields
// a "method not found" error that says why.
func newRPCHandler(s *server, ctrl Controller, hooks *webhooks.Service) (http.Handler, error) {
	rpcServer := rpc.NewServer()
	rpcServer.RegisterCodec(methodCaseCodec{adminEnabled: ctrl != nil, hasMethod: rpcServer.HasMethod}, api.ContentTypeJSON)

	var service any = &statusService{server: s}
	bodyLimit := int64(maxRPCBodyBytes)
	if ctrl != nil {
		service = &adminService{statusService: statusService{server: s}, ctrl: ctrl, hooks: hooks}
		bodyLimit = maxAdminRPCBodyBytes
	}
	if err := rpcServer.RegisterService(service, rpcServiceName); err != nil {
		return nil, fmt.Errorf("registering JSON-RPC service: %w", err)
	}

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// JSON is the only encoding we speak: clients that send no or another
		// content type would otherwise get gorilla's text/plain 415. Clone so
		// the caller's request is left as it was.
		r = r.Clone(r.Context())
		r.Header.Set("Content-Type", api.ContentTypeJSON)
		if r.Body == nil {
			r.Body = http.NoBody
		}
		body, ok := validateRPCRequest(w, r, bodyLimit)
		if !ok {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rpcServer.ServeHTTP(w, r)
	}), nil
}

// StatusArgs are the (empty) arguments of avadata.status.
type StatusArgs struct{}

// statusService holds the methods available to everyone.
type statusService struct {
	server *server
}

// Status reports the same body as GET /v1/status.
func (svc *statusService) Status(_ *http.Request, _ *StatusArgs, reply *StatusResponse) error {
	*reply = svc.server.status()
	return nil
}

// FollowerArgs name the follower to act on.
type FollowerArgs struct {
	// Chain is any followed chain: a node alias ("P", "X", "C"), a Data API
	// alias ("p-chain", ...), a chain name or a cb58 blockchain ID.
	Chain string `json:"chain"`
}

// FollowerReply confirms the new state of a follower.
type FollowerReply struct {
	Chain  string `json:"chain"`
	Paused bool   `json:"paused"`
}

// adminService adds the follower controls and the copy of webhooks between
// replicas (rpc_webhooks.go) to statusService.
type adminService struct {
	statusService
	ctrl  Controller
	hooks *webhooks.Service
}

// PauseFollower stops a follower after its current block.
func (svc *adminService) PauseFollower(_ *http.Request, args *FollowerArgs, reply *FollowerReply) error {
	node := svc.server.Network()
	chain, err := parseFollowerChain(args.Chain, node)
	if err != nil {
		return err
	}
	if err := svc.ctrl.PauseFollower(chain); err != nil {
		return fmt.Errorf("pausing the %s follower: %w", node.ChainName(chain), err)
	}
	*reply = FollowerReply{Chain: node.ChainName(chain), Paused: true}
	return nil
}

// ResumeFollower restarts a paused follower.
func (svc *adminService) ResumeFollower(_ *http.Request, args *FollowerArgs, reply *FollowerReply) error {
	node := svc.server.Network()
	chain, err := parseFollowerChain(args.Chain, node)
	if err != nil {
		return err
	}
	if err := svc.ctrl.ResumeFollower(chain); err != nil {
		return fmt.Errorf("resuming the %s follower: %w", node.ChainName(chain), err)
	}
	*reply = FollowerReply{Chain: node.ChainName(chain), Paused: false}
	return nil
}

// parseFollowerChain resolves the chain of a follower command among the
// chains the node follows: a node alias (P, X, C), a Data API alias, a chain
// name (any case) or a cb58 blockchain ID.
func parseFollowerChain(s string, node netinfo.Info) (netinfo.Chain, error) {
	if chain, err := netinfo.ParseChain(s); err == nil {
		return chain, nil
	}
	if chain, ok := api.ChainByAlias(s); ok {
		return chain, nil
	}
	for _, ci := range node.Chains {
		if strings.EqualFold(s, ci.Name) || s == ci.BlockchainID.String() {
			return ci.Chain, nil
		}
	}
	return 0, &json2.Error{Code: json2.E_BAD_PARAMS, Message: fmt.Sprintf(
		"invalid chain %q: want P, X, C, p-chain, x-chain, c-chain, or the name or blockchain ID of a followed chain (%s)",
		api.Truncate(s), followedChainNames(node))}
}

// followedChainNames lists the followed chains as "name (blockchain ID)".
func followedChainNames(node netinfo.Info) string {
	parts := make([]string, len(node.Chains))
	for i, ci := range node.Chains {
		parts[i] = node.ChainName(ci.Chain) + " (" + ci.BlockchainID.String() + ")"
	}
	return strings.Join(parts, ", ")
}

// methodCaseCodec wraps json2 so clients can call methods in the usual
// lower-camel case ("avadata.pauseFollower") while Go requires exported
// method names, and so that lookup and argument failures carry the proper
// JSON-RPC error codes instead of gorilla's generic server error.
type methodCaseCodec struct {
	adminEnabled bool
	hasMethod    func(method string) bool
}

func (c methodCaseCodec) NewRequest(r *http.Request) rpc.CodecRequest {
	inner := json2.NewCodec().NewRequest(r).(*json2.CodecRequest)
	return &methodCaseRequest{CodecRequest: inner, codec: c}
}

type methodCaseRequest struct {
	*json2.CodecRequest
	codec methodCaseCodec
}

// Method maps "avadata.fooBar" to the Go method "avadata.FooBar" and
// reports unknown methods as E_NO_METHOD.
func (r *methodCaseRequest) Method() (string, error) {
	method, err := r.CodecRequest.Method()
	if err != nil {
		return "", err // parse / invalid request errors, already JSON-RPC errors
	}
	service, name, found := strings.Cut(method, ".")
	first, size := utf8.DecodeRuneInString(name)
	goMethod := service + "." + string(unicode.ToUpper(first)) + name[size:]
	if !found || first == utf8.RuneError || unicode.IsUpper(first) || !r.codec.hasMethod(goMethod) {
		return "", &json2.Error{Code: json2.E_NO_METHOD, Message: r.codec.unknownMethodMessage(method)}
	}
	return goMethod, nil
}

func (c methodCaseCodec) unknownMethodMessage(method string) string {
	switch method {
	case rpcServiceName + ".pauseFollower", rpcServiceName + ".resumeFollower",
		rpcServiceName + ".exportWebhooks", rpcServiceName + ".importWebhooks":
		if !c.adminEnabled {
			return fmt.Sprintf("method %q is not available: the admin API is disabled on this node (adminApiEnabled)", method)
		}
	}
	return fmt.Sprintf("method %q not found", method)
}

// ReadRequest reports undecodable params as E_BAD_PARAMS.
func (r *methodCaseRequest) ReadRequest(args any) error {
	if err := r.CodecRequest.ReadRequest(args); err != nil {
		return &json2.Error{Code: json2.E_BAD_PARAMS, Message: "invalid params: " + err.Error()}
	}
	return nil
}
