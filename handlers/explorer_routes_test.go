package handlers

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

// The explorer's catch-all /explorer/{rest:.*} answers only what no page route
// serves: every page of the route table is reached through the whole
// HTTP layer, the primary-network pages with a pattern segment included.
func TestExplorerPagesAreRoutedBeforeTheCatchAll(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()), &handlertest.Controller{})
	for _, path := range []string{
		"/explorer/p-chain/block/1",
		"/explorer/x-chain/block/1",
		"/explorer/p-chain/tx/" + handlertest.PChainID,
		"/explorer/c-chain/address/C-local1qyqszqgpqyqszqgpqyqszqgpqyqszqgpjhn9zv",
	} {
		rec := httptest.NewRecorder()
		srv.Handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://node/ext/bc/data"+path, nil))
		require.NotContains(t, rec.Body.String(), "no explorer page at", "%s is a page of the route table but the router answers the catch-all", path)
	}
}
