package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// parseAddressesChangeRequest reads an AddressesChangeRequest for webhook
// h, which must be an address_activity one (the addresses operations are
// only for EVM webhooks, as the hosted API's are): 1 or more EVM
// addresses, lower case and each once.
func (s *server) parseAddressesChangeRequest(r *http.Request, h webhookdata.Webhook, operation string) ([]string, error) {
	if h.EventType != webhookdata.AddressActivity {
		return nil, api.BadRequest("%s applies only to address_activity webhooks; webhook %s is %s (change its keys by "+
			"creating another)", operation, h.ID, h.EventType)
	}
	fields, err := api.ReadJSONObject(r, maxBodyBytes, []string{fieldAddresses})
	if err != nil {
		return nil, err
	}
	list, err := stringList(fields, "", fieldAddresses)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, api.BadRequest("%s is required: 1 or more EVM addresses (0x and 40 hex digits)", fieldAddresses)
	}
	return s.evmAddresses(nil, list, fieldAddresses)
}

// changeAddresses writes the addresses change computes from a webhook's
// current ones (under the store's write, so concurrent changes compose).
// The status stays as it is, so the store takes no first height from the
// call (fromHeight 0).
func (s *server) changeAddresses(r *http.Request, h webhookdata.Webhook, change func(have []string) ([]string, error)) (webhookdata.Webhook, error) {
	return s.hooks.UpdateWebhook(r.Context(), h.ID, h.Chain, 0,
		func(h webhookdata.Webhook) (webhookdata.Webhook, error) {
			addrs, err := change(h.Metadata.Addresses)
			if err != nil {
				return webhookdata.Webhook{}, err
			}
			h.Metadata.Addresses = addrs
			return h, nil
		})
}
