package vm

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/webhooks/delivery"
)

// runWebhookDelivery sends the webhooks' outbox until ctx ends (Shutdown
// cuts off the deliveries in flight; what is left is sent after the next
// start).
func (vm *VM) runWebhookDelivery(ctx context.Context) {
	c := vm.config.Webhooks
	cfg := delivery.Config{
		AllowPrivateTargets: c.AllowPrivateTargets,
		MaxAge:              time.Duration(c.MaxAge),
		ConnectTimeout:      time.Duration(c.ConnectTimeout),
		ResponseTimeout:     time.Duration(c.ResponseTimeout),
		Concurrency:         c.Concurrency,
		UserAgent:           "avadata/" + Version + " (webhooks)",
		Metrics:             vm.registry,
	}
	runner, err := delivery.New(vm.store, cfg, vm.log)
	if err != nil {
		// Deliveries matter more than their metrics.
		vm.log.Warn("delivering webhooks without metrics", zap.Error(err))
		cfg.Metrics = nil
		if runner, err = delivery.New(vm.store, cfg, vm.log); err != nil {
			vm.log.Error("not delivering webhooks", zap.Error(err))
			return
		}
	}
	runner.Run(ctx)
}
