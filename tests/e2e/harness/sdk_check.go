package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The checks of an SDK conformance test (TestEVMSDKConformance,
// TestPrimarySDKConformance): what each SDK call must come to, and how far
// a reply may differ from the SDK's schema where the project's spec
// (../shared/spec/data-api.md) deliberately overrides SDK 0.3.13 (the
// reference's sdk-conformance.md §0 and §7 list the differences).
//
// Every call must succeed as the SDK sees it: a 2XX whose body passes the
// SDK's schema, and no raw key lost by the parse (Zod strips unknown keys,
// so a body that matched the wrong member of a union would lose data
// silently). The only ResponseValidationErrors tolerated are the fields
// where the spec wins:
//   - metadata indexStatus is lower case ("indexed"; the SDK's enum is
//     upper case, INDEXED),
//   - a Price's (the SDK's Money) value is a decimal string (the SDK wants
//     a number),
//   - NFT holders' sortKey is an integer (the SDK wanted a string; 0.3.13
//     has no NFT holders function, so no call meets it),
//   - signature aggregation answers 200 (the SDK accepts only 201; no
//     conformance test calls it),
//   - an active validator's uptimePerformance and stakePercentage are
//     omitted where the node has no figure (a subnet's validation; the
//     issue: values the node cannot know are never invented), which the
//     SDK requires,
//
// and only when every Zod issue's path is one of those fields (for a
// union: when every issue of some member is); the same call is then made
// again with just those fields rewritten to the SDK's form
// (tests/sdk/conformance.mjs), and that must succeed, all its pages too.
// The only raw keys the parse may drop are those of sdkDroppedKeysAllowed.

// SDKCheck is one SDK call and what it must come to.
type SDKCheck struct {
	SDKCase
	// WantError is the typed error class a deliberate bad input must get
	// (with WantStatus); empty for a call that must succeed.
	WantError  string
	WantStatus int
	// NonEmpty: the result's lists must hold something (the fixture made
	// activity there).
	NonEmpty bool
	// ToEnd: the pages must end within MaxPages (nextPageToken omitted on
	// the last page).
	ToEnd bool
	// Check, if set, looks at the first page's parsed result.
	Check func(t *testing.T, result json.RawMessage)
	// CheckPages, if set, looks at every page's parsed result.
	CheckPages func(t *testing.T, pages []json.RawMessage)
}

// SDKReq is an SDK request object.
type SDKReq = map[string]any

// SDKSucceeds is a call that must succeed.
func SDKSucceeds(name, fn string, req SDKReq) SDKCheck {
	return SDKCheck{SDKCase: SDKCase{Name: name, Func: fn, Request: req}}
}

// SDKFails is a call that must fail with the typed error class and status.
func SDKFails(name, fn string, req SDKReq, class string, status int) SDKCheck {
	return SDKCheck{SDKCase: SDKCase{Name: name, Func: fn, Request: req}, WantError: class, WantStatus: status}
}

// Some marks a call whose lists must not be empty.
func (c SDKCheck) Some() SDKCheck { c.NonEmpty = true; return c }

// AllPages has the call follow its pages to the end, up to n pages.
func (c SDKCheck) AllPages(n int) SDKCheck { c.MaxPages, c.ToEnd = n, true; return c }

// Keyed has the call send the API key.
func (c SDKCheck) Keyed() SDKCheck { c.APIKey = true; return c }

// EveryPage adds a look at every page's parsed result.
func (c SDKCheck) EveryPage(check func(t *testing.T, pages []json.RawMessage)) SDKCheck {
	c.KeepPages, c.CheckPages = true, check
	return c
}

// Checked adds a look at the first page's parsed result.
func (c SDKCheck) Checked(check func(t *testing.T, result json.RawMessage)) SDKCheck {
	c.Check = check
	return c
}

// ServedOperations are the operationIds of avadata's own OpenAPI document
// at base, which its tests keep in step with its routes.
func ServedOperations(t *testing.T, ctx context.Context, base string) map[string]bool {
	t.Helper()
	r := GetWithRetryAfter(t, ctx, base+"/openapi.json")
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

// SDKAPIKey is an API key the shared network's operator configured
// (ChainConfig's apiKeys), which the SDK sends (x-glacier-api-key) on the
// operations that need one; empty when there is none.
func SDKAPIKey() string {
	switch keys := ChainConfig()["apiKeys"].(type) {
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

// healthIndicatorExtras are the further keys of a health indicator
// (info.<name>.<key>, error..., details...).
var healthIndicatorExtras = regexp.MustCompile(`^(info|error|details)\.[^.]+\.[^.]+$`)

// webhookStatusReason is a webhook reply's statusReason, alone or in a
// list.
var webhookStatusReason = regexp.MustCompile(`^(webhooks\[\]\.)?statusReason$`)

// sdkDroppedKeysAllowed are, per SDK function ("" for every one), the raw
// keys its parse may drop without losing anything the API describes:
//   - the OpenAPI lets a health indicator carry further keys
//     (additionalProperties), which the SDK's HealthIndicatorResultDto
//     (status only) strips;
//   - the spec gives both atomic-memory arrays of the X- and C-chain
//     balances a status, as the P-chain's have; the SDK's
//     XChainSharedAssetBalance and CChainSharedAssetBalance have none and
//     strip it (P-chain balances keep theirs: PChainSharedAsset has it, so
//     a P body never drops it, and one that matched the X or C member would
//     lose its other arrays, which no rule allows);
//   - the OpenAPI gives an L1 validator's blsCredentials (in a P-chain tx's
//     l1ValidatorDetails, and in listL1Validators) as an object without
//     properties, which the SDK's schema (z.object({})) empties.
//
// and avadata's statusReason of an inactive webhook (why it stopped: its
// owner, or deliveries failing past the maximum age), which the issue asks
// for and the SDK's webhook models lack.
func sdkDroppedKeysAllowed() map[string][]*regexp.Regexp {
	return map[string][]*regexp.Regexp{
		"":                {regexp.MustCompile(`(^|\.)l1ValidatorDetails\[\]\.blsCredentials\.[^.]+$`)},
		"dataHealthCheck": {healthIndicatorExtras},
		"dataLiveCheck":   {healthIndicatorExtras},
		"dataPrimaryNetworkBalancesListByAddresses": {regexp.MustCompile(`^balances\.atomicMemory(Unlocked|Locked)\[\]\.status$`)},
		"dataPrimaryNetworkListL1Validators":        {regexp.MustCompile(`^validators\[\]\.blsCredentials\.[^.]+$`)},
		"metricsHealthCheck":                        {healthIndicatorExtras},
		"metricsLiveCheck":                          {healthIndicatorExtras},
		"webhooksDeactivate":                        {webhookStatusReason},
		"webhooksGet":                               {webhookStatusReason},
		"webhooksList":                              {webhookStatusReason},
		"webhooksUpdate":                            {webhookStatusReason},
	}
}

// SDKDeviation is a known difference of a served reply from the SDK's
// schema that is not a spec override: raw keys the SDK's parse drops
// (Keys) because avadata sends what the API does not describe, or Zod
// issues (Issues, matched against "path: message (code)") the SDK raises.
// A conformance run tolerates it for the calls of Func while it lasts,
// logs it, and fails once no call meets it any more, so that the list only
// shrinks. A call whose only issues are known ones is not checked further
// (the SDK gave no parsed result).
type SDKDeviation struct {
	Func   string
	Keys   *regexp.Regexp
	Issues *regexp.Regexp
	Why    string // what is wrong and whose it is to fix, or why it cannot be
}

// moneyFields are the keys whose object is a Price (the SDK's Money).
var moneyFields = map[string]bool{"price": true, "balanceValue": true, "currentPrice": true, "historicalPrice": true}

// sdkSpecOverride reports which documented spec-over-SDK field a Zod
// issue's path ends at, or "" for none.
func sdkSpecOverride(path []any) string {
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
	case key(n-1) == "uptimePerformance" || key(n-1) == "stakePercentage":
		return "an active validator's uptime or stake share the node has not"
	}
	return ""
}

// UntoleratedSDKIssues lists the issues that are not a documented spec
// override; a union's issue is tolerated when every issue of one of its
// members is.
func UntoleratedSDKIssues(issues []SDKZodIssue) []string {
	var out []string
	for _, i := range issues {
		if len(i.UnionMembers) > 0 {
			var closest []string
			for k, member := range i.UnionMembers {
				if left := UntoleratedSDKIssues(member); k == 0 || len(left) < len(closest) {
					closest = left
				}
			}
			out = append(out, closest...)
			continue
		}
		if sdkSpecOverride(i.Path) == "" {
			out = append(out, fmt.Sprintf("%s: %s (%s)", i.PathText(), i.Message, i.Code))
		}
	}
	return out
}

// SDKDroppedKeys splits the raw keys fn's parse dropped into those no rule
// allows (lost) and those sdkDroppedKeysAllowed allows (allowed).
func SDKDroppedKeys(fn string, dropped []string) (lost, allowed []string) {
	rules := sdkDroppedKeysAllowed()
	for _, k := range dropped {
		if matchesAny(append(rules[""], rules[fn]...), k) {
			allowed = append(allowed, k)
		} else {
			lost = append(lost, k)
		}
	}
	return lost, allowed
}

func matchesAny(rules []*regexp.Regexp, s string) bool {
	for _, r := range rules {
		if r.MatchString(s) {
			return true
		}
	}
	return false
}

// describeSDKCall is a failed call for a failure message.
func describeSDKCall(c SDKCall) string {
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

// CheckSDKResult checks one call's report against what it must come to,
// tolerating the known deviations; it returns the indexes of those the
// call met.
func CheckSDKResult(t *testing.T, c SDKCheck, r SDKResult, known []SDKDeviation) (met []int) {
	t.Helper()
	what := fmt.Sprintf("%s (%s, %s) %v", r.Method, r.Func, r.OperationID, r.Request)
	if c.WantError != "" {
		require.Equal(t, "typed-error", r.Outcome, "%s: want %s, got %s", what, c.WantError, describeSDKCall(r.SDKCall))
		require.Equal(t, c.WantError, r.ErrorClass, "%s: %s", what, describeSDKCall(r.SDKCall))
		require.Equal(t, c.WantStatus, r.Status, "%s: %s", what, describeSDKCall(r.SDKCall))
		var body struct {
			Message    any    `json:"message"`
			StatusCode int    `json:"statusCode"`
			Error      string `json:"error"`
		}
		require.NoError(t, json.Unmarshal(r.ErrorBody, &body), "%s: error body %s", what, r.ErrorBody)
		require.NotEmpty(t, body.Message, "%s: error body %s", what, r.ErrorBody)
		require.Equal(t, c.WantStatus, body.StatusCode, "%s: error body %s", what, r.ErrorBody)
		require.Equal(t, http.StatusText(c.WantStatus), body.Error, "%s: error body %s", what, r.ErrorBody)
		t.Logf("%s: %s %d as it must: %v", r.Name, r.ErrorClass, r.Status, body.Message)
		return nil
	}
	call := r.SDKCall
	if call.Outcome == "response-validation" {
		left := UntoleratedSDKIssues(call.Issues)
		left, met = knownDeviations(t, r, left, known, func(d SDKDeviation) *regexp.Regexp { return d.Issues })
		if len(met) > 0 && len(left) == 0 {
			return met
		}
		require.Empty(t, left, "%s: the SDK rejects the body, not only where the spec overrides it:\n%s", what, describeSDKCall(call))
		require.NotNil(t, r.Overridden, "%s: no run with the spec's overrides rewritten", what)
		require.Equal(t, "ok", r.Overridden.Outcome, "%s: with the spec's overrides (%v) rewritten to the SDK's form: %s",
			what, r.Overridden.Rewrote, describeSDKCall(*r.Overridden))
		t.Logf("%s: the spec overrides the SDK at %v (tolerated)", r.Name, r.Overridden.Rewrote)
		call = *r.Overridden
	}
	require.Equal(t, "ok", call.Outcome, "%s: %s", what, describeSDKCall(call))
	lost, extra := SDKDroppedKeys(r.Func, call.DroppedKeys)
	lost, met = knownDeviations(t, r, lost, known, func(d SDKDeviation) *regexp.Regexp { return d.Keys })
	require.Empty(t, lost, "%s: the SDK's parse lost these keys of the body (a union matched the wrong member, or a field the SDK lacks)", what)
	if len(extra) > 0 {
		t.Logf("%s: keys the spec or the OpenAPI has and the SDK drops: %v", r.Name, extra)
	}
	if c.NonEmpty {
		require.Positive(t, call.Items, "%s: empty lists where the fixture made activity: %s", what, call.Result)
	}
	if c.ToEnd {
		require.False(t, call.MorePages, "%s: still a nextPageToken after %d pages", what, call.Pages)
	}
	if c.Check != nil {
		c.Check(t, call.Result)
	}
	if c.CheckPages != nil {
		c.CheckPages(t, call.PageResults)
	}
	t.Logf("%s: ok, %d page(s), %d item(s), %d ms", r.Name, call.Pages, call.Items, r.DurationMs)
	return met
}

// knownDeviations takes what known deviations explain (dropped keys or
// issues, as pattern picks) out of found, logging them, and returns the
// rest and which deviations they were.
func knownDeviations(t *testing.T, r SDKResult, found []string, known []SDKDeviation,
	pattern func(SDKDeviation) *regexp.Regexp,
) (rest []string, met []int) {
	t.Helper()
	for _, k := range found {
		matched := false
		for i, d := range known {
			if p := pattern(d); d.Func == r.Func && p != nil && p.MatchString(k) {
				if !slices.Contains(met, i) {
					met = append(met, i)
					t.Logf("%s: known deviation, tolerated: %s", r.Name, d.Why)
				}
				matched = true
				break
			}
		}
		if !matched {
			rest = append(rest, k)
		}
	}
	return rest, met
}
