package api

import (
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest/fakenet"
)

func TestPageTokenRoundTrip(t *testing.T) {
	key := []byte("k")
	now := time.Unix(1_700_000_000, 0)
	tests := []PageToken{
		{Route: "avgTps", Filters: NewFilterHash("avgTps", "C"), Position: 1_699_920_000, IssuedAt: now},
		{Route: "r", Position: -1, IssuedAt: now, Extra: []byte{1, 2, 3}},
		{Route: strings.Repeat("r", maxRouteLen), Position: 1<<63 - 1, IssuedAt: now, Extra: make([]byte, MaxExtraLen)},
	}
	for _, want := range tests {
		s, err := EncodePageToken(key, want)
		require.NoError(t, err)
		require.NotContains(t, s, "=", "no padding")
		require.NotContains(t, s, "+")
		require.NotContains(t, s, "/")

		got, err := DecodePageToken(key, s, want.Route, want.Filters, MetricsPageTokenLifetime, now)
		require.NoError(t, err)
		require.Equal(t, want.Route, got.Route)
		require.Equal(t, want.Filters, got.Filters)
		require.Equal(t, want.Position, got.Position)
		require.Equal(t, want.Extra, got.Extra)
		require.True(t, want.IssuedAt.Equal(got.IssuedAt))
	}
}

func TestEncodePageTokenRejects(t *testing.T) {
	_, err := EncodePageToken(nil, PageToken{Route: "r"})
	require.ErrorContains(t, err, "empty signing key")
	_, err = EncodePageToken([]byte("k"), PageToken{Route: strings.Repeat("r", maxRouteLen+1)})
	require.Error(t, err)
	_, err = EncodePageToken([]byte("k"), PageToken{Route: "r", Extra: make([]byte, MaxExtraLen+1)})
	require.Error(t, err)
}

func TestDecodePageTokenRejects(t *testing.T) {
	key := []byte("key")
	now := time.Unix(1_700_000_000, 0)
	filters := NewFilterHash("avgTps", "P")
	valid := PageToken{Route: "avgTps", Filters: filters, Position: 42, IssuedAt: now}
	encode := func(t *testing.T, key []byte, tok PageToken) string {
		t.Helper()
		s, err := EncodePageToken(key, tok)
		require.NoError(t, err)
		return s
	}
	good := encode(t, key, valid)
	raw, err := base64.RawURLEncoding.DecodeString(good)
	require.NoError(t, err)
	flipped := append([]byte(nil), raw...)
	flipped[len(flipped)/2] ^= 0x01 // inside the payload: the position

	tests := []struct {
		name    string
		token   string
		route   string
		filters FilterHash
		now     time.Time
		want    string
	}{
		{name: "garbage", token: "not-a-token!", want: "not a token issued by this node"},
		{name: "empty", token: "", want: "not a token issued by this node"},
		{name: "truncated", token: good[:len(good)-5], want: "not a token issued by this node"},
		{name: "very short", token: good[:10], want: "not a token issued by this node"},
		{name: "tampered payload", token: base64.RawURLEncoding.EncodeToString(flipped), want: "signature mismatch"},
		{name: "other key", token: encode(t, []byte("other"), valid), want: "signature mismatch"},
		{name: "standard base64 padding", token: good + "=", want: "not a token issued by this node"},
		{name: "other route", token: encode(t, key, PageToken{Route: "other", Filters: filters, IssuedAt: now}), want: "another endpoint"},
		{name: "other filters", token: good, filters: NewFilterHash("avgTps", "C"), want: "other parameters"},
		{name: "expired", token: good, now: now.Add(MetricsPageTokenLifetime + time.Second), want: "expired"},
		{name: "issued in the future", token: good, now: now.Add(-time.Hour), want: "future"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			route, f, at := "avgTps", filters, now
			if tt.route != "" {
				route = tt.route
			}
			if tt.filters != (FilterHash{}) {
				f = tt.filters
			}
			if !tt.now.IsZero() {
				at = tt.now
			}
			_, err := DecodePageToken(key, tt.token, route, f, MetricsPageTokenLifetime, at)
			require.ErrorIs(t, err, errInvalidPageToken)
			require.ErrorContains(t, err, "invalid pageToken")
			require.ErrorContains(t, err, tt.want)
		})
	}
}

