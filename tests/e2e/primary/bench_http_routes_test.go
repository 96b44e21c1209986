package primary

import (
	"context"
	"encoding/json"
	"fmt"
	rand "math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/vms/avm"
	"github.com/ava-labs/avalanchego/vms/platformvm"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/vm"
)

// Settings of BenchmarkPrimaryHTTPRoutes.
const (
	httpBenchClients    = 32     // concurrent HTTP clients
	httpBenchUTXOs      = 10_000 // UTXOs of the holder's X-chain address
	httpBenchValidators = 2_000  // primary-network validators added
	httpBenchPageSize   = 100    // the utxos listing's largest GET page
	httpBenchDeepPage   = 50     // the deep page: UTXOs 4,901 to 5,000
)

// httpBenchRequests is how many requests each side gets per iteration
// (AVADATA_BENCH_PRIMARY_HTTP_REQS).
func httpBenchRequests() int { return harness.EnvInt("AVADATA_BENCH_PRIMARY_HTTP_REQS", 5_000) }

// BenchmarkPrimaryHTTPRoutes serves primary-network routes to 32
// concurrent clients through the node's HTTP server (node → gRPC → plugin),
// each side reported against the trivial route (/v1/status, the hop's
// limit) measured in the same run:
//   - utxos: getUtxosByAddresses of an X-chain address holding 10,000
//     UTXOs, first page (pageSize 100);
//   - utxos-deep: the same listing's 50th page (UTXOs 4,901-5,000), by the
//     page token the walk there returned;
//   - validators: listValidators over 2,000 validators and more with
//     filters (status, delegation capacity, time remaining, fee, node ID
//     substring, sort), first page;
//   - tx: getTxByHash of the validators' AddPermissionlessValidatorTxs;
//   - trivial: /v1/status.
//
// Everything served is real: the UTXOs are 15 X-chain BaseTxs of 700
// outputs each (the X-chain's largest tx is 64 KiB), and the validators
// are 2,000 AddPermissionlessValidatorTxs the node accepted (about six
// minutes on a local network: the P-chain's gas refill admits about six a
// second). The network is the benchmark's own, started fresh. The setup runs once; the sub-benchmark
// runs the loads b.N times (ns/op: one round of the five loads,
// AVADATA_BENCH_PRIMARY_HTTP_REQS requests each).
func BenchmarkPrimaryHTTPRoutes(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	began := time.Now()
	f := setupPrimaryHTTPBench(b, ctx)
	b.Logf("setup took %s", time.Since(began).Round(time.Second))

	b.Run(fmt.Sprintf("clients=%d", httpBenchClients), func(b *testing.B) {
		rates := f.load.RunSides(b, ctx, httpBenchRequests(), f.loads())
		for side, rate := range rates {
			if side != "trivial" && rates["trivial"] > 0 {
				b.ReportMetric(rate/rates["trivial"], side+"/trivial-x")
			}
		}
		plugin := harness.ProcStatusKB(b, f.load.PluginPID(b, vm.ID.String()))
		b.ReportMetric(plugin["VmRSS"]/1024, "plugin-rss-MB")
		b.ReportMetric(f.idleCPU, "plugin-idle-cpu-%")
	})
}

// primaryHTTPBench is the benchmark's network and what the setup made.
type primaryHTTPBench struct {
	net        *localnet.Network
	load       *harness.HTTPLoad
	holder     string // the X-chain address holding the UTXOs ("X-local1...")
	deepURL    string // the holder's deep page
	validators []benchValidator
	idleCPU    float64 // plugin CPU use before the load, % of a core
}

