// Package webhooks serves the hosted API's webhook management operations
// (the SDK's webhooks.*): create, list, read, change and deactivate the
// node's webhooks, change the addresses an address_activity webhook
// watches, and read or rotate the shared secret every delivery is signed
// with. The records live in the node's own index (indexer/store), which
// the chain writers match blocks against; the delivery runner
// (handlers/webhooks/delivery) sends what they produce.
//
// Reading needs an API key the operator configured; everything else needs
// one of the webhook management keys (401 without a key, 403 with a key
// that may only read): a webhook makes the node send requests to a URL of
// the caller's choosing, and the secret lets anyone forge deliveries.
//
// Webhooks are node-local: behind a load balancer the management calls go
// to one node; the operator copies its webhooks to other replicas for
// redundant delivery (replicas.go; README.md, Webhooks across replicas).
package webhooks

import (
	"context"
	"net/http"
	"net/netip"
	"sync"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// Backend keeps the webhooks (*store.Store, with the node's heights from
// the VM).
type Backend interface {
	CreateWebhook(ctx context.Context, h webhookdata.Webhook) (webhookdata.Webhook, error)
	UpdateWebhook(ctx context.Context, id webhookdata.ID, chain netinfo.Chain, fromHeight uint64,
		change func(h webhookdata.Webhook) (webhookdata.Webhook, error)) (webhookdata.Webhook, error)
	Webhook(ctx context.Context, id webhookdata.ID) (webhookdata.Webhook, bool, error)
	Webhooks(ctx context.Context) ([]webhookdata.Webhook, error)
	WebhookSecret(ctx context.Context) (string, error)
	RotateWebhookSecret(ctx context.Context) (string, error)
	// ImportWebhooks creates or replaces webhooks under their own IDs and
	// sets the shared secret, all at once (a copy from another replica).
	ImportWebhooks(ctx context.Context, hooks []webhookdata.Webhook, secret string) ([]webhookdata.Webhook, error)
	// NextHeight is the height of the first block of chain the node
	// accepts from now on (its height now + 1); false when the node's
	// height is not known yet (the chain's follower has not read it).
	NextHeight(ctx context.Context, chain netinfo.Chain) (uint64, bool)
}

// Resolver looks a URL's host up (net.DefaultResolver).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// server serves the webhook operations.
type server struct {
	*api.Core
	cfg Config
	// hooks is nil when the node keeps no webhooks: every operation then
	// answers that it is not served.
	hooks Backend
	// limitMu makes the count of webhooks and the write that changes it
	// one step, so concurrent creations cannot pass maxWebhooks together.
	limitMu sync.Mutex
}

// Routes returns the routes of the webhook operations.
func Routes(core *api.Core, cfg Config, hooks Backend) []api.Route {
	return NewService(core, cfg, hooks).Routes()
}

// Service is the webhook operations of one node: the API's routes and the
// operator's copy between replicas (replicas.go), which share the quota's
// lock.
type Service struct {
	s *server
}

// NewService serves the webhooks hooks keeps; hooks may be nil (the node
// keeps none).
func NewService(core *api.Core, cfg Config, hooks Backend) *Service {
	return &Service{s: &server{Core: core, cfg: cfg.withDefaults(), hooks: hooks}}
}

// Routes returns the routes of the webhook operations.
func (v *Service) Routes() []api.Route { return v.s.webhookRoutes() }

// AdmitManagement admits a request to operation (the admin JSON-RPC's
// webhook copies) as the management operations are: a management key, 401
// without any key, 403 with a key that may only read. The copies carry the
// secret and write webhooks, so enabling the admin API is not enough.
func (v *Service) AdmitManagement(r *http.Request, operation string) error {
	return v.s.managing(r, operation)
}
