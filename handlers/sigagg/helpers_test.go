package sigagg

import (
	"testing"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
)

// NewAPI serves signature aggregation over fakes, with aggregator as
// the node's aggregator (nil: none).
func newTestAPI(t *testing.T, aggregator Aggregator) *handlertest.API {
	t.Helper()
	return handlertest.NewAPI(t, handlertest.Config(), handlertest.NewFakes(), func(core *api.Core) []api.Route { return Routes(core, aggregator) })
}
