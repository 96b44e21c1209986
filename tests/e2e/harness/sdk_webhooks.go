package harness

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// WebhookValidation is what the official SDK says of one delivery
// (conformance.mjs validate-webhooks): ValidateWebhook is "ok" or the
// error of validateWebhook, which parses only address_activity payloads
// after the signature; Verify is "ok" or the error of the signature check
// alone (WebhookSecurity.verify).
type WebhookValidation struct {
	ValidateWebhook string `json:"validateWebhook"`
	EventType       string `json:"eventType"`
	Verify          string `json:"verify"`
}

// ValidateWebhooks runs every delivery through the SDK's validateWebhook
// with secret, one result per delivery in order.
func (s *SDK) ValidateWebhooks(t testing.TB, ctx context.Context, secret string, deliveries []WebhookDelivery) []WebhookValidation {
	t.Helper()
	type delivery struct {
		Body      string `json:"body"`
		Signature string `json:"signature"`
	}
	in := struct {
		Secret     string     `json:"secret"`
		Deliveries []delivery `json:"deliveries"`
	}{Secret: secret}
	for _, d := range deliveries {
		in.Deliveries = append(in.Deliveries, delivery{Body: base64.StdEncoding.EncodeToString(d.Body), Signature: d.Header.Get("x-signature")})
	}
	b, err := json.Marshal(in)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "webhooks-input.json")
	require.NoError(t, os.WriteFile(file, b, 0o644))
	var out struct {
		Results []WebhookValidation `json:"results"`
	}
	s.node(t, ctx, &out, "validate-webhooks", file)
	require.Len(t, out.Results, len(deliveries), "one result per delivery")
	return out.Results
}
