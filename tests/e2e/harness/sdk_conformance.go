package harness

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// SDKConformance is one domain's run of the official SDK against avadata:
// its calls, and what the domain and its issue cover (for the coverage
// check and the summary).
type SDKConformance struct {
	// Base is avadata's base URL: the per-call serverURL, the only thing a
	// user changes.
	Base string
	// ServerURL, when set, is the per-call serverURL instead of Base: the
	// Metrics API's (Base + "/metrics"), which the SDK's metrics calls need
	// (they ignore a client-level one).
	ServerURL string
	// Domain names the domain in the summary ("EVM", "primary").
	Domain string
	// InDomain reports whether an SDK function belongs to the domain: every
	// served one needs a call.
	InDomain func(SDKFunction) bool
	// Issue names the issue whose operations IssueOperations are ("issue
	// 17"); every one with an SDK function needs a call, served or pending.
	Issue           string
	IssueOperations []string
	// Pending are operations (operationIds, as in handlers/doc.go's table)
	// whose calls are written before avadata serves them: their calls are
	// skipped, and the run fails while a served one is still listed.
	Pending []string
	// APIKey, when set, is the key the keyed calls send instead of
	// SDKAPIKey: the webhook management key, which the webhooks.* calls
	// that change something need.
	APIKey string
	// MaxPages is how many pages a call follows unless its case says.
	MaxPages int
	Checks   []SDKCheck
	// Known are the deviations from the SDK's schema the run tolerates
	// while they last (SDKDeviation).
	Known []SDKDeviation
}

// RunSDKConformance installs the pinned SDK, requires that the checks
// cover the domain (every SDK function of it that avadata serves, every one
// of the issue), runs every call whose operation is not pending and checks
// each in a subtest of its name; the log ends with a summary of all the
// SDK's functions: which avadata serves and this run checks, which are
// pending, which are other domains' or not served, and the served
// operations that have no SDK function.
func RunSDKConformance(t *testing.T, ctx context.Context, c SDKConformance) {
	t.Helper()
	sdk := InstallSDK(t)
	catalog := sdk.Catalog(t, ctx)
	byFunc := map[string]SDKFunction{}
	for _, fn := range catalog.Functions {
		byFunc[fn.Func] = fn
	}
	served := ServedOperations(t, ctx, c.Base)
	pending := map[string]bool{}
	for _, op := range c.Pending {
		pending[op] = true
		require.False(t, served[op], "avadata serves %s now: remove it from pendingOperations so its SDK cases run", op)
	}
	c.requireCoverage(t, byFunc, served)

	apiKey := SDKAPIKey()
	if c.APIKey != "" {
		apiKey = c.APIKey
	}
	in := SDKInput{BaseURL: c.Base, APIKey: apiKey, MaxPages: c.MaxPages}
	if c.ServerURL != "" {
		in.BaseURL = c.ServerURL
	}
	var run []SDKCheck
	skipped := map[string]int{}
	for _, check := range c.Checks {
		op := byFunc[check.Func].OperationID
		if pending[op] {
			skipped[op]++
			continue
		}
		if check.APIKey && apiKey == "" {
			t.Errorf("%s: %s needs an API key, and the shared network configures none (harness.ChainConfig apiKeys)", check.Name, op)
			continue
		}
		run = append(run, check)
		in.Cases = append(in.Cases, check.SDKCase)
	}
	report := sdk.Run(t, ctx, in)
	met := map[int]bool{}
	for i, r := range report.Results {
		check := run[i]
		t.Run(r.Name, func(t *testing.T) {
			for _, k := range CheckSDKResult(t, check, r, c.Known) {
				met[k] = true
			}
		})
	}
	ran := map[string]bool{}
	for _, check := range run {
		ran[check.Func] = true
	}
	for i, d := range c.Known {
		if ran[d.Func] {
			require.True(t, met[i], "no call meets the known deviation of %s any more (%s): remove it from the list", d.Func, d.Why)
		}
	}
	c.logSummary(t, catalog, served, pending, skipped, len(run))
}

