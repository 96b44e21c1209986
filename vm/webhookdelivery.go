package vm

import (
	"time"

	"github.com/avadata/avadata/handlers/webhooks/delivery"
)

// newWebhookDelivery builds the runner that sends the webhooks' outbox;
// Initialize starts it under vm.ctx, so Shutdown cuts off the deliveries
// in flight and what is left is sent after the next start.
func (vm *VM) newWebhookDelivery() *delivery.Runner {
	c := vm.config.Webhooks
	cfg := delivery.Config{
		AllowPrivateTargets: c.AllowPrivateTargets,
		MaxAge:              time.Duration(c.MaxAge),
		ConnectTimeout:      time.Duration(c.ConnectTimeout),
		ResponseTimeout:     time.Duration(c.ResponseTimeout),
		Concurrency:         c.Concurrency,
		UserAgent:           "avadata/" + Version + " (webhooks)",
	}
	return delivery.New(vm.store, cfg, vm.log)
}
