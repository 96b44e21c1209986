package sigagg

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/aggregator"
	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
)

const (
	aggregatePath   = "/v1/signatureAggregator/local/aggregateSignatures"
	aggregateTpl    = "/v1/signatureAggregator/{network}/aggregateSignatures"
	aggregatedTxTpl = aggregateTpl + "/{txHash}"
)

// post is a POST case of aggregateSignatures.
func post(name, body string, status int, fragments ...string) handlertest.RouteCase {
	tc := handlertest.RouteCase{Name: name, Method: http.MethodPost, Path: aggregatePath, Body: body, Status: status, Fragments: fragments}
	if status == http.StatusNotFound {
		tc.NotServed = aggregateTpl
	}
	return tc
}

func TestAggregateSignaturesRoute(t *testing.T) {
	srv := newTestAPI(t, nil)
	subnet := ids.ID{9, 9}
	bad := http.StatusBadRequest
	ok := http.StatusNotFound // valid input: not served yet
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		post("message only", `{"message":"0x00aabb"}`, ok),
		post("justification only", `{"justification":"0001abcdabcfff"}`, ok),
		post("upper-case hex and 0X", `{"message":"0XAABB","justification":"CC"}`, ok),
		post("all fields", `{"message":"aa","justification":"bb","signingSubnetId":"`+subnet.String()+
			`","quorumPercentage":60,"quorumPercentageBuffer":40,"pChainHeight":123}`, ok),
		post("hex subnet", `{"message":"aa","signingSubnetId":"0x`+subnet.Hex()+`"}`, ok),
		post("nulls are absent", `{"message":"aa","justification":null,"signingSubnetId":null,"quorumPercentage":null}`, ok),
		post("integral float", `{"message":"aa","quorumPercentage":67.0,"quorumPercentageBuffer":1e1}`, ok),
		post("quorum bounds", `{"message":"aa","quorumPercentage":0,"quorumPercentageBuffer":100}`, ok),
		post("max pChainHeight", `{"message":"aa","pChainHeight":18446744073709551615}`, ok),
		post("whitespace around", " \n{\"message\":\"aa\"}\n ", ok),

		// Path first: a bad network wins over a bad body.
		{Name: "bad network", Method: http.MethodPost, Path: "/v1/signatureAggregator/mainnet/aggregateSignatures",
			Body: `{`, Status: bad, Fragments: []string{"serves network 'local'", "'mainnet'"}},
		{Name: "unknown network", Method: http.MethodPost, Path: "/v1/signatureAggregator/devnet/aggregateSignatures",
			Body: `{"message":"aa"}`, Status: bad, Fragments: []string{"invalid network 'devnet'"}},

		post("empty body", ``, bad, "malformed JSON body", "empty"),
		post("truncated", `{"message":"aa"`, bad, "malformed JSON body"),
		post("syntax error", `{"message":}`, bad, "malformed JSON body", "invalid character"),
		post("trailing comma", `{"message":"aa",}`, bad, "malformed JSON body"),
		post("not an object", `["aa"]`, bad, "malformed JSON body", "JSON object"),
		post("null body", `null`, bad, "malformed JSON body", "JSON object"),
		post("trailing data", `{"message":"aa"} {}`, bad, "malformed JSON body", "after the JSON object"),
		post("duplicate field", `{"message":"aa","message":"bb"}`, bad, "malformed JSON body", "'message'", "more than once"),
		post("unknown field", `{"message":"aa","quorum-percentage":50}`, bad, "unknown field 'quorum-percentage'", "quorumPercentage"),
		post("field names are exact", `{"Message":"aa"}`, bad, "unknown field 'Message'"),

		post("neither message nor justification", `{}`, bad, "message or justification is required"),
		post("both empty", `{"message":"","justification":"0x"}`, bad, "message or justification is required"),
		post("message not a string", `{"message":12}`, bad, "invalid message", "hex string"),
		post("message not hex", `{"message":"0xzz"}`, bad, "invalid message", "not a hex digit"),
		post("message odd length", `{"message":"abc"}`, bad, "invalid message", "odd number"),
		post("justification not hex", `{"message":"aa","justification":"hello"}`, bad, "invalid justification"),
		post("subnet not a string", `{"message":"aa","signingSubnetId":1}`, bad, "invalid signingSubnetId", "string"),
		post("subnet bad", `{"message":"aa","signingSubnetId":"nope"}`, bad, "invalid signingSubnetId 'nope'", "cb58", "hex"),
		post("subnet short hex", `{"message":"aa","signingSubnetId":"0xabcd"}`, bad, "invalid signingSubnetId"),

		post("quorum as string", `{"message":"aa","quorumPercentage":"67"}`, bad, "invalid quorumPercentage", "between 0 and 100"),
		post("quorum too big", `{"message":"aa","quorumPercentage":101}`, bad, "invalid quorumPercentage 101", "between 0 and 100"),
		post("quorum negative", `{"message":"aa","quorumPercentage":-1}`, bad, "invalid quorumPercentage -1"),
		post("quorum fraction", `{"message":"aa","quorumPercentage":66.5}`, bad, "invalid quorumPercentage 66.5"),
		post("quorum bool", `{"message":"aa","quorumPercentage":true}`, bad, "invalid quorumPercentage"),
		post("buffer too big", `{"message":"aa","quorumPercentage":0,"quorumPercentageBuffer":101}`, bad,
			"invalid quorumPercentageBuffer 101"),
		post("sum over 100", `{"message":"aa","quorumPercentageBuffer":34}`, bad,
			"quorumPercentageBuffer", "quorumPercentage (67) + quorumPercentageBuffer (34) must be <= 100"),
		post("sum over 100 explicit", `{"message":"aa","quorumPercentage":90,"quorumPercentageBuffer":11}`, bad, "must be <= 100"),
		post("height negative", `{"message":"aa","pChainHeight":-5}`, bad, "invalid pChainHeight -5", "integer"),
		post("height fraction", `{"message":"aa","pChainHeight":1.5}`, bad, "invalid pChainHeight"),
		post("height overflow", `{"message":"aa","pChainHeight":18446744073709551616}`, bad, "invalid pChainHeight"),
		post("height as string", `{"message":"aa","pChainHeight":"5"}`, bad, "invalid pChainHeight"),
		post("huge exponent", `{"message":"aa","pChainHeight":1e400}`, bad, "invalid pChainHeight"),
	})
}

