package handlers

import (
	"testing"

	"github.com/gorilla/rpc/v2/json2"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestRPCWebhookCopyNeedsTheAdminAPI(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), nil)
	for _, method := range []string{"avadata.exportWebhooks", "avadata.importWebhooks"} {
		body := `{"jsonrpc":"2.0","method":"` + method + `","params":{},"id":1}`
		requireRPCError(t, callRPC(t, srv, body), json2.E_NO_METHOD, "adminApiEnabled")
	}
}

func TestRPCImportWebhooksBadParams(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), &handlertest.Controller{})
	body := `{"jsonrpc":"2.0","method":"avadata.importWebhooks","params":{"secret":"s","webhooks":"nope"},"id":1}`
	requireRPCError(t, callRPC(t, srv, body), json2.E_BAD_PARAMS, "invalid params")
}

// The copies carry the secret and write webhooks: the admin API alone does
// not admit them, a management key does (none here: 401 without a key,
// 403 with a key that may only read).
func TestRPCWebhookCopyNeedsAManagementKey(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.NewFakes(), &handlertest.Controller{})
	for _, method := range []string{"avadata.exportWebhooks", "avadata.importWebhooks"} {
		body := `{"jsonrpc":"2.0","method":"` + method + `","params":{"secret":"s","webhooks":[]},"id":1}`
		requireRPCError(t, callRPC(t, srv, body), json2.E_SERVER, "Unauthorized")
		requireRPCError(t, callRPC(t, srv, body, "x-glacier-api-key", "known-key"), json2.E_SERVER, "Forbidden")
	}
}
