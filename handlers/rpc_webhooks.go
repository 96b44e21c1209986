package handlers

import (
	"errors"
	"net/http"

	"github.com/gorilla/rpc/v2/json2"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/webhooks"
)

// ExportWebhooksArgs are the (empty) arguments of avadata.exportWebhooks.
type ExportWebhooksArgs struct{}

// ImportWebhooksReply lists what avadata.importWebhooks wrote.
type ImportWebhooksReply struct {
	Webhooks []webhooks.ImportedWebhook `json:"webhooks"`
}

// ExportWebhooks returns this node's shared secret and webhooks, for
// avadata.importWebhooks on another replica (redundant delivery). The
// reply holds the secret: the admin API is the operator's alone.
func (svc *adminService) ExportWebhooks(r *http.Request, _ *ExportWebhooksArgs, reply *webhooks.ReplicaDocument) error {
	if err := svc.hooks.AdmitManagement(r, "avadata.exportWebhooks"); err != nil {
		return rpcWebhookError("exporting the webhooks", err)
	}
	doc, err := svc.hooks.ExportWebhooks(r.Context())
	if err != nil {
		return rpcWebhookError("exporting the webhooks", err)
	}
	*reply = doc
	return nil
}

// ImportWebhooks takes another replica's export: its secret becomes this
// node's and its webhooks are created or replaced under their own IDs.
// A refused document changes nothing.
func (svc *adminService) ImportWebhooks(r *http.Request, args *webhooks.ReplicaDocument, reply *ImportWebhooksReply) error {
	if err := svc.hooks.AdmitManagement(r, "avadata.importWebhooks"); err != nil {
		return rpcWebhookError("importing the webhooks", err)
	}
	imported, err := svc.hooks.ImportWebhooks(r.Context(), *args)
	if err != nil {
		return rpcWebhookError("importing the webhooks", err)
	}
	*reply = ImportWebhooksReply{Webhooks: imported}
	return nil
}

// rpcWebhookError answers bad input as invalid params with the check's
// message, a refused key with the status the REST operations answer;
// other failures name what was being done.
func rpcWebhookError(doing string, err error) error {
	var apiErr *api.Error
	if errors.As(err, &apiErr) && apiErr.Status == http.StatusBadRequest {
		return &json2.Error{Code: json2.E_BAD_PARAMS, Message: "invalid params: " + apiErr.Message}
	}
	if errors.As(err, &apiErr) && (apiErr.Status == http.StatusUnauthorized || apiErr.Status == http.StatusForbidden) {
		return &json2.Error{Code: json2.E_SERVER, Message: doing + ": " + http.StatusText(apiErr.Status) + ": " + apiErr.Message}
	}
	return &json2.Error{Code: json2.E_SERVER, Message: doing + ": " + err.Error()}
}
