package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestEVMSDKConformance runs the official Data API client,
// @avalanche-sdk/chainkit (pinned in tests/sdk/package.json), unmodified
// against the shared network's avadata: the only thing a user changes is
// the base URL (the per-call serverURL; the SDK ignores a client-level one),
// with telemetry and retries off as a test run needs offline. It calls
// every EVM operation avadata serves and every operation of issue 17 (the
// whole EVM surface), on both EVM chains, with the fixture's real
// addresses, blocks, tokens and contracts, following pages up to a cap
// (to the end where a case says so), and a few deliberate bad inputs that
// must get their typed error (BadRequestError, NotFoundError,
// UnauthorizedError with the spec's error body).
//
// Every call must succeed as the SDK sees it: a 2XX whose body passes the
// SDK's schema, and no raw key lost by the parse (Zod strips unknown keys,
// so a body that matched the wrong member of a union would lose data
// silently). The only ResponseValidationErrors tolerated are the
// documented fields where the project's spec deliberately overrides SDK
// 0.3.13 (../shared/spec/data-api.md wins; the reference's
// sdk-conformance.md §0 and §7 list them):
//   - metadata indexStatus is lower case ("indexed"; the SDK's enum is
//     upper case, INDEXED),
//   - a Price's (the SDK's Money) value is a decimal string (the SDK wants
//     a number),
//   - NFT holders' sortKey is an integer (the SDK wanted a string; 0.3.13
//     has no NFT holders function, so no call here meets it),
//   - signature aggregation answers 200 (the SDK accepts only 201; not an
//     EVM operation, so no call here meets it).
//
// and only when every Zod issue's path is one of those fields (for a
// union: when every issue of some member is); the same call is then made
// again with just those fields rewritten to the SDK's form
// (tests/sdk/conformance.mjs), and that must succeed, all its pages too.
//
// Operations whose cases are written before they are served go in
// pendingOperations (empty now): their cases are skipped, and the test
// fails while a served operation is still listed there.
//
// The test log ends with a summary of all the SDK's functions: which
// avadata serves and this test checks, which are pending, which are other
// domains' or not served, and the served operations that have no SDK
// function.
//
// It needs node and npm: the SDK is installed on first use with `npm ci`
// into tests/sdk/node_modules, and again only when package-lock.json
// changes. Run it alone with `make test-sdk` (or make test-e2e-evm
// TEST=SDK); conformance.mjs also runs by hand against any node (see its
// header).
func TestEVMSDKConformance(t *testing.T) {
	fixtures := evmFixtures(t)
	ctx, cancel := context.WithTimeout(context.Background(), evmTestTimeout)
	defer cancel()
	sdk := harness.InstallSDK(t)
	catalog := sdk.Catalog(t, ctx)
	byFunc := map[string]harness.SDKFunction{}
	for _, fn := range catalog.Functions {
		byFunc[fn.Func] = fn
	}
	served := servedOperations(t, ctx)
	pending := map[string]bool{}
	for _, op := range pendingOperations {
		pending[op] = true
		require.False(t, served[op], "avadata serves %s now: remove it from pendingOperations so its SDK cases run", op)
	}

	var checks []sdkCheck
	checks = append(checks, networkSDKChecks(fixtures)...)
	for _, f := range fixtures {
		checks = append(checks, chainSDKChecks(t, f)...)
	}
	requireSDKCoverage(t, checks, byFunc, served)

	apiKey := sdkAPIKey()
	in := harness.SDKInput{BaseURL: env.Base(t), APIKey: apiKey, MaxPages: 3}
	var run []sdkCheck
	skipped := map[string]int{}
	for _, c := range checks {
		op := byFunc[c.Func].OperationID
		if pending[op] {
			skipped[op]++
			continue
		}
		if c.APIKey && apiKey == "" {
			t.Errorf("%s: %s needs an API key, and the shared network configures none (harness.ChainConfig apiKeys)", c.Name, op)
			continue
		}
		run = append(run, c)
		in.Cases = append(in.Cases, c.SDKCase)
	}
	report := sdk.Run(t, ctx, in)
	for i, r := range report.Results {
		c := run[i]
		t.Run(r.Name, func(t *testing.T) { checkSDKResult(t, c, r) })
	}
	logSDKSummary(t, catalog, served, pending, checks, skipped, len(run))
}

// pendingOperations are operations (operationIds, as in handlers/doc.go's
// table) whose SDK cases are written before avadata serves them; they are
// skipped, and the test fails once one is served and still listed. Every
// operation of issue 17 is served: the list is empty.
var pendingOperations = []string{}

