package explorer

import (
	"context"
	"fmt"
	"html/template"
	"net/http"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Prefix is the explorer's path below the base URL.
const Prefix = "/explorer"

// Config tunes the explorer.
type Config struct {
	// RemoteImages lets NFT pages show images from other origins. The VM
	// sets it only where the operator enabled NFT metadata fetching
	// (nftMetadata.fetch): otherwise no page makes the browser ask another
	// origin for anything.
	RemoteImages bool
}

// TokenSearcher finds tokens by name or symbol, for the search box: the
// one question the API has no operation for.
type TokenSearcher interface {
	// SearchContracts lists up to limit contracts of chain whose name or
	// symbol contains text, case folded.
	SearchContracts(ctx context.Context, chain netinfo.Chain, text string, limit int) ([]evmdata.Contract, error)
}

// LogReader reads a transaction's event logs from the node, for the tx
// page: the index keeps no logs and the API gives none.
type LogReader interface {
	// TransactionLogs is the logs of the receipt of hash on chain; false
	// when the node has no receipt for it.
	TransactionLogs(ctx context.Context, chain netinfo.Chain, hash common.Hash) ([]evmdata.Log, bool, error)
}

// Readers are what the pages read besides the API; any may be nil (the
// search then finds no token names; the tx page says it cannot show logs;
// the token page says it cannot show an ERC-20's holders).
type Readers struct {
	Tokens  TokenSearcher
	Logs    LogReader
	Holders TokenHolders
}

// server serves the pages.
type server struct {
	*api.Core
	cfg Config
	// apiRoutes serves the API's own routes, in process (apiclient.go).
	apiRoutes http.Handler
	tokens    TokenSearcher
	logs      LogReader
	holders   TokenHolders
	events    eventTable
	pages     pageTemplates
}

// Routes returns the explorer's routes. apiRoutes must serve the API's
// routes (without the explorer's): the pages ask it for their data.
func Routes(core *api.Core, cfg Config, apiRoutes http.Handler, readers Readers) ([]api.Route, error) {
	pages, err := parseTemplates()
	if err != nil {
		return nil, fmt.Errorf("parsing the explorer's templates: %w", err)
	}
	s := &server{Core: core, cfg: cfg, apiRoutes: apiRoutes, tokens: readers.Tokens, logs: readers.Logs,
		holders: readers.Holders, events: newEventTable(), pages: pages}
	var routes []api.Route
	for _, p := range s.pageTable() {
		routes = append(routes, api.Route{
			Name: "explorer." + p.name, Method: http.MethodGet, Path: Prefix + p.path,
			Summary: "explorer: " + p.summary, Handler: s.serve(p.handler), Page: true,
		})
	}
	routes = append(routes, api.Route{
		Name: "explorer.static", Method: http.MethodGet, Path: Prefix + "/static/{file}",
		Summary: "explorer: its style sheet", Handler: http.HandlerFunc(s.serveStatic), Page: true,
	})
	// Any other path below the explorer is an HTML 404 page, not the API's
	// JSON one: a person mistyped a link. The router tries it after every
	// other route (a segment that may span "/" sorts last: serve's
	// bySpecificity).
	routes = append(routes, api.Route{
		Name: "explorer.notFound", Method: http.MethodGet, Path: Prefix + "/{rest:.*}",
		Summary: "explorer: no such page", Handler: s.serve(notFoundPage), Page: true,
	})
	return routes, nil
}

// page is one entry of the explorer's route table.
type page struct {
	name    string // route name, after "explorer."
	path    string // below Prefix
	summary string
	handler pageHandler
}

// pageTable is every page, in one table: the domains' files add theirs.
func (s *server) pageTable() []page {
	var pages []page
	pages = append(pages, s.networkPages()...)
	pages = append(pages, s.evmPages()...)
	pages = append(pages, s.primaryPages()...)
	pages = append(pages, s.stakingPages()...)
	return pages
}

// templateFuncs are the functions every template may call (format.go,
// links.go, chart.go).
func templateFuncs() template.FuncMap {
	funcs := template.FuncMap{}
	for name, fn := range formatFuncs() {
		funcs[name] = fn
	}
	for name, fn := range linkFuncs() {
		funcs[name] = fn
	}
	return funcs
}
