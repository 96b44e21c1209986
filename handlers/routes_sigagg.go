package handlers

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/aggregator"
)

// Signature aggregator endpoints (spec 1 and 2).

// Route names (also the hosted API's operation IDs).
const (
	routeAggregateSignatures     = "aggregateSignatures"
	routeGetAggregatedSignatures = "getAggregatedSignatures"
)

// maxSigAggBodyBytes bounds the aggregateSignatures body. Warp messages are
// far smaller; a larger body is answered with 413.
const maxSigAggBodyBytes = 1 << 20

// Fields of the aggregateSignatures body, in the spec's order.
const (
	fieldMessage                = "message"
	fieldJustification          = "justification"
	fieldSigningSubnetID        = "signingSubnetId"
	fieldQuorumPercentage       = "quorumPercentage"
	fieldQuorumPercentageBuffer = "quorumPercentageBuffer"
	fieldPChainHeight           = "pChainHeight"
)

// Defaults of the aggregateSignatures body.
const (
	defaultQuorumPercentage       = 67
	defaultQuorumPercentageBuffer = 0
)

func sigAggBodyFields() []string {
	return []string{fieldMessage, fieldJustification, fieldSigningSubnetID,
		fieldQuorumPercentage, fieldQuorumPercentageBuffer, fieldPChainHeight}
}

func (s *server) sigAggRoutes() []route {
	const base = "/v1/signatureAggregator/{network}/aggregateSignatures"
	return []route{
		{name: routeAggregateSignatures, method: http.MethodPost, path: base,
			summary: "aggregate validator signatures of a warp message",
			handler: s.adapt(s.serveAggregateSignatures)},
		{name: routeGetAggregatedSignatures, method: http.MethodGet, path: base + "/{txHash}",
			summary: "aggregated signature of a P-chain L1 transaction's warp message",
			handler: s.adapt(s.serveGetAggregatedSignatures)},
	}
}

// parseAggregateSignaturesRequest validates {network}, then the JSON body.
// The body is parsed strictly: it must be one JSON object with no fields but
// the documented ones (exact spelling), and numbers must be JSON numbers.
// A field set to null counts as absent.
func (s *server) parseAggregateSignaturesRequest(r *http.Request, heights *indexedView) (aggregator.Request, error) {
	var req aggregator.Request
	if err := resolveNetwork(pathVar(r, paramNetwork), s.Network()); err != nil {
		return req, err
	}
	fields, err := readJSONObject(r, maxSigAggBodyBytes, sigAggBodyFields())
	if err != nil {
		return req, err
	}
	if req.Message, err = hexField(fields, fieldMessage); err != nil {
		return req, err
	}
	if req.Justification, err = hexField(fields, fieldJustification); err != nil {
		return req, err
	}
	subnet, err := stringField(fields, fieldSigningSubnetID)
	if err != nil {
		return req, err
	}
	if subnet != "" {
		if req.SigningSubnetID, err = parseHexOrCB58ID(fieldSigningSubnetID, subnet); err != nil {
			return req, err
		}
		req.HasSigningSubnetID = true
	}
	if req.QuorumPercentage, err = uintField(fields, fieldQuorumPercentage, defaultQuorumPercentage, 100); err != nil {
		return req, err
	}
	if req.QuorumPercentageBuffer, err = uintField(fields, fieldQuorumPercentageBuffer, defaultQuorumPercentageBuffer, 100); err != nil {
		return req, err
	}
	if req.PChainHeight, err = uintField(fields, fieldPChainHeight, 0, math.MaxUint64); err != nil {
		return req, err
	}
	if len(req.Message) == 0 && len(req.Justification) == 0 {
		return req, badRequest("%s or %s is required: give at least one of them, hex-encoded (optional 0x prefix)",
			fieldMessage, fieldJustification)
	}
	if req.QuorumPercentage+req.QuorumPercentageBuffer > 100 {
		return req, badRequest("invalid %s %d: %s (%d) + %s (%d) must be <= 100",
			fieldQuorumPercentageBuffer, req.QuorumPercentageBuffer,
			fieldQuorumPercentage, req.QuorumPercentage, fieldQuorumPercentageBuffer, req.QuorumPercentageBuffer)
	}
	return req, nil
}

