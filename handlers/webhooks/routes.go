package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// Route names: the hosted API's operation IDs (the SDK's webhooks.*).
const (
	routeCreateWebhook                = "createWebhook"
	routeListWebhooks                 = "listWebhooks"
	routeGetWebhook                   = "getWebhook"
	routeUpdateWebhook                = "updateWebhook"
	routeDeactivateWebhook            = "deactivateWebhook"
	routeGenerateOrRotateSharedSecret = "generateOrRotateSharedSecret"
	routeGetSharedSecret              = "getSharedSecret"
	routeGetAddressesFromWebhook      = "getAddressesFromWebhook"
	routeAddAddressesToWebhook        = "addAddressesToWebhook"
	routeRemoveAddressesFromWebhook   = "removeAddressesFromWebhook"
)

// paramID is the {id} path parameter.
const paramID = "id"

// webhooksBase is the path of the webhooks; the secret operations are
// literal suffixes of it, as the SDK calls them.
const webhooksBase = "/v1/webhooks"

func (s *server) webhookRoutes() []api.Route {
	one := webhooksBase + "/{" + paramID + "}"
	return []api.Route{
		{Name: routeCreateWebhook, Method: http.MethodPost, Path: webhooksBase,
			Summary: "create a webhook", Handler: s.Adapt(s.serveCreateWebhook)},
		{Name: routeListWebhooks, Method: http.MethodGet, Path: webhooksBase,
			Summary: "list the webhooks", Handler: s.Adapt(s.serveListWebhooks)},
		{Name: routeGetWebhook, Method: http.MethodGet, Path: one,
			Summary: "one webhook", Handler: s.Adapt(s.serveGetWebhook)},
		{Name: routeUpdateWebhook, Method: http.MethodPatch, Path: one,
			Summary: "change a webhook", Handler: s.Adapt(s.serveUpdateWebhook)},
		{Name: routeDeactivateWebhook, Method: http.MethodDelete, Path: one,
			Summary: "deactivate a webhook", Handler: s.Adapt(s.serveDeactivateWebhook)},
		{Name: routeGenerateOrRotateSharedSecret, Method: http.MethodPost, Path: webhooksBase + ":generateOrRotateSharedSecret",
			Summary: "replace the shared secret deliveries are signed with", Handler: s.Adapt(s.serveGenerateOrRotateSharedSecret)},
		{Name: routeGetSharedSecret, Method: http.MethodGet, Path: webhooksBase + ":getSharedSecret",
			Summary: "the shared secret deliveries are signed with", Handler: s.Adapt(s.serveGetSharedSecret)},
		{Name: routeGetAddressesFromWebhook, Method: http.MethodGet, Path: one + "/addresses",
			Summary: "the addresses an address_activity webhook watches", Handler: s.Adapt(s.serveGetAddressesFromWebhook)},
		{Name: routeAddAddressesToWebhook, Method: http.MethodPatch, Path: one + "/addresses",
			Summary: "watch more addresses", Handler: s.Adapt(s.serveAddAddressesToWebhook)},
		{Name: routeRemoveAddressesFromWebhook, Method: http.MethodDelete, Path: one + "/addresses",
			Summary: "stop watching addresses", Handler: s.Adapt(s.serveRemoveAddressesFromWebhook)},
	}
}