func TestAggregateSignaturesBodyLimit(t *testing.T) {
	srv := newTestAPI(t, nil)
	// Just over 1 MiB of valid JSON.
	big := `{"message":"` + strings.Repeat("ab", maxSigAggBodyBytes/2) + `"}`
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, aggregatePath, big), http.StatusRequestEntityTooLarge, "too large", "1048576")

	// Without a Content-Length the limit holds while reading.
	req := httptest.NewRequest(http.MethodPost, "http://node"+aggregatePath, strings.NewReader(big))
	req.ContentLength = -1
	handlertest.RequireDataError(t, srv.Serve(req), http.StatusRequestEntityTooLarge, "too large")

	// A body just at the limit is read.
	atLimit := `{"message":"` + strings.Repeat("ab", (maxSigAggBodyBytes-len(`{"message":""}`))/2) + `"}`
	require.LessOrEqual(t, len(atLimit), maxSigAggBodyBytes)
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, aggregatePath, atLimit), http.StatusNotFound, "not served")
}

func TestParseAggregateSignaturesDefaults(t *testing.T) {
	s := &server{Core: handlertest.NewCore(handlertest.NewFakes())}
	req := httptest.NewRequest(http.MethodPost, "http://node"+aggregatePath, strings.NewReader(`{"message":"0xAAbb"}`))
	req = handlertest.MuxVars(req, map[string]string{"network": "local"})
	got, err := s.parseAggregateSignaturesRequest(req, &api.Heights{})
	require.NoError(t, err)
	require.Equal(t, aggregator.Request{
		Message:                []byte{0xaa, 0xbb},
		QuorumPercentage:       67,
		QuorumPercentageBuffer: 0,
	}, got)

	subnet := ids.ID{7}
	req = httptest.NewRequest(http.MethodPost, "http://node"+aggregatePath, strings.NewReader(
		`{"justification":"01","signingSubnetId":"`+subnet.String()+`","quorumPercentage":50,"quorumPercentageBuffer":5,"pChainHeight":9}`))
	req = handlertest.MuxVars(req, map[string]string{"network": "local"})
	got, err = s.parseAggregateSignaturesRequest(req, &api.Heights{})
	require.NoError(t, err)
	require.Equal(t, aggregator.Request{
		Justification:          []byte{1},
		SigningSubnetID:        subnet,
		HasSigningSubnetID:     true,
		QuorumPercentage:       50,
		QuorumPercentageBuffer: 5,
		PChainHeight:           9,
	}, got)
}

func TestGetAggregatedSignaturesRoute(t *testing.T) {
	srv := newTestAPI(t, nil)
	base := "/v1/signatureAggregator/local/aggregateSignatures/"
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Valid("cb58 tx id", base+handlertest.TxID, aggregatedTxTpl),
		handlertest.Valid("hosted example", base+"3P91K6nuDFvDodcRuJTsgdf9SvYe5pMiKk38HppsoeAiEztCP", aggregatedTxTpl),
		handlertest.Invalid("bad network", "/v1/signatureAggregator/fuji/aggregateSignatures/nope", "serves network 'local'"),
		handlertest.Invalid("not cb58", base+"nope", "invalid txHash 'nope'", "cb58"),
		handlertest.Invalid("hex is not accepted", base+"0x"+ids.ID{1}.Hex(), "invalid txHash"),
		handlertest.Invalid("bad checksum", base+"3P91K6nuDFvDodcRuJTsgdf9SvYe5pMiKk38HppsoeAiEztCQ", "invalid txHash"),
		handlertest.Invalid("too long", base+strings.Repeat("2", 300), "invalid txHash"),
	})
}