func setupPrimaryHTTPBench(b *testing.B, ctx context.Context) *primaryHTTPBench {
	net := harness.StartBenchNetwork(b, ctx)
	f := &primaryHTTPBench{net: net, load: harness.NewHTTPLoad(net, httpBenchClients, harness.AvadataPlugin())}
	holder := ids.GenerateTestShortID()
	bech, err := address.FormatBech32(constants.GetHRP(constants.LocalID), holder.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	f.holder = "X-" + bech

	began := time.Now()
	utxoTxs := issueUTXOs(b, ctx, net.URI(), holder, httpBenchUTXOs)
	b.Logf("%d UTXOs paid to %s in %d X-chain txs in %v", httpBenchUTXOs, f.holder, len(utxoTxs), time.Since(began).Round(time.Second))
	began = time.Now()
	f.validators = issueValidators(b, ctx, net.URI(), httpBenchValidators)
	b.Logf("%d validators added in %v", len(f.validators), time.Since(began).Round(time.Second))

	pHeight, err := platformvm.NewClient(net.URI()).GetHeight(ctx)
	if err != nil {
		b.Fatal(err)
	}
	xHeight, err := avm.NewClient(net.URI(), "X").GetHeight(ctx)
	if err != nil {
		b.Fatal(err)
	}
	for chain, h := range map[string]uint64{"P": pHeight, "X": xHeight} {
		harness.PollStatus(b, ctx, net.BaseURL(), chain, func(s harness.FollowerStatus) bool { return s.IndexedHeight >= h })
	}
	settled, idle := f.load.WaitPluginSettled(b, ctx)
	f.idleCPU = idle
	b.Logf("avadata indexed P to %d and X to %d; the plugin settled %v later, then used %.0f%% of a core idle",
		pHeight, xHeight, settled.Round(time.Second), idle)
	f.checkResponses(b, ctx)
	return f
}

// networkURL is /v1/networks/local/{rest}?{q} on the benchmark's network.
func (f *primaryHTTPBench) networkURL(rest string, q url.Values) string {
	u := f.net.BaseURL() + "/v1/networks/" + primaryNetwork + "/" + rest
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

func (f *primaryHTTPBench) utxosURL() string {
	return f.networkURL("blockchains/x-chain/utxos", url.Values{"addresses": {f.holder}, "pageSize": {fmt.Sprint(httpBenchPageSize)}})
}

func (f *primaryHTTPBench) txURL(v benchValidator) string {
	return f.networkURL("blockchains/p-chain/transactions/"+v.txID.String(), nil)
}

// validatorQueries are the listValidators filters the validators side
// picks from (first pages).
func (f *primaryHTTPBench) validatorQueries() []url.Values {
	someNode := f.validators[len(f.validators)/2].nodeID.String()
	return []url.Values{
		{"validationStatus": {"active"}},
		{"validationStatus": {"active"}, "sortBy": {"delegationCapacity"}, "minDelegationCapacity": {"1000000000000"}},
		{"sortBy": {"timeRemaining"}, "sortOrder": {"asc"}, "minTimeRemaining": {"600"}, "maxTimeRemaining": {"86400"}},
		{"sortBy": {"delegationFee"}, "minFeePercentage": {"10"}, "maxFeePercentage": {"30"}},
		{"sortBy": {"uptimePerformance"}, "minUptimePerformance": {"0"}},
		{"nodeIds": {someNode[:16]}},
		{"subnetId": {constants.PrimaryNetworkID.String()}, "sortBy": {"blockIndex"}},
	}
}

// loads are the benchmark's sides, in the order they run each round.
func (f *primaryHTTPBench) loads() []harness.LoadSide {
	get := func(ctx context.Context, u string) *http.Request {
		return harness.MustRequest(ctx, http.MethodGet, u, nil)
	}
	var validatorURLs []string
	for _, q := range f.validatorQueries() {
		validatorURLs = append(validatorURLs, f.networkURL("validators", q))
	}
	return []harness.LoadSide{
		{Name: "utxos", Next: func(ctx context.Context, _ *rand.Rand) *http.Request { return get(ctx, f.utxosURL()) }},
		{Name: "utxos-deep", Next: func(ctx context.Context, _ *rand.Rand) *http.Request { return get(ctx, f.deepURL) }},
		{Name: "validators", Next: func(ctx context.Context, rng *rand.Rand) *http.Request {
			return get(ctx, validatorURLs[rng.IntN(len(validatorURLs))])
		}},
		{Name: "tx", Next: func(ctx context.Context, rng *rand.Rand) *http.Request {
			return get(ctx, f.txURL(f.validators[rng.IntN(len(f.validators))]))
		}},
		{Name: "trivial", Next: func(ctx context.Context, _ *rand.Rand) *http.Request {
			return get(ctx, f.net.BaseURL()+harness.BenchTrivialPath)
		}},
	}
}

// getJSON GETs u, requires a 200 and decodes the body into v.
func getJSON(b *testing.B, ctx context.Context, u string, v any) {
	status, raw, err := harness.HTTPGet(ctx, u)
	if err == nil && status == http.StatusOK {
		err = json.Unmarshal(raw, v)
	}
	if err != nil || status != http.StatusOK {
		b.Fatalf("GET %s: %d %v: %.300s", u, status, err, raw)
	}
}

// checkResponses checks every side answers with real content (the load
// checks only status codes), and walks the holder's UTXOs to the deep page:
// every page full, none repeated.
func (f *primaryHTTPBench) checkResponses(b *testing.B, ctx context.Context) {
	type utxoPage struct {
		UTXOs []struct {
			UTXOID string `json:"utxoId"`
		} `json:"utxos"`
		NextPageToken string `json:"nextPageToken"`
	}
	seen := map[string]bool{}
	next := f.utxosURL()
	for page := 1; page < httpBenchDeepPage; page++ {
		var p utxoPage
		getJSON(b, ctx, next, &p)
		if len(p.UTXOs) != httpBenchPageSize || p.NextPageToken == "" {
			b.Fatalf("utxos page %d of %s: %d UTXOs, next page token %q", page, f.holder, len(p.UTXOs), p.NextPageToken)
		}
		for _, u := range p.UTXOs {
			if seen[u.UTXOID] {
				b.Fatalf("utxos page %d: %s again", page, u.UTXOID)
			}
			seen[u.UTXOID] = true
		}
		next = f.utxosURL() + "&pageToken=" + url.QueryEscape(p.NextPageToken)
	}
	f.deepURL = next
	var deep utxoPage
	getJSON(b, ctx, f.deepURL, &deep)
	if len(deep.UTXOs) != httpBenchPageSize {
		b.Fatalf("the deep utxos page: %d UTXOs", len(deep.UTXOs))
	}

	for _, q := range f.validatorQueries() {
		var all struct {
			Validators []struct {
				NodeID string `json:"nodeId"`
			} `json:"validators"`
			NextPageToken string `json:"nextPageToken"`
		}
		getJSON(b, ctx, f.networkURL("validators", q), &all)
		// The node knows no uptime of the added validators: the uptime
		// filter may leave nothing.
		if len(all.Validators) == 0 && !q.Has("minUptimePerformance") {
			b.Fatalf("listValidators %v: no validator among %d", q, len(f.validators))
		}
		b.Logf("listValidators %v: %d on the first page, more: %v", q, len(all.Validators), all.NextPageToken != "")
	}
	v := f.validators[0]
	var tx struct {
		TxHash string `json:"txHash"`
		TxType string `json:"txType"`
	}
	getJSON(b, ctx, f.txURL(v), &tx)
	if tx.TxHash != v.txID.String() || !strings.Contains(tx.TxType, "Validator") {
		b.Fatalf("getTxByHash %s: %+v", v, tx)
	}
	var status struct {
		Chains []json.RawMessage `json:"chains"`
	}
	getJSON(b, ctx, f.net.BaseURL()+harness.BenchTrivialPath, &status)
}
