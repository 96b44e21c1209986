package api

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Page tokens are opaque to clients but carry everything needed to resume a
// listing: which route issued them, a hash of the filters of the query they
// belong to, where the next page starts, when they were issued and the
// indexed heights the page was cut at. An HMAC-SHA256 over all of that,
// keyed with Backend.PageTokenKey (shared by replicas that set
// pageTokenSecret), makes them tamper-evident, so handlers can trust the
// position without re-validating it against the store.
//
// Wire format (before base64url without padding):
//
//	version(1) | len(route)(1) | route | filters(16) | position(8) |
//	issuedAt(8) | len(extra)(1) | extra |
//	count(1) | count × (len(stream)(1) | stream | height(8)) | mac(32)
//
// Version 1 tokens (no heights) are still accepted, so paging that began
// before an upgrade goes on; they carry no height to wait for.
const (
	pageTokenVersion   = 2
	pageTokenVersionV1 = 1
	filterHashLen      = 16
	PageTokenMACLen    = sha256.Size
	maxRouteLen        = 255
	MaxExtraLen        = 255
	maxTokenHeights    = 255
	maxStreamLen       = 255
)

// MetricsPageTokenLifetime is how long metrics-service tokens stay valid
// (spec, Limits: 24 hours from generation).
const MetricsPageTokenLifetime = 24 * time.Hour

// maxClockSkew tolerates tokens issued slightly "in the future" (e.g. after a
// wall-clock step back) without accepting arbitrarily post-dated ones.
const maxClockSkew = 5 * time.Minute

// FilterHash identifies the filter parameters of a listing query, so a token
// cannot be replayed against a query with other filters.
type FilterHash [filterHashLen]byte

// NewFilterHash hashes the normalized filter values of a query, given as
// name/value pairs in a fixed order. Values should be normalized first (e.g.
// a chain's canonical name rather than whichever alias the client used), so
// equivalent queries share tokens. Each string is length-prefixed, so
// ("ab","c") and ("a","bc") differ.
func NewFilterHash(parts ...string) FilterHash {
	h := sha256.New()
	var length [8]byte
	for _, part := range parts {
		binary.BigEndian.PutUint64(length[:], uint64(len(part)))
		h.Write(length[:])
		h.Write([]byte(part))
	}
	var fh FilterHash
	copy(fh[:], h.Sum(nil))
	return fh
}

// PageToken is the decoded content of a page token.
type PageToken struct {
	// Route names the endpoint that issued the token.
	Route string
	// Filters is the hash of the issuing query's filters.
	Filters FilterHash
	// Position is where the next page starts; its meaning is the route's
	// (avg TPS: the Start of the last bucket returned).
	Position int64
	// Extra is an optional secondary position (at most 255 bytes) for routes
	// whose position is compound.
	Extra []byte
	// IssuedAt is when the token was created (second precision).
	IssuedAt time.Time
	// Heights are the indexed heights of the streams the listing reads, as
	// the page was cut: a replica serves the next page only once its own
	// index has reached them (see replicas.go).
	Heights []StreamHeight
}

// errInvalidPageToken is wrapped by every decoding failure; handlers report
// them all as 400.
var errInvalidPageToken = errors.New("invalid pageToken")

// EncodePageToken serializes and signs t with key.
func EncodePageToken(key []byte, t PageToken) (string, error) {
	if len(key) == 0 {
		return "", errors.New("encoding page token: empty signing key")
	}
	if len(t.Route) > maxRouteLen || len(t.Extra) > MaxExtraLen {
		return "", fmt.Errorf("encoding page token: route (%d bytes) or extra (%d bytes) longer than %d",
			len(t.Route), len(t.Extra), maxRouteLen)
	}
	if len(t.Heights) > maxTokenHeights {
		return "", fmt.Errorf("encoding page token: %d heights, at most %d fit", len(t.Heights), maxTokenHeights)
	}
	payload := make([]byte, 0, 1+1+len(t.Route)+filterHashLen+8+8+1+len(t.Extra)+1+len(t.Heights)*16+PageTokenMACLen)
	payload = append(payload, pageTokenVersion, byte(len(t.Route)))
	payload = append(payload, t.Route...)
	payload = append(payload, t.Filters[:]...)
	payload = binary.BigEndian.AppendUint64(payload, uint64(t.Position))
	payload = binary.BigEndian.AppendUint64(payload, uint64(t.IssuedAt.Unix()))
	payload = append(payload, byte(len(t.Extra)))
	payload = append(payload, t.Extra...)
	payload = append(payload, byte(len(t.Heights)))
	for _, h := range t.Heights {
		if h.Stream == "" || len(h.Stream) > maxStreamLen {
			return "", fmt.Errorf("encoding page token: stream name %q empty or longer than %d", h.Stream, maxStreamLen)
		}
		payload = append(payload, byte(len(h.Stream)))
		payload = append(payload, h.Stream...)
		payload = binary.BigEndian.AppendUint64(payload, h.Height)
	}
	payload = append(payload, pageTokenMAC(key, payload)...)
	return base64.RawURLEncoding.EncodeToString(payload), nil
}