// requireCoverage checks the calls name SDK functions that exist, and that
// every served function of the domain and every operation of the issue
// with an SDK function has a call.
func (c SDKConformance) requireCoverage(t *testing.T, byFunc map[string]SDKFunction, served map[string]bool) {
	t.Helper()
	covered := map[string]bool{}
	for _, check := range c.Checks {
		fn, ok := byFunc[check.Func]
		require.True(t, ok, "%s: the SDK has no function %s", check.Name, check.Func)
		covered[fn.OperationID] = true
	}
	issue := c.issueSet()
	for _, fn := range byFunc {
		if (c.InDomain(fn) && served[fn.OperationID]) || issue[fn.OperationID] {
			require.True(t, covered[fn.OperationID], "no SDK case calls %s (%s, %s %s)", fn.Func, fn.OperationID, fn.HTTPMethod, fn.Path)
		}
	}
}

func (c SDKConformance) issueSet() map[string]bool {
	issue := map[string]bool{}
	for _, op := range c.IssueOperations {
		issue[op] = true
	}
	return issue
}

// logSummary logs, for every SDK function, whether avadata serves it and
// this run checks it, and which served operations have no SDK function.
func (c SDKConformance) logSummary(t *testing.T, catalog SDKCatalog, served, pending map[string]bool, skipped map[string]int, ran int) {
	t.Helper()
	issue := c.issueSet()
	calls := map[string]int{}
	for _, check := range c.Checks {
		calls[check.Func]++
	}
	skippedCalls := 0
	for _, n := range skipped {
		skippedCalls += n
	}
	counts := map[string]int{}
	var b strings.Builder
	fmt.Fprintf(&b, "SDK @avalanche-sdk/chainkit %s: %d functions (%d calls made, %d written for pending operations)\n",
		catalog.SDKVersion, len(catalog.Functions), ran, skippedCalls)
	fmt.Fprintf(&b, "%-24s %-72s %-44s %s\n", "state", "method (function)", "operationId", "route")
	inSDK := map[string]bool{}
	for _, fn := range catalog.Functions {
		inSDK[fn.OperationID] = true
		var state string
		switch {
		case fn.OperationID == "":
			state = "client-side helper"
		case pending[fn.OperationID]:
			state = c.Issue + ", pending"
		case served[fn.OperationID] && calls[fn.Func] > 0 && issue[fn.OperationID]:
			state = c.Issue + ", checked"
		case served[fn.OperationID] && calls[fn.Func] > 0:
			state = c.Domain + ", checked"
		case served[fn.OperationID]:
			state = "served, other domain"
		case c.InDomain(fn):
			state = c.Domain + ", not served"
		default:
			state = "not served"
		}
		counts[state]++
		fmt.Fprintf(&b, "%-24s %-72s %-44s %s %s\n", state, fmt.Sprintf("%s (%s)", fn.Method, fn.Func), fn.OperationID, fn.HTTPMethod, fn.Path)
	}
	states := make([]string, 0, len(counts))
	for s := range counts {
		states = append(states, s)
	}
	sort.Strings(states)
	for _, s := range states {
		fmt.Fprintf(&b, "  %-24s %d\n", s, counts[s])
	}
	var noSDK []string
	for op := range served {
		if !inSDK[op] {
			noSDK = append(noSDK, op)
		}
	}
	sort.Strings(noSDK)
	fmt.Fprintf(&b, "served by avadata, no function in SDK %s: %s\n", catalog.SDKVersion, strings.Join(noSDK, ", "))
	var issueNoSDK []string
	for _, op := range c.IssueOperations {
		if !inSDK[op] {
			issueNoSDK = append(issueNoSDK, op)
		}
	}
	fmt.Fprintf(&b, "%s operations with no SDK function: %s\n", c.Issue, strings.Join(issueNoSDK, ", "))
	t.Log(b.String())
}
