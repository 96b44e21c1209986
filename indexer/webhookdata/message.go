package webhookdata

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// SignatureHeader carries a delivery's signature: what the official SDK's
// validateWebhook reads.
const SignatureHeader = "x-signature"

// Envelope is one delivery's body: the hosted service's envelope, with the
// event of the webhook's type.
type Envelope struct {
	WebhookID string    `json:"webhookId"`
	EventType EventType `json:"eventType"`
	MessageID string    `json:"messageId"`
	Event     any       `json:"event"`
}

// MessageID names one event of a webhook: the seq-th event block height of
// chainID gave it. It depends only on what every replica's index holds
// alike, so two replicas that deliver the same webhook's event give it the
// same ID and a receiver can drop the repeat.
func MessageID(hook ID, chainID string, height uint64, seq uint32) string {
	h := sha256.New()
	h.Write([]byte("avadata webhook event\x00"))
	h.Write(hook[:])
	h.Write([]byte(chainID))
	h.Write([]byte{0})
	h.Write(binary.BigEndian.AppendUint64(nil, height))
	h.Write(binary.BigEndian.AppendUint32(nil, seq))
	var id [16]byte
	copy(id[:], h.Sum(nil))
	// A UUID of version 8 (RFC 9562: made by the application's own rule).
	id[6] = id[6]&0x0f | 0x80
	id[8] = id[8]&0x3f | 0x80
	return uuidString(id)
}

// Body is e as sent: RFC 8785 canonical JSON (members sorted, no
// whitespace, strings escaped only where JSON must), so a receiver that
// parses and re-serialises it canonically gets the very bytes that were
// signed. Every number in an event is an integer below 2^53 (amounts are
// decimal strings), which canonical JSON keeps exactly.
func Body(e Envelope) ([]byte, error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encoding webhook event %s: %w", e.MessageID, err)
	}
	v := jsontext.Value(raw)
	if err := v.Canonicalize(); err != nil {
		return nil, fmt.Errorf("canonicalising webhook event %s: %w", e.MessageID, err)
	}
	return v, nil
}

// Sign is the x-signature of body: base64 of HMAC-SHA256 over its bytes,
// keyed by the shared secret's bytes as a string, which is what the SDK's
// validateWebhook checks.
func Sign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}