// DecodePageToken verifies s and checks that it was issued by route for a
// query with the same filters, no longer than MaxAge before now (MaxAge 0:
// no expiry). Every failure wraps errInvalidPageToken and says what is wrong
// in words a client can act on.
func DecodePageToken(key []byte, s, route string, filters FilterHash, maxAge time.Duration, now time.Time) (PageToken, error) {
	if len(key) == 0 {
		return PageToken{}, errors.New("decoding page token: empty signing key")
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) < PageTokenMACLen {
		return PageToken{}, fmt.Errorf("%w: not a token issued by this node", errInvalidPageToken)
	}
	payload, mac := raw[:len(raw)-PageTokenMACLen], raw[len(raw)-PageTokenMACLen:]
	if !hmac.Equal(mac, pageTokenMAC(key, payload)) {
		return PageToken{}, fmt.Errorf("%w: not a token issued by this node (signature mismatch; "+
			"replicas behind one load balancer must share pageTokenSecret)", errInvalidPageToken)
	}
	t, err := ParsePageTokenPayload(payload)
	if err != nil {
		return PageToken{}, fmt.Errorf("%w: %w", errInvalidPageToken, err)
	}
	if t.Route != route {
		return PageToken{}, fmt.Errorf("%w: the token was issued by another endpoint", errInvalidPageToken)
	}
	if t.Filters != filters {
		return PageToken{}, fmt.Errorf("%w: the token belongs to a query with other parameters; "+
			"repeat the original query or start again without pageToken", errInvalidPageToken)
	}
	if t.IssuedAt.After(now.Add(maxClockSkew)) {
		return PageToken{}, fmt.Errorf("%w: the token's issue time is in the future", errInvalidPageToken)
	}
	if maxAge > 0 && now.Sub(t.IssuedAt) > maxAge {
		return PageToken{}, fmt.Errorf("%w: the token expired (tokens are valid for %s); start again from the first page",
			errInvalidPageToken, formatLifetime(maxAge))
	}
	return t, nil
}

// ParsePageTokenPayload reads the fields of an authenticated payload. Only
// our own encoder produces signed payloads, so failures here mean a token of
// another format version or a bug, never a forgery.
func ParsePageTokenPayload(p []byte) (PageToken, error) {
	r := payloadReader{buf: p}
	version := r.byte()
	if version != pageTokenVersion && version != pageTokenVersionV1 {
		return PageToken{}, fmt.Errorf("unsupported token version %d", version)
	}
	var t PageToken
	t.Route = string(r.bytes(int(r.byte())))
	copy(t.Filters[:], r.bytes(filterHashLen))
	t.Position = int64(r.uint64())
	t.IssuedAt = time.Unix(int64(r.uint64()), 0)
	if n := int(r.byte()); n > 0 {
		t.Extra = append([]byte(nil), r.bytes(n)...)
	}
	if version >= pageTokenVersion {
		for n := int(r.byte()); n > 0 && !r.short; n-- {
			stream := string(r.bytes(int(r.byte())))
			t.Heights = append(t.Heights, StreamHeight{Stream: stream, Height: r.uint64()})
		}
	}
	if r.short || len(r.buf) != 0 {
		return PageToken{}, errors.New("malformed token")
	}
	return t, nil
}

func pageTokenMAC(key, payload []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write(payload)
	return mac.Sum(nil)
}

// payloadReader consumes a byte slice front to back and remembers if it ran
// short, so parsing needs one check at the end instead of one per field.
type payloadReader struct {
	buf   []byte
	short bool
}

func (r *payloadReader) bytes(n int) []byte {
	if n > len(r.buf) {
		r.short = true
		r.buf = nil
		return make([]byte, n)
	}
	b := r.buf[:n]
	r.buf = r.buf[n:]
	return b
}

func (r *payloadReader) byte() byte { return r.bytes(1)[0] }

func (r *payloadReader) uint64() uint64 { return binary.BigEndian.Uint64(r.bytes(8)) }

// formatLifetime prints durations like 24h as "24h" rather than "24h0m0s".
func formatLifetime(d time.Duration) string {
	if d%time.Hour == 0 {
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	}
	return d.String()
}
