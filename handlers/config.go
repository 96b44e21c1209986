package handlers

import (
	"github.com/avadata/avadata/handlers/evm"
	"github.com/avadata/avadata/handlers/explorer"
	"github.com/avadata/avadata/handlers/serve"
	"github.com/avadata/avadata/handlers/webhooks"
)

// Config tunes the HTTP layer: the request path every operation shares, and
// each domain's own settings. The zero value is usable: every limit falls
// back to its default and no API key is known (so only anonymous requests
// are accepted).
type Config struct {
	serve.Config
	// EVM tunes the EVM operations.
	EVM evm.Config
	// Webhooks tunes the webhook operations.
	Webhooks webhooks.Config
	// Explorer tunes the explorer's pages.
	Explorer explorer.Config
}