// issue17Operations are the operations issue 17 adds, by operationId.
// listTransactionsV2 has no SDK function (0.3.13 has no /v2 data route).
var issue17Operations = []string{
	"getLatestBlocks", "getBlock", "getTransactionsForBlock", "listLatestBlocksAllChains",
	"listLatestTransactions", "listLatestTransactionsAllChains",
	"listNativeTransactions", "listErc20Transactions", "listErc721Transactions", "listErc1155Transactions",
	"listInternalTransactions", "listTransactionsV2",
	"listErc20Balances", "listErc1155Balances", "listCollectibleBalances",
	"listTokens", "getTokenDetails", "reindexNft",
	"listContractDeployments",
	"listAddressChains", "getAddressChains", "listAllLatestTransactions", "listAllLatestBlocks",
	"data-health-check", "live-check",
	"postTransactionExportJob", "getOperationResult",
}

// servedOperations are the operationIds of avadata's own OpenAPI document,
// which its tests keep in step with its routes.
func servedOperations(t *testing.T, ctx context.Context) map[string]bool {
	t.Helper()
	r := harness.GetWithRetryAfter(t, ctx, env.Base(t)+"/openapi.json")
	require.Equal(t, http.StatusOK, r.Status, "GET /openapi.json: %s", r.Body)
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	r.Decode(t, &doc)
	served := map[string]bool{}
	for _, methods := range doc.Paths {
		for _, raw := range methods {
			var op struct {
				OperationID string `json:"operationId"`
			}
			if json.Unmarshal(raw, &op) == nil && op.OperationID != "" {
				served[op.OperationID] = true
			}
		}
	}
	require.NotEmpty(t, served, "avadata's OpenAPI document names no operation")
	return served
}

// sdkAPIKey is an API key the shared network's operator configured
// (harness.ChainConfig's apiKeys), which the SDK sends (x-glacier-api-key)
// on the operations that need one; empty when there is none.
func sdkAPIKey() string {
	switch keys := harness.ChainConfig()["apiKeys"].(type) {
	case []string:
		if len(keys) > 0 {
			return keys[0]
		}
	case []any:
		if len(keys) > 0 {
			return fmt.Sprint(keys[0])
		}
	}
	return ""
}

// isEVMFunction reports whether an SDK function belongs to the EVM
// surface this test covers: the EVM data, NFTs, the (EVM) exports and the
// service's health.
func isEVMFunction(fn harness.SDKFunction) bool {
	for _, prefix := range []string{"dataEvm", "dataNfts", "dataOperations"} {
		if strings.HasPrefix(fn.Func, prefix) {
			return true
		}
	}
	return fn.Func == "dataHealthCheck" || fn.Func == "dataLiveCheck"
}

// requireSDKCoverage checks the cases name SDK functions that exist, and
// that every served EVM operation and every operation of issue 17 with an
// SDK function has a case.
func requireSDKCoverage(t *testing.T, checks []sdkCheck, byFunc map[string]harness.SDKFunction, served map[string]bool) {
	t.Helper()
	covered := map[string]bool{}
	for _, c := range checks {
		fn, ok := byFunc[c.Func]
		require.True(t, ok, "%s: the SDK has no function %s", c.Name, c.Func)
		covered[fn.OperationID] = true
	}
	issue := map[string]bool{}
	for _, op := range issue17Operations {
		issue[op] = true
	}
	for _, fn := range byFunc {
		if (isEVMFunction(fn) && served[fn.OperationID]) || issue[fn.OperationID] {
			require.True(t, covered[fn.OperationID], "no SDK case calls %s (%s, %s %s)", fn.Func, fn.OperationID, fn.HTTPMethod, fn.Path)
		}
	}
}

// healthIndicatorExtras are the further keys of a health indicator
// (info.<name>.<key>, error..., details...).
var healthIndicatorExtras = regexp.MustCompile(`^(info|error|details)\.[^.]+\.[^.]+$`)

// extraKeysAllowed are, per SDK function, the raw keys its parse may drop
// without losing anything the API describes: the OpenAPI lets a health
// indicator carry further keys (additionalProperties), which the SDK's
// HealthIndicatorResultDto (status only) strips.
var extraKeysAllowed = map[string]*regexp.Regexp{
	"dataHealthCheck": healthIndicatorExtras,
	"dataLiveCheck":   healthIndicatorExtras,
}

// moneyFields are the keys whose object is a Price (the SDK's Money).
var moneyFields = map[string]bool{"price": true, "balanceValue": true, "currentPrice": true, "historicalPrice": true}

