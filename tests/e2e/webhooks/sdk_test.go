package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestWebhooksSDKConformance runs the official client,
// @avalanche-sdk/chainkit (pinned in tests/sdk/package.json), unmodified
// against the shared node: the only thing a user changes is the per-call
// serverURL, {base_url} (the SDK's webhooks calls ignore a client-level
// one and would otherwise go to the hosted service). It makes each of the
// ten webhooks.* calls of issue 21 in an owner's order: create one webhook
// of each event type, read each with a key that may only read, update,
// add, list (pages of two, to the end) and remove addresses, deactivate,
// list by status and in full, reactivate, rotate and read the secret. Each
// call must parse (no ResponseValidationError, no key lost but avadata's
// statusReason) and say what the calls before it set; the secret the SDK
// read is the one the node's getSharedSecret answers over HTTP afterwards.
// Deliberate mistakes get their typed errors: an unknown chain and a
// network that is not the node's (BadRequestError), no key
// (UnauthorizedError), a key that may only read (ForbiddenError, for a
// creation and a rotation), an unknown webhook (NotFoundError), addresses
// on a validator webhook (BadRequestError). It needs node and npm (make
// test-e2e-webhooks TEST=SDK).
func TestWebhooksSDKConformance(t *testing.T) {
	ctx, base, facts, rcv := startAPITest(t)
	f := &sdkWebhooksFixture{t: t, base: base, facts: facts, url: rcv.URL}
	harness.RunSDKConformance(t, ctx, harness.SDKConformance{
		Base: base, Domain: "webhooks", InDomain: isWebhooksFunction, APIKey: harness.WebhookKey,
		Issue: "issue 21", IssueOperations: issue21Operations(), MaxPages: 3, Checks: f.checks(),
	})
	require.Equal(t, f.rotated, harness.WebhookSecret(t, ctx, base), "the secret the SDK rotated to is the node's")
}

// issue21Operations are the webhook operations of issue 21, by operationId.
func issue21Operations() []string {
	return []string{"createWebhook", "listWebhooks", "getWebhook", "updateWebhook", "deactivateWebhook",
		"generateOrRotateSharedSecret", "getSharedSecret", "getAddressesFromWebhook", "addAddressesToWebhook",
		"removeAddressesFromWebhook"}
}

// isWebhooksFunction reports whether an SDK function is a webhooks.* call.
func isWebhooksFunction(fn harness.SDKFunction) bool { return strings.HasPrefix(fn.Func, "webhooks") }

// sdkWebhooksFixture holds what the checks learn as the run's results are
// checked in order: the created webhooks' IDs, the rotated secret.
type sdkWebhooksFixture struct {
	t       *testing.T
	base    string
	facts   nodeFacts
	url     string
	evmID   string
	rotated string
}

// sdkWebhook is the part of a parsed WebhookResponse the checks read.
type sdkWebhook struct {
	ID          string `json:"id"`
	EventType   string `json:"eventType"`
	ChainID     string `json:"chainId"`
	Status      string `json:"status"`
	Name        string `json:"name"`
	Description string `json:"description"`
	URL         string `json:"url"`
	IncludeLogs *bool  `json:"includeLogs"`
	Metadata    struct {
		Addresses []string `json:"addresses"`
		Keys      []string `json:"keys"`
	} `json:"metadata"`
}

func parseWebhook(t *testing.T, raw json.RawMessage) sdkWebhook {
	t.Helper()
	var h sdkWebhook
	require.NoError(t, json.Unmarshal(raw, &h), "%s", raw)
	return h
}

// created checks a creation's result and has the test deactivate the
// webhook when it ends.
func (f *sdkWebhooksFixture) created(eventType, chainID string, then func(h sdkWebhook)) func(*testing.T, json.RawMessage) {
	return func(t *testing.T, raw json.RawMessage) {
		h := parseWebhook(t, raw)
		require.Equal(t, eventType, h.EventType)
		require.Equal(t, chainID, h.ChainID)
		require.Equal(t, "active", h.Status)
		require.Equal(t, f.url, h.URL)
		f.t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			r := harness.WebhookCall(f.t, ctx, f.base, http.MethodDelete, "/v1/webhooks/"+h.ID, harness.WebhookKey, nil)
			require.Equal(f.t, http.StatusOK, r.Status, "%s", r.Body)
		})
		if then != nil {
			then(h)
		}
	}
}

func from(check harness.SDKCheck, createCase string) harness.SDKCheck {
	check.RequestFrom = &harness.SDKRequestFrom{Case: createCase, Path: "id", Param: "id"}
	return check
}