func TestDecodePageTokenAgeLimits(t *testing.T) {
	key := []byte("key")
	issued := time.Unix(1_700_000_000, 0)
	s, err := EncodePageToken(key, PageToken{Route: "r", IssuedAt: issued})
	require.NoError(t, err)

	_, err = DecodePageToken(key, s, "r", FilterHash{}, MetricsPageTokenLifetime, issued.Add(MetricsPageTokenLifetime))
	require.NoError(t, err, "valid for exactly the lifetime")
	_, err = DecodePageToken(key, s, "r", FilterHash{}, 0, issued.Add(1000*time.Hour))
	require.NoError(t, err, "maxAge 0 never expires")
	_, err = DecodePageToken(key, s, "r", FilterHash{}, 0, issued.Add(-maxClockSkew))
	require.NoError(t, err, "small clock skew is tolerated")
	_, err = DecodePageToken(nil, s, "r", FilterHash{}, 0, issued)
	require.ErrorContains(t, err, "empty signing key")
	require.NotErrorIs(t, err, errInvalidPageToken, "a missing key is our fault, not the client's")
}

func TestNewFilterHashIsUnambiguous(t *testing.T) {
	require.Equal(t, NewFilterHash("a", "b"), NewFilterHash("a", "b"))
	require.NotEqual(t, NewFilterHash("ab", "c"), NewFilterHash("a", "bc"))
	require.NotEqual(t, NewFilterHash("a"), NewFilterHash("a", ""))
	require.NotEqual(t, NewFilterHash(), NewFilterHash(""))
}

func TestPageTokenHeights(t *testing.T) {
	key := []byte("k")
	now := time.Unix(1_700_000_000, 0)
	want := PageToken{Route: "r", Position: 7, IssuedAt: now, Heights: []StreamHeight{
		{Stream: "C", Height: 1 << 40}, {Stream: "X-vertices", Height: 0}, {Stream: fakenet.SubnetChainID.String(), Height: 3},
	}}
	s, err := EncodePageToken(key, want)
	require.NoError(t, err)
	got, err := DecodePageToken(key, s, "r", FilterHash{}, 0, now)
	require.NoError(t, err)
	require.Equal(t, want.Heights, got.Heights)

	_, err = EncodePageToken(key, PageToken{Route: "r", Heights: []StreamHeight{{Stream: ""}}})
	require.ErrorContains(t, err, "stream name")
	_, err = EncodePageToken(key, PageToken{Route: "r", Heights: make([]StreamHeight, maxTokenHeights+1)})
	require.ErrorContains(t, err, "heights")
}

// TestPageTokenVersion1StillDecodes: a token cut before heights existed
// (an upgrade mid-listing) resumes, with no height to wait for.
func TestPageTokenVersion1StillDecodes(t *testing.T) {
	key := []byte("k")
	now := time.Unix(1_700_000_000, 0)
	payload := []byte{pageTokenVersionV1, 1, 'r'}
	payload = append(payload, make([]byte, filterHashLen)...)
	payload = binary.BigEndian.AppendUint64(payload, 42)
	payload = binary.BigEndian.AppendUint64(payload, uint64(now.Unix()))
	payload = append(payload, 2, 8, 9)
	payload = append(payload, pageTokenMAC(key, payload)...)
	got, err := DecodePageToken(key, base64.RawURLEncoding.EncodeToString(payload), "r", FilterHash{}, 0, now)
	require.NoError(t, err)
	require.Equal(t, int64(42), got.Position)
	require.Equal(t, []byte{8, 9}, got.Extra)
	require.Empty(t, got.Heights)
}