// specOverride reports which documented spec-over-SDK field a Zod issue's
// path ends at (see TestEVMSDKConformance), or "" for none.
func specOverride(path []any) string {
	key := func(i int) string {
		if i < 0 || i >= len(path) {
			return ""
		}
		s, _ := path[i].(string)
		return s
	}
	n := len(path)
	switch {
	case key(n-1) == "indexStatus":
		return "indexStatus lower case"
	case key(n-1) == "value" && moneyFields[key(n-2)]:
		return "Price value a string"
	case key(n-1) == "sortKey":
		return "NFT holders sortKey an integer"
	}
	return ""
}

// untolerated lists the issues that are not a documented spec override; a
// union's issue is tolerated when every issue of one of its members is.
func untolerated(issues []harness.SDKZodIssue) []string {
	var out []string
	for _, i := range issues {
		if len(i.UnionMembers) > 0 {
			var closest []string
			for k, member := range i.UnionMembers {
				if left := untolerated(member); k == 0 || len(left) < len(closest) {
					closest = left
				}
			}
			out = append(out, closest...)
			continue
		}
		if specOverride(i.Path) == "" {
			out = append(out, fmt.Sprintf("%s: %s (%s)", i.PathText(), i.Message, i.Code))
		}
	}
	return out
}

// describeCall is a failed call for a failure message.
func describeCall(c harness.SDKCall) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", c.Outcome, c.ErrorClass)
	if c.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", c.Status)
	}
	if c.Message != "" {
		fmt.Fprintf(&b, ": %s", c.Message)
	}
	for _, i := range c.Issues {
		fmt.Fprintf(&b, "\n  issue at %s: %s", i.PathText(), i.Message)
		for k, m := range i.UnionMembers {
			for _, mi := range m {
				fmt.Fprintf(&b, "\n    member %d: %s: %s", k, mi.PathText(), mi.Message)
			}
		}
	}
	if c.Body != "" {
		fmt.Fprintf(&b, "\n  body: %.600s", c.Body)
	}
	return b.String()
}

// checkSDKResult checks one call's report against what it must come to.
func checkSDKResult(t *testing.T, c sdkCheck, r harness.SDKResult) {
	t.Helper()
	what := fmt.Sprintf("%s (%s, %s) %v", r.Method, r.Func, r.OperationID, r.Request)
	if c.wantError != "" {
		require.Equal(t, "typed-error", r.Outcome, "%s: want %s, got %s", what, c.wantError, describeCall(r.SDKCall))
		require.Equal(t, c.wantError, r.ErrorClass, "%s: %s", what, describeCall(r.SDKCall))
		require.Equal(t, c.wantStatus, r.Status, "%s: %s", what, describeCall(r.SDKCall))
		var body struct {
			Message    any    `json:"message"`
			StatusCode int    `json:"statusCode"`
			Error      string `json:"error"`
		}
		require.NoError(t, json.Unmarshal(r.ErrorBody, &body), "%s: error body %s", what, r.ErrorBody)
		require.NotEmpty(t, body.Message, "%s: error body %s", what, r.ErrorBody)
		require.Equal(t, c.wantStatus, body.StatusCode, "%s: error body %s", what, r.ErrorBody)
		require.Equal(t, http.StatusText(c.wantStatus), body.Error, "%s: error body %s", what, r.ErrorBody)
		return
	}
	call := r.SDKCall
	if call.Outcome == "response-validation" {
		left := untolerated(call.Issues)
		require.Empty(t, left, "%s: the SDK rejects the body, not only where the spec overrides it:\n%s", what, describeCall(call))
		require.NotNil(t, r.Overridden, "%s: no run with the spec's overrides rewritten", what)
		require.Equal(t, "ok", r.Overridden.Outcome, "%s: with the spec's overrides (%v) rewritten to the SDK's form: %s",
			what, r.Overridden.Rewrote, describeCall(*r.Overridden))
		t.Logf("%s: the spec overrides the SDK at %v (tolerated)", r.Name, r.Overridden.Rewrote)
		call = *r.Overridden
	}
	require.Equal(t, "ok", call.Outcome, "%s: %s", what, describeCall(call))
	var lost, extra []string
	for _, k := range call.DroppedKeys {
		if allowed := extraKeysAllowed[r.Func]; allowed != nil && allowed.MatchString(k) {
			extra = append(extra, k)
		} else {
			lost = append(lost, k)
		}
	}
	require.Empty(t, lost, "%s: the SDK's parse lost these keys of the body (a union matched the wrong member, or a field the SDK lacks)", what)
	if len(extra) > 0 {
		t.Logf("%s: keys the OpenAPI allows and the SDK drops: %v", r.Name, extra)
	}
	if c.nonEmpty {
		require.Positive(t, call.Items, "%s: empty lists where the fixture made activity: %s", what, call.Result)
	}
	if c.toEnd {
		require.False(t, call.MorePages, "%s: still a nextPageToken after %d pages", what, call.Pages)
	}
	if c.check != nil {
		c.check(t, call.Result)
	}
	t.Logf("%s: ok, %d page(s), %d item(s), %d ms", r.Name, call.Pages, call.Items, r.DurationMs)
}

