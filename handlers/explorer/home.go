package explorer

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	"github.com/avadata/avadata/handlers/api"
)

// homeLatest is how many of each chain's latest blocks and transactions
// the home page shows.
const homeLatest = 5

// homeData is what the home page shows.
type homeData struct {
	Status    statusReply
	Followers []follower
	// Chains are the boxes of latest blocks and transactions, one per
	// chain: every EVM chain, P, X and the C-chain's atomic side.
	Chains []homeChain
	Charts homeCharts
}

// homeChain is one chain's box of latest blocks and transactions.
type homeChain struct {
	// ID is the box's id; Title its heading; Link the chain's page.
	ID, Title, Link string
	// EVMChainID is set for an EVM chain (links go below /evm/{id}); else
	// Primary is p-chain, x-chain or c-chain.
	EVMChainID uint64
	Primary    string
	Blocks     []any // the API's block objects, newest first
	Txs        []any // the API's transaction objects, newest first
	// NoBlocks is set where the chain has no blocks to list (C atomic).
	NoBlocks bool
	// Err says why the box is empty: the API's answer for this chain.
	Err string
}

// homeCharts are the activity charts of one EVM chain.
type homeCharts struct {
	// Chain is the charted EVM chain id, Interval "hour" or "day".
	Chain    string
	Interval string
	// Chains are the links to chart another chain, Intervals another
	// interval.
	Chains    []chartLink
	Intervals []chartLink
	Charts    []homeChart
}

// chartLink is a link that switches the charts.
type chartLink struct {
	Label, URL string
	Current    bool
}

// homeChart is one metric's chart.
type homeChart struct {
	Metric, Label string
	SVG           template.HTML // chart.go draws it
	Err           string
}

// homeMetric is one charted metric: the Metrics API's name, and a label.
type homeMetric struct{ metric, label string }

// homeMetrics are the charted metrics.
func homeMetrics() []homeMetric {
	return []homeMetric{{"txCount", "Transactions"}, {"activeAddresses", "Active addresses"}, {"gasUsed", "Gas used"}}
}