// readOnly has a call send the key that may only read webhooks.
func readOnly(check harness.SDKCheck) harness.SDKCheck {
	check.Key = harness.APIKey
	return check
}

func (f *sdkWebhooksFixture) checks() []harness.SDKCheck {
	const (
		createEVM       = "create address_activity"
		createPrimary   = "create primary_network_address_activity"
		createValidator = "create validator_activity"
	)
	evm := f.facts.evm[0]
	watched := "0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc"
	var more []string
	for i := 1; i <= 4; i++ {
		more = append(more, fmt.Sprintf("0x%040x", i))
	}
	requireWebhook := func(want func(t *testing.T, h sdkWebhook)) func(*testing.T, json.RawMessage) {
		return func(t *testing.T, raw json.RawMessage) { want(t, parseWebhook(t, raw)) }
	}
	return []harness.SDKCheck{
		harness.SDKSucceeds(createEVM, "webhooksCreate",
			evmRequest(f.url, evm.evmChainID, "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC")).Keyed().
			Checked(f.created("address_activity", evm.evmChainID, func(h sdkWebhook) { f.evmID = h.ID })),
		harness.SDKSucceeds(createPrimary, "webhooksCreate", primaryRequest(f.url, "X", f.facts.ewoqX)).Keyed().
			Checked(f.created("primary_network_address_activity", f.facts.xChainID, nil)),
		harness.SDKSucceeds(createValidator, "webhooksCreate", validatorRequest(f.url, f.facts.nodeID)).Keyed().
			Checked(f.created("validator_activity", f.facts.pChainID, nil)),

		readOnly(from(harness.SDKSucceeds("get address_activity", "webhooksGet", harness.SDKReq{}), createEVM)).
			Checked(requireWebhook(func(t *testing.T, h sdkWebhook) {
				require.Equal(t, f.evmID, h.ID)
				require.Equal(t, []string{watched}, h.Metadata.Addresses)
			})),
		readOnly(from(harness.SDKSucceeds("get primary_network_address_activity", "webhooksGet", harness.SDKReq{}), createPrimary)).
			Checked(requireWebhook(func(t *testing.T, h sdkWebhook) { require.Equal(t, []string{f.facts.ewoqX}, h.Metadata.Keys) })),
		readOnly(from(harness.SDKSucceeds("get validator_activity", "webhooksGet", harness.SDKReq{}), createValidator)).
			Checked(requireWebhook(func(t *testing.T, h sdkWebhook) { require.Equal(t, []string{f.facts.nodeID}, h.Metadata.Keys) })),

		from(harness.SDKSucceeds("update", "webhooksUpdate", harness.SDKReq{"updateWebhookRequest": harness.SDKReq{
			"name": "Tokens", "description": "Track tokens", "includeLogs": true}}), createEVM).Keyed().
			Checked(requireWebhook(func(t *testing.T, h sdkWebhook) {
				require.Equal(t, "Tokens", h.Name)
				require.Equal(t, "Track tokens", h.Description)
				require.Equal(t, true, *h.IncludeLogs)
			})),
		from(harness.SDKSucceeds("add addresses", "webhooksAddressesAdd",
			harness.SDKReq{"addressesChangeRequest": harness.SDKReq{"addresses": more}}), createEVM).Keyed().
			Checked(requireWebhook(func(t *testing.T, h sdkWebhook) {
				require.Equal(t, append([]string{watched}, more...), h.Metadata.Addresses)
			})),
		readOnly(from(harness.SDKSucceeds("list addresses", "webhooksAddressesList", harness.SDKReq{"pageSize": 2}), createEVM)).
			AllPages(5).EveryPage(func(t *testing.T, pages []json.RawMessage) {
			var all []string
			for _, raw := range pages {
				var page struct {
					Addresses      []string `json:"addresses"`
					TotalAddresses int      `json:"totalAddresses"`
				}
				require.NoError(t, json.Unmarshal(raw, &page))
				require.Equal(t, 5, page.TotalAddresses)
				all = append(all, page.Addresses...)
			}
			require.Len(t, pages, 3)
			require.Equal(t, append([]string{watched}, more...), all)
		}),
		from(harness.SDKSucceeds("remove addresses", "webhooksAddressesRemove",
			harness.SDKReq{"addressesChangeRequest": harness.SDKReq{"addresses": more[:3]}}), createEVM).Keyed().
			Checked(requireWebhook(func(t *testing.T, h sdkWebhook) {
				require.Equal(t, []string{watched, more[3]}, h.Metadata.Addresses)
			})),
		from(harness.SDKSucceeds("deactivate", "webhooksDeactivate", harness.SDKReq{}), createEVM).Keyed().
			Checked(requireWebhook(func(t *testing.T, h sdkWebhook) { require.Equal(t, "inactive", h.Status) })),
		readOnly(harness.SDKSucceeds("list inactive", "webhooksList", harness.SDKReq{"pageSize": 2, "status": "inactive"})).
			AllPages(60).EveryPage(f.listed("inactive")),
		readOnly(harness.SDKSucceeds("list all", "webhooksList", harness.SDKReq{"pageSize": 2})).
			AllPages(60).EveryPage(f.listed("")),
		from(harness.SDKSucceeds("reactivate", "webhooksUpdate", harness.SDKReq{"updateWebhookRequest": harness.SDKReq{
			"status": "active"}}), createEVM).Keyed().
			Checked(requireWebhook(func(t *testing.T, h sdkWebhook) { require.Equal(t, "active", h.Status) })),
		readOnly(harness.SDKSucceeds("list active", "webhooksList", harness.SDKReq{"pageSize": 2, "status": "active"})).
			AllPages(60).EveryPage(f.listed("active")),
		harness.SDKSucceeds("rotate the secret", "webhooksGenerateOrRotateSharedSecret", harness.SDKReq{}).Keyed().
			Checked(func(t *testing.T, raw json.RawMessage) {
				var s struct{ Secret string }
				require.NoError(t, json.Unmarshal(raw, &s))
				require.Regexp(t, "^[0-9a-f]{64}$", s.Secret)
				f.rotated = s.Secret
			}),
		harness.SDKSucceeds("read the secret", "webhooksGetSharedSecret", harness.SDKReq{}).Keyed().
			Checked(func(t *testing.T, raw json.RawMessage) {
				var s struct{ Secret string }
				require.NoError(t, json.Unmarshal(raw, &s))
				require.Equal(t, f.rotated, s.Secret, "getSharedSecret answers the rotated secret")
			}),

		harness.SDKFails("create on an unknown chain", "webhooksCreate", evmRequest(f.url, "12345", watched),
			"BadRequestError", http.StatusBadRequest).Keyed(),
		harness.SDKFails("create on mainnet", "webhooksCreate", map[string]any{"eventType": "validator_activity", "url": f.url,
			"network": "mainnet", "metadata": validatorRequest(f.url, f.facts.nodeID)["metadata"]},
			"BadRequestError", http.StatusBadRequest).Keyed(),
		harness.SDKFails("create without a key", "webhooksCreate", evmRequest(f.url, evm.evmChainID, watched),
			"UnauthorizedError", http.StatusUnauthorized),
		readOnly(harness.SDKFails("create with a key that may only read", "webhooksCreate", evmRequest(f.url, evm.evmChainID, watched),
			"ForbiddenError", http.StatusForbidden)),
		readOnly(harness.SDKFails("rotate with a key that may only read", "webhooksGenerateOrRotateSharedSecret", harness.SDKReq{},
			"ForbiddenError", http.StatusForbidden)),
		readOnly(harness.SDKFails("get an unknown webhook", "webhooksGet", harness.SDKReq{"id": "401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7b"},
			"NotFoundError", http.StatusNotFound)),
		from(harness.SDKFails("add addresses to a validator webhook", "webhooksAddressesAdd",
			harness.SDKReq{"addressesChangeRequest": harness.SDKReq{"addresses": more}}, "BadRequestError", http.StatusBadRequest),
			createValidator).Keyed(),
	}
}

// listed checks the pages of a webhooks list: each webhook once, of the
// status asked for ("" any), the address_activity webhook among them.
func (f *sdkWebhooksFixture) listed(status string) func(*testing.T, []json.RawMessage) {
	return func(t *testing.T, pages []json.RawMessage) {
		seen := map[string]bool{}
		for _, raw := range pages {
			var page struct {
				Webhooks []sdkWebhook `json:"webhooks"`
			}
			require.NoError(t, json.Unmarshal(raw, &page))
			for _, h := range page.Webhooks {
				require.False(t, seen[h.ID], "webhook %s listed twice", h.ID)
				seen[h.ID] = true
				if status != "" {
					require.Equal(t, status, h.Status)
				}
			}
		}
		require.True(t, seen[f.evmID], "the address_activity webhook %s listed", f.evmID)
	}
}
