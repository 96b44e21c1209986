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
