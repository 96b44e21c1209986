package webhookdata

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBodyIsCanonicalJSON(t *testing.T) {
	// Members sorted by UTF-16 code units (U+1F600 before U+E000), no
	// whitespace, no HTML escapes, U+2028 left as is.
	body, err := Body(Envelope{WebhookID: "w", EventType: AddressActivity, MessageID: "m",
		Event: map[string]any{"\ue000": 1, "😀": 2, "b": "<&>\u2028", "a": []int{3, 1}}})
	require.NoError(t, err)
	require.Equal(t, `{"event":{"a":[3,1],"b":"<&>`+"\u2028"+`","😀":2,"`+"\ue000"+`":1},`+
		`"eventType":"address_activity","messageId":"m","webhookId":"w"}`, string(body))
	var back map[string]any
	require.NoError(t, json.Unmarshal(body, &back))
}

func TestSignIsBase64HMACOverTheBodyKeyedByTheSecretString(t *testing.T) {
	secret, body := "c13cc017ab", []byte(`{"a":1}`)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	require.Equal(t, base64.StdEncoding.EncodeToString(mac.Sum(nil)), Sign(secret, body))
	require.NotEqual(t, Sign(secret, body), Sign("other", body))
}

func TestMessageIDDependsOnTheEventOnly(t *testing.T) {
	id := ID{1}
	a := MessageID(id, "43114", 7, 0)
	require.Equal(t, a, MessageID(id, "43114", 7, 0))
	require.NotEqual(t, a, MessageID(id, "43114", 7, 1))
	require.NotEqual(t, a, MessageID(id, "43114", 8, 0))
	require.NotEqual(t, a, MessageID(id, "99999", 7, 0))
	require.NotEqual(t, a, MessageID(ID{2}, "43114", 7, 0))
	require.Len(t, a, 36)
}

func TestIDRoundTrip(t *testing.T) {
	id, err := NewID()
	require.NoError(t, err)
	back, err := ParseID(id.String())
	require.NoError(t, err)
	require.Equal(t, id, back)
	for _, bad := range []string{"", "x", "401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7", "401da7d90a7e-4f6a-9c3e-2b1d0e5f6a7b0", "401da7d9-0a7e-4f6a-9c3e-2b1d0e5f6a7g"} {
		_, err := ParseID(bad)
		require.Error(t, err, bad)
	}
}