// getAggregatedSignaturesRequest is the validated input of
// GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}.
type getAggregatedSignaturesRequest struct {
	// TxID is the P- or X-chain transaction whose warp message is signed.
	TxID ids.ID
}

func (s *server) parseGetAggregatedSignaturesRequest(r *http.Request, heights *indexedView) (getAggregatedSignaturesRequest, error) {
	if err := resolveNetwork(pathVar(r, paramNetwork), s.Network()); err != nil {
		return getAggregatedSignaturesRequest{}, err
	}
	txID, err := parseCB58ID(paramTxHash, pathVar(r, paramTxHash))
	return getAggregatedSignaturesRequest{TxID: txID}, err
}

// readJSONObject reads r's body, at most limit bytes (413 beyond), as a
// single JSON object and returns its members. Member names must be among
// allowed (exact spelling) and appear once; anything else is a 400.
func readJSONObject(r *http.Request, limit int64, allowed []string) (map[string]json.RawMessage, error) {
	body, err := readBody(r, limit)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return nil, badRequest("malformed JSON body: the body is empty; send a JSON object")
	}
	if trimmed[0] != '{' {
		return nil, badRequest("malformed JSON body: must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	tok, err := dec.Token() // the opening brace
	if err != nil || tok != json.Delim('{') {
		return nil, badRequest("malformed JSON body: must be a JSON object")
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
			return nil, badRequest("unknown field '%s' in the JSON body: allowed fields are %s",
				truncate(name), quoteList(allowed))
		}
		if _, dup := fields[name]; dup {
			return nil, badRequest("malformed JSON body: field '%s' appears more than once", name)
		}
		fields[name] = value
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, malformedJSON(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, badRequest("malformed JSON body: unexpected data after the JSON object")
	}
	return fields, nil
}

func malformedJSON(err error) *apiError {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return badRequest("malformed JSON body: unexpected end of input")
	}
	return badRequest("malformed JSON body: %v", err)
}

// isNull reports whether a member is absent or JSON null.
func isNull(raw json.RawMessage) bool { return raw == nil || string(raw) == "null" }

// stringField returns a string member, "" when absent or null.
func stringField(fields map[string]json.RawMessage, name string) (string, error) {
	raw := fields[name]
	if isNull(raw) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", badRequest("invalid %s: must be a string", name)
	}
	return s, nil
}

// hexField returns the bytes of a hex string member (optional 0x prefix), nil
// when absent, null or empty.
func hexField(fields map[string]json.RawMessage, name string) ([]byte, error) {
	s, err := stringField(fields, name)
	if err != nil {
		return nil, badRequest("invalid %s: must be a hex string (optional 0x prefix)", name)
	}
	digits := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	b, err := hex.DecodeString(digits)
	if err != nil {
		what := "contains a character that is not a hex digit"
		if errors.Is(err, hex.ErrLength) {
			what = "has an odd number of hex digits"
		}
		return nil, badRequest("invalid %s: %s; want hex bytes with an optional 0x prefix", name, what)
	}
	if len(b) == 0 {
		return nil, nil
	}
	return b, nil
}

// uintField returns an integer member in [0, maxValue], def when absent or
// null. JSON numbers with an integral value (67, 67.0, 6.7e1) are accepted;
// strings, fractions and out-of-range values are not.
func uintField(fields map[string]json.RawMessage, name string, def, maxValue uint64) (uint64, error) {
	raw := fields[name]
	if isNull(raw) {
		return def, nil
	}
	rangeErr := badRequest("invalid %s %s: must be an integer between 0 and %d (default %d)", name, truncate(string(raw)), maxValue, def)
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
