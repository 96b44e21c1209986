package webhooks

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// settingManagementKeys names the config key of the management keys in
// messages.
const settingManagementKeys = "webhooks.managementKeys"

// reading admits a request that may read webhooks: any configured API key
// (401 without). The backend check comes after the key's, so a client
// without a key learns nothing about the node.
func (s *server) reading(r *http.Request, operation string) error {
	if err := api.RequireAPIKey(r, operation); err != nil {
		return err
	}
	if s.hooks == nil {
		return s.NotServedYet(r)
	}
	return nil
}

// managing admits a request that may change webhooks or touch the secret:
// a management key (401 without any key, 403 with a read-only one).
func (s *server) managing(r *http.Request, operation string) error {
	if err := api.RequireKeyAmong(r, operation, s.cfg.ManagementKeys, settingManagementKeys); err != nil {
		return err
	}
	if s.hooks == nil {
		return s.NotServedYet(r)
	}
	return nil
}