// serveHome draws the home page: every followed chain with its heights and
// catch-up progress, each chain's latest blocks and transactions, and the
// activity charts of the EVM chain the query names (chart=<chain id>,
// interval=hour|day). One chain's failure shows in its box.
func (s *server) serveHome(r *http.Request, req *request) (view, error) {
	ctx := r.Context()
	interval := req.Query.Get("interval")
	switch interval {
	case "":
		interval = "hour"
	case "hour", "day":
	default:
		return view{}, api.BadRequest("invalid interval '%s': must be 'hour' or 'day'", api.Truncate(interval))
	}
	status, err := s.readStatus(ctx)
	if err != nil {
		return view{}, err
	}
	data := homeData{Status: status, Followers: status.followers()}

	// The boxes: each asks for its blocks and transactions; all at once.
	latest := url.Values{"pageSize": {fmt.Sprint(homeLatest)}}
	var calls []apiCall
	// at is the index in calls of each box's blocks and transactions (-1:
	// none).
	var at [][2]int
	add := func(blocks, txs *apiCall) {
		idx := [2]int{-1, -1}
		for j, c := range []*apiCall{blocks, txs} {
			if c != nil {
				idx[j] = len(calls)
				calls = append(calls, *c)
			}
		}
		at = append(at, idx)
	}
	chains := s.primaryChains()
	for _, c := range status.Network.EVMChains {
		id := fmt.Sprint(c.EVMChainID)
		data.Chains = append(data.Chains, homeChain{ID: "evm-" + id, Title: evmChainLabel(c.Name, c.EVMChainID),
			Link: link(req, "evm", id), EVMChainID: c.EVMChainID})
		add(ptr(call(latest, "v1", "chains", id, "blocks")), ptr(call(latest, "v1", "chains", id, "transactions")))
	}
	for _, p := range chains.list {
		box := homeChain{ID: p.Alias, Title: p.Label, Link: link(req, p.Alias), Primary: p.Alias, NoBlocks: !p.HasBlocks()}
		var blocks *apiCall
		if p.HasBlocks() {
			blocks = ptr(call(latest, "v1", "networks", req.Network, "blockchains", p.Alias, "blocks"))
		} else {
			box.Title += " atomic transactions"
		}
		data.Chains = append(data.Chains, box)
		add(blocks, ptr(call(latest, "v1", "networks", req.Network, "blockchains", p.Alias, "transactions")))
	}

	if data.Charts, err = s.homeCharts(req, status, interval); err != nil {
		return view{}, err
	}
	charts := len(calls)
	for _, m := range homeMetrics() {
		calls = append(calls, call(url.Values{"timeInterval": {interval}, "pageSize": {fmt.Sprint(chartBuckets(interval))}},
			"metrics", "v2", "chains", data.Charts.Chain, "metrics", m.metric))
	}

	replies := s.getAll(ctx, calls...)
	for i := range data.Chains {
		box := &data.Chains[i]
		for j, key := range []string{"blocks", "transactions"} {
			if at[i][j] < 0 {
				continue
			}
			rep := replies[at[i][j]]
			if rep.Err != nil && box.Err == "" {
				box.Err = errorMessage(rep.Err, s.errorStatus(r, rep.Err))
			}
			list, _ := rep.Body[key].([]any)
			if j == 0 {
				box.Blocks = list
			} else {
				box.Txs = list
			}
		}
	}
	for i, m := range homeMetrics() {
		rep := replies[charts+i]
		c := homeChart{Metric: m.metric, Label: m.label}
		if rep.Err != nil {
			c.Err = errorMessage(rep.Err, s.errorStatus(r, rep.Err))
		} else {
			c.SVG = barChart(m.metric, m.label+" per "+interval, chartPoints(rep.Body), interval == "hour", chartBuckets(interval))
		}
		data.Charts.Charts = append(data.Charts.Charts, c)
	}
	return view{Template: "home", Title: "Home", Data: data}, nil
}

// chartBuckets is how many buckets a chart shows: a day of hours, a month
// of days.
func chartBuckets(interval string) int {
	if interval == "hour" {
		return 24
	}
	return 30
}

// homeCharts picks the charted chain (the query's chart=, which must be
// the EVM chain id of a followed chain, else the C-chain) and makes the
// links that switch chain and interval.
func (s *server) homeCharts(req *request, status statusReply, interval string) (homeCharts, error) {
	hc := homeCharts{Chain: req.Query.Get("chart"), Interval: interval}
	asked := hc.Chain != ""
	if !asked {
		hc.Chain = fmt.Sprint(status.Network.EVMChainID)
		if status.Network.EVMChainID == 0 && len(status.Network.EVMChains) > 0 {
			hc.Chain = fmt.Sprint(status.Network.EVMChains[0].EVMChainID)
		}
	}
	known := false
	var followed []string
	for _, c := range status.Network.EVMChains {
		id := fmt.Sprint(c.EVMChainID)
		known = known || (c.EVMChainID != 0 && id == hc.Chain)
		followed = append(followed, id)
		hc.Chains = append(hc.Chains, chartLink{Label: evmChainLabel(c.Name, c.EVMChainID), URL: withQuery(req, "chart", id), Current: id == hc.Chain})
	}
	if asked && !known {
		return hc, api.BadRequest("invalid chart '%s': must be the EVM chain id of a chain this node follows (%s)",
			api.Truncate(hc.Chain), strings.Join(followed, ", "))
	}
	for _, in := range []string{"hour", "day"} {
		hc.Intervals = append(hc.Intervals, chartLink{Label: "per " + in, URL: withQuery(req, "interval", in), Current: in == interval})
	}
	return hc, nil
}

func ptr[T any](v T) *T { return &v }
