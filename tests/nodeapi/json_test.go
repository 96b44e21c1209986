package nodeapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// uniqueSuffix is a short random lowercase string for names (aliases) that
// must not clash with those of an earlier run on the same node.
func uniqueSuffix() string { return strings.ToLower(rand.Text()[:10]) }

// extURL is the node URL of an API path below /ext/, e.g. "info", "bc/X".
func extURL(t testing.TB, path string) string { return env.URI(t) + "/ext/" + path }

// nodeAPIContext is a context for one test, cancelled when it ends.
func nodeAPIContext(t *testing.T, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// jsonKind names the JSON type of raw: object, array, string, number,
// bool or null.
func jsonKind(raw json.RawMessage) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return "missing"
	}
	switch s[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// jsonObject requires raw to be a JSON object and returns its members.
func jsonObject(t *testing.T, raw json.RawMessage, what string) map[string]json.RawMessage {
	t.Helper()
	require.Equal(t, "object", jsonKind(raw), "%s: want an object: %s", what, raw)
	var obj map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &obj), "%s: %s", what, raw)
	return obj
}

// jsonArray requires raw to be a JSON array and returns its elements.
func jsonArray(t *testing.T, raw json.RawMessage, what string) []json.RawMessage {
	t.Helper()
	require.Equal(t, "array", jsonKind(raw), "%s: want an array: %s", what, raw)
	var arr []json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &arr), "%s: %s", what, raw)
	return arr
}

// member requires obj to have key and returns its value.
func member(t *testing.T, obj map[string]json.RawMessage, key, what string) json.RawMessage {
	t.Helper()
	v, ok := obj[key]
	require.True(t, ok, "%s: no %q in %s", what, key, harness.MustJSON(obj))
	return v
}

// requireKeys requires obj to have every key.
func requireKeys(t *testing.T, obj map[string]json.RawMessage, what string, keys ...string) {
	t.Helper()
	for _, k := range keys {
		member(t, obj, k, what)
	}
}

// requireExactKeys requires obj's keys to be exactly keys.
func requireExactKeys(t *testing.T, obj map[string]json.RawMessage, what string, keys ...string) {
	t.Helper()
	got := make([]string, 0, len(obj))
	for k := range obj {
		got = append(got, k)
	}
	require.ElementsMatch(t, keys, got, "%s: keys of %s", what, harness.MustJSON(obj))
}

// requireEmptyObject requires raw to be exactly {}.
func requireEmptyObject(t *testing.T, raw json.RawMessage, what string) {
	t.Helper()
	require.Empty(t, jsonObject(t, raw, what), "%s: want {}, got %s", what, raw)
}

// jsonString requires raw to be a JSON string and returns it.
func jsonString(t *testing.T, raw json.RawMessage, what string) string {
	t.Helper()
	require.Equal(t, "string", jsonKind(raw), "%s: want a string: %s", what, raw)
	var s string
	require.NoError(t, json.Unmarshal(raw, &s), "%s: %s", what, raw)
	return s
}

// jsonStrings requires raw to be an array of strings and returns them.
func jsonStrings(t *testing.T, raw json.RawMessage, what string) []string {
	t.Helper()
	arr := jsonArray(t, raw, what)
	out := make([]string, len(arr))
	for i, el := range arr {
		out[i] = jsonString(t, el, what+"["+strconv.Itoa(i)+"]")
	}
	return out
}

// jsonDecimalString requires raw to be a 64-bit integer written as a
// decimal string (avalanchego's APIs write 64-bit integer fields as
// decimal strings) and returns its value.
func jsonDecimalString(t *testing.T, raw json.RawMessage, what string) uint64 {
	t.Helper()
	s := jsonString(t, raw, what)
	require.Regexp(t, harness.DecimalDigits, s, "%s: want a decimal string: %s", what, raw)
	v, err := strconv.ParseUint(s, 10, 64)
	require.NoError(t, err, "%s: %s", what, raw)
	return v
}

// jsonInteger requires raw to be a JSON number holding an integer.
func jsonInteger(t *testing.T, raw json.RawMessage, what string) uint64 {
	t.Helper()
	require.Equal(t, "number", jsonKind(raw), "%s: want a JSON number: %s", what, raw)
	v, err := strconv.ParseUint(string(bytes.TrimSpace(raw)), 10, 64)
	require.NoError(t, err, "%s: want a non-negative integer: %s", what, raw)
	return v
}

// jsonBool requires raw to be a JSON boolean and returns it.
func jsonBool(t *testing.T, raw json.RawMessage, what string) bool {
	t.Helper()
	require.Equal(t, "bool", jsonKind(raw), "%s: want a boolean: %s", what, raw)
	return string(bytes.TrimSpace(raw)) == "true"
}

// jsonTime requires raw to be an RFC 3339 timestamp string.
func jsonTime(t *testing.T, raw json.RawMessage, what string) time.Time {
	t.Helper()
	s := jsonString(t, raw, what)
	ts, err := time.Parse(time.RFC3339Nano, s)
	require.NoError(t, err, "%s: want an RFC 3339 time: %s", what, raw)
	return ts
}