// logSDKSummary logs, for every SDK function, whether avadata serves it and
// this test checks it, and which served operations have no SDK function.
func logSDKSummary(t *testing.T, catalog harness.SDKCatalog, served, pending map[string]bool,
	checks []sdkCheck, skipped map[string]int, ran int) {
	t.Helper()
	issue := map[string]bool{}
	for _, op := range issue17Operations {
		issue[op] = true
	}
	calls := map[string]int{}
	for _, c := range checks {
		calls[c.Func]++
	}
	counts := map[string]int{}
	var b strings.Builder
	fmt.Fprintf(&b, "SDK @avalanche-sdk/chainkit %s: %d functions (%d calls made, %d written for pending operations)\n",
		catalog.SDKVersion, len(catalog.Functions), ran, sumValues(skipped))
	fmt.Fprintf(&b, "%-24s %-62s %-44s %s\n", "state", "method (function)", "operationId", "route")
	inSDK := map[string]bool{}
	for _, fn := range catalog.Functions {
		inSDK[fn.OperationID] = true
		var state string
		switch {
		case fn.OperationID == "":
			state = "client-side helper"
		case pending[fn.OperationID]:
			state = "issue 17, pending"
		case served[fn.OperationID] && calls[fn.Func] > 0 && issue[fn.OperationID]:
			state = "issue 17, checked"
		case served[fn.OperationID] && calls[fn.Func] > 0:
			state = "EVM, checked"
		case served[fn.OperationID]:
			state = "served, other domain"
		case isEVMFunction(fn):
			state = "EVM, not served"
		default:
			state = "not served"
		}
		counts[state]++
		fmt.Fprintf(&b, "%-24s %-62s %-44s %s %s\n", state, fmt.Sprintf("%s (%s)", fn.Method, fn.Func), fn.OperationID, fn.HTTPMethod, fn.Path)
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
	for _, op := range issue17Operations {
		if !inSDK[op] {
			issueNoSDK = append(issueNoSDK, op)
		}
	}
	fmt.Fprintf(&b, "issue 17 operations with no SDK function: %s\n", strings.Join(issueNoSDK, ", "))
	t.Log(b.String())
}

func sumValues(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// TestEVMSDKToleratesOnlySpecOverrides checks the tolerance of
// TestEVMSDKConformance is as narrow as it says (no network).
func TestEVMSDKToleratesOnlySpecOverrides(t *testing.T) {
	issue := func(path ...any) harness.SDKZodIssue {
		return harness.SDKZodIssue{Path: path, Code: "invalid_type", Message: "wrong"}
	}
	union := func(members ...[]harness.SDKZodIssue) harness.SDKZodIssue {
		return harness.SDKZodIssue{Path: []any{"Result", "transfers", 0}, Code: "invalid_union", UnionMembers: members}
	}
	for _, c := range []struct {
		name   string
		issues []harness.SDKZodIssue
		left   int
	}{
		{"indexStatus", []harness.SDKZodIssue{issue("Result", "erc721TokenBalances", 0, "metadata", "indexStatus")}, 0},
		{"Price value", []harness.SDKZodIssue{issue("nativeTokenBalance", "price", "value"), issue("networkTokenDetails", "historicalPrice", "value")}, 0},
		{"NFT holders sortKey", []harness.SDKZodIssue{issue("Result", "addresses", 3, "sortKey")}, 0},
		{"a transfer's value", []harness.SDKZodIssue{issue("Result", "transfers", 0, "value")}, 1},
		{"a Price's currency", []harness.SDKZodIssue{issue("nativeTokenBalance", "price", "currencyCode")}, 1},
		{"an override next to another issue", []harness.SDKZodIssue{
			issue("metadata", "indexStatus"), issue("Result", "blocks", 0, "blockNumber")}, 1},
		{"a union member with only overrides", []harness.SDKZodIssue{union(
			[]harness.SDKZodIssue{issue("erc20Token")},
			[]harness.SDKZodIssue{issue("erc1155Token", "metadata", "indexStatus")},
			[]harness.SDKZodIssue{issue("erc721Token")})}, 0},
		{"a union without such a member", []harness.SDKZodIssue{union(
			[]harness.SDKZodIssue{issue("erc20Token"), issue("value")},
			[]harness.SDKZodIssue{issue("erc1155Token", "metadata", "indexStatus"), issue("logIndex")})}, 1},
	} {
		require.Len(t, untolerated(c.issues), c.left, c.name)
	}
}
