package api

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// ReadJSONObject reads r's body, at most limit bytes (413 beyond), as a
// single JSON object and returns its members. Member names must be among
// allowed (exact spelling) and appear once; anything else is a 400.
func ReadJSONObject(r *http.Request, limit int64, allowed []string) (map[string]json.RawMessage, error) {
	body, err := ReadBody(r, limit)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, BadRequest("malformed JSON body: the body is empty; send a JSON object")
	}
	if trimmed[0] != '{' {
		return nil, BadRequest("malformed JSON body: must be a JSON object")
	}
	return DecodeJSONObject(trimmed, "the JSON body", allowed)
}

// DecodeJSONObject reads data, the value of where (the body, or a member
// such as "metadata"), as a single JSON object and returns its members,
// with the rules of ReadJSONObject.
func DecodeJSONObject(data []byte, where string, allowed []string) (map[string]json.RawMessage, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, BadRequest("malformed JSON body: %s is empty; send a JSON object", where)
	}
	if trimmed[0] != '{' {
		return nil, BadRequest("malformed JSON body: %s must be a JSON object", where)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	tok, err := dec.Token() // the opening brace
	if err != nil || tok != json.Delim('{') {
		return nil, BadRequest("malformed JSON body: %s must be a JSON object", where)
	}
	fields := make(map[string]json.RawMessage)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, malformedJSON(err)
		}
		name, _ := tok.(string) // object keys are always strings
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, malformedJSON(err)
		}
		if !slices.Contains(allowed, name) {
			return nil, BadRequest("unknown field '%s' in %s: allowed fields are %s",
				Truncate(name), where, QuoteList(allowed))
		}
		if _, dup := fields[name]; dup {
			return nil, BadRequest("malformed JSON body: field '%s' appears more than once in %s", name, where)
		}
		fields[name] = value
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, malformedJSON(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, BadRequest("malformed JSON body: unexpected data after the JSON object")
	}
	return fields, nil
}

func malformedJSON(err error) *Error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return BadRequest("malformed JSON body: unexpected end of input")
	}
	return BadRequest("malformed JSON body: %v", err)
}

// isNull reports whether a member is absent or JSON null.
// IsNull reports whether a member is absent or null.
func IsNull(raw json.RawMessage) bool { return raw == nil || string(raw) == "null" }

// StringField returns a string member, "" when absent or null.
func StringField(fields map[string]json.RawMessage, name string) (string, error) {
	return StringFieldAt(fields, "", name)
}

// StringFieldAt is StringField of an object nested at where ("metadata."),
// which messages name the member by.
func StringFieldAt(fields map[string]json.RawMessage, where, name string) (string, error) {
	raw := fields[name]
	if IsNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", BadRequest("invalid %s: must be a string", where+name)
	}
	return s, nil
}

// HexField returns the bytes of a hex string member (optional 0x prefix), nil
// when absent, null or empty.
func HexField(fields map[string]json.RawMessage, name string) ([]byte, error) {
	s, err := StringField(fields, name)
	if err != nil {
		return nil, BadRequest("invalid %s: must be a hex string (optional 0x prefix)", name)
	}
	digits := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	b, err := hex.DecodeString(digits)
	if err != nil {
		what := "contains a character that is not a hex digit"
		if errors.Is(err, hex.ErrLength) {
			what = "has an odd number of hex digits"
		}
		return nil, BadRequest("invalid %s: %s; want hex bytes with an optional 0x prefix", name, what)
	}
	if len(b) == 0 {
		return nil, nil
	}
	return b, nil
}

// UintField returns an integer member in [0, maxValue], def when absent or
// null. JSON numbers with an integral value (67, 67.0, 6.7e1) are accepted;
// strings, fractions and out-of-range values are not.
func UintField(fields map[string]json.RawMessage, name string, def, maxValue uint64) (uint64, error) {
	raw := fields[name]
	if IsNull(raw) {
		return def, nil
	}
	rangeErr := BadRequest("invalid %s %s: must be an integer between 0 and %d (default %d)", name, Truncate(string(raw)), maxValue, def)
	if raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return 0, rangeErr
	}
	text := string(raw)
	if v, err := strconv.ParseUint(text, 10, 64); err == nil {
		if v > maxValue {
			return 0, rangeErr
		}
		return v, nil
	}
	// Not plain digits: a negative, fractional or exponent form. Accept it
	// only if it is an exactly representable integer in range.
	const maxExact = 1 << 53
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f > maxExact || uint64(f) > maxValue {
		return 0, rangeErr
	}
	return uint64(f), nil
}

// ReadBody reads r's body, at most limit bytes; a longer body, or one over
// the bound of every route, is a 413.
func ReadBody(r *http.Request, limit int64) ([]byte, error) {
	if r.ContentLength > limit {
		return nil, BodyTooLarge(limit)
	}
	if r.Body == nil {
		return nil, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	var overAll *http.MaxBytesError
	switch {
	case errors.As(err, &overAll):
		return nil, BodyTooLarge(overAll.Limit)
	case err != nil:
		return nil, BadRequest("reading the request body failed: %v", err)
	case int64(len(body)) > limit:
		return nil, BodyTooLarge(limit)
	}
	return body, nil
}

func BodyTooLarge(limit int64) *Error {
	return NewError(http.StatusRequestEntityTooLarge, "request body too large: the limit is %s", ByteCount(limit))
}

// ByteCount writes n as bytes, with KiB or MiB when exact.
func ByteCount(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d bytes (%d MiB)", n, n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d bytes (%d KiB)", n, n>>10)
	default:
		return fmt.Sprintf("%d bytes", n)
	}
}
