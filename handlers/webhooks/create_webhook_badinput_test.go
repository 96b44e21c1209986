package webhooks

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"github.com/avadata/avadata/handlers/handlertest"
)

// Valid parts the bad requests below vary one at a time.
const (
	ewoqX    = "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"
	aNodeID  = "NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"
	aSig     = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
	pnPrefix = `{"eventType":"primary_network_address_activity","url":"https://h.example/","network":"fuji","chainId":"X",`
	vaPrefix = `{"eventType":"validator_activity","url":"https://h.example/","network":"fuji",`
	evPrefix = `{"eventType":"address_activity","url":"https://h.example/","chainId":"779672",`
)

func pnMeta(meta string) string { return pnPrefix + `"metadata":` + meta + `}` }
func vaMeta(meta string) string { return vaPrefix + `"metadata":` + meta + `}` }
func evMeta(meta string) string { return evPrefix + `"metadata":` + meta + `}` }

// TestCreateWebhookBadInput: every bad create request is a 400 in the
// spec's body whose message names the member and what it accepts.
func TestCreateWebhookBadInput(t *testing.T) {
	a, _ := newTestAPI(t, Config{MaxAddresses: 3})
	long := strings.Repeat("a", 2049)
	okSubs := `"subEvents":{"addressActivitySubEvents":["balance_change"]}`
	okVSubs := `"subEvents":{"validatorActivitySubEvents":["validator_stake"]}`
	for _, tc := range []struct {
		name, body string
		fragments  []string
	}{
		{"empty body", ``, []string{"body is empty"}},
		{"not an object", `[]`, []string{"must be a JSON object"}},
		{"unknown member", `{"eventType":"address_activity","color":"red"}`, []string{"unknown field 'color'"}},
		{"no event type", `{"url":"https://h.example/"}`, []string{"eventType is required", "address_activity"}},
		{"unknown event type", `{"eventType":"block_activity"}`, []string{"invalid eventType 'block_activity'"}},
		{"member of another kind", `{"eventType":"validator_activity","chainId":"x"}`, []string{"unknown field 'chainId' in a validator_activity request"}},
		{"include flag on primary", pnPrefix + `"includeLogs":true}`, []string{"unknown field 'includeLogs'"}},
		{"no url", `{"eventType":"address_activity","chainId":"779672","metadata":{"addresses":["0x00000000000000000000000000000000000a11ce"]}}`, []string{"url is required"}},
		{"url not a string", evPrefix[:len(evPrefix)-len(`"url":"https://h.example/","chainId":"779672",`)] + `"url":5}`, []string{"invalid url: must be a string"}},
		{"ftp url", `{"eventType":"address_activity","url":"ftp://h.example/"}`, []string{"invalid url", "http or https"}},
		{"relative url", `{"eventType":"address_activity","url":"/hook"}`, []string{"invalid url", "http or https"}},
		{"url without host", `{"eventType":"address_activity","url":"http:///hook"}`, []string{"absolute URL with a host"}},
		{"malformed url", `{"eventType":"address_activity","url":"http://h.example/%zz"}`, []string{"invalid url", "not a URL"}},
		{"long url", `{"eventType":"address_activity","url":"https://h.example/` + long + `"}`, []string{"at most 2048"}},
		{"long name", evPrefix + `"name":"` + strings.Repeat("é", 257) + `"}`, []string{"invalid name", "257 characters", "at most 256"}},
		{"long description", evPrefix + `"description":"` + strings.Repeat("d", 1025) + `"}`, []string{"invalid description", "at most 1024"}},
		{"no chain", `{"eventType":"address_activity","url":"https://h.example/"}`, []string{"chainId is required"}},
		{"unknown EVM chain", `{"eventType":"address_activity","url":"https://h.example/","chainId":"1"}`, []string{"unsupported chainId '1'"}},
		{"X as EVM chain", `{"eventType":"address_activity","url":"https://h.example/","chainId":"x-chain"}`, []string{"chainId"}},
		{"include flag not bool", evPrefix + `"includeLogs":"yes","metadata":{"addresses":["0x00000000000000000000000000000000000a11ce"]}}`, []string{"invalid includeLogs: must be true or false"}},
		{"no metadata", evPrefix[:len(evPrefix)-1] + `}`, []string{"metadata is required"}},
		{"metadata not an object", evMeta(`[]`), []string{"metadata must be a JSON object"}},
		{"unknown metadata member", evMeta(`{"addresses":["0x00000000000000000000000000000000000a11ce"],"keys":[]}`), []string{"unknown field 'keys' in metadata"}},
		{"no addresses", evMeta(`{}`), []string{"metadata.addresses is required"}},
		{"empty addresses", evMeta(`{"addresses":[]}`), []string{"metadata.addresses is required"}},
		{"addresses not strings", evMeta(`{"addresses":[1]}`), []string{"invalid metadata.addresses: must be an array of strings"}},
		{"short address", evMeta(`{"addresses":["0x1234"]}`), []string{"invalid metadata.addresses entry '0x1234'"}},
		{"bech32 as EVM address", evMeta(`{"addresses":["` + ewoqX + `"]}`), []string{"invalid metadata.addresses entry"}},
		{"too many addresses", evMeta(`{"addresses":["0x0000000000000000000000000000000000000001","0x0000000000000000000000000000000000000002",` +
			`"0x0000000000000000000000000000000000000003","0x0000000000000000000000000000000000000004"]}`), []string{"4 addresses", "at most 3"}},
		{"bad event signature", evMeta(`{"addresses":["0x00000000000000000000000000000000000a11ce"],"eventSignatures":["0xddf2"]}`), []string{"invalid metadata.eventSignatures entry '0xddf2'"}},
		{"too many event signatures", evMeta(`{"addresses":["0x00000000000000000000000000000000000a11ce"],"eventSignatures":[` +
			strings.Repeat(`"`+aSig+`",`, maxEventSignatures) + `"` + aSig + `"]}`), []string{"invalid metadata.eventSignatures: has 101 entries, at most 100"}},
		{"no network", `{"eventType":"validator_activity","url":"https://h.example/"}`, []string{"network is required"}},
		{"unknown network", vaPrefix[:len(vaPrefix)-len(`"network":"fuji",`)] + `"network":"local"}`, []string{"invalid network 'local'", "'mainnet' or 'fuji'"}},
		{"mainnet on a local node", vaPrefix[:len(vaPrefix)-len(`"network":"fuji",`)] + `"network":"mainnet"}`, []string{"network 'mainnet' is not this node's network", "'local'", "send 'fuji'"}},
		{"primary chain not P/X/C", pnPrefix[:len(pnPrefix)-len(`"chainId":"X",`)] + `"chainId":"779672"}`, []string{"invalid chainId '779672'", "P-, X- or C-chain"}},
		{"key type", pnMeta(`{"keyType":"nodeId","keys":["` + ewoqX + `"],` + okSubs + `}`), []string{"invalid metadata.keyType 'nodeId'", "'addresses'"}},
		{"no keys", pnMeta(`{"keyType":"addresses","keys":[],` + okSubs + `}`), []string{"metadata.keys is required"}},
		{"EVM key on primary", pnMeta(`{"keyType":"addresses","keys":["0x00000000000000000000000000000000000a11ce"],` + okSubs + `}`), []string{"invalid metadata.keys entry", "bech32"}},
		{"fuji address on local", pnMeta(`{"keyType":"addresses","keys":["X-fuji18jma8ppw3nhx5r4ap8clazz0dps7rv5u6wmu4t"],` + okSubs + `}`), []string{"address of 'fuji'", "uses 'local'"}},
		{"bad chain prefix", pnMeta(`{"keyType":"addresses","keys":["Q-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"],` + okSubs + `}`), []string{"chain prefix must be P-, X- or C-"}},
		{"no sub-events", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"]}`), []string{"metadata.subEvents is required"}},
		{"empty sub-events", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],"subEvents":{"addressActivitySubEvents":[]}}`), []string{"metadata.subEvents.addressActivitySubEvents is required"}},
		{"validator sub-event on primary", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],"subEvents":{"addressActivitySubEvents":["validator_stake"]}}`), []string{"invalid metadata.subEvents.addressActivitySubEvents entry 'validator_stake'"}},
		{"wrong sub-events member", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],"subEvents":{"validatorActivitySubEvents":["validator_stake"]}}`), []string{"unknown field 'validatorActivitySubEvents' in metadata.subEvents"}},
		{"signed threshold", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],` + okSubs + `,"balanceThresholdFilter":{"balanceType":"unlocked","balanceThreshold":"+1"}}`), []string{"balanceThreshold '+1'"}},
		{"balance type", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],` + okSubs + `,"balanceThresholdFilter":{"balanceType":"all","balanceThreshold":"1"}}`), []string{"invalid metadata.balanceThresholdFilter.balanceType 'all'"}},
		{"negative threshold", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],` + okSubs + `,"balanceThresholdFilter":{"balanceType":"unlocked","balanceThreshold":"-1"}}`), []string{"invalid metadata.balanceThresholdFilter.balanceThreshold '-1'", "non-negative integer"}},
		{"fractional threshold", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],` + okSubs + `,"balanceThresholdFilter":{"balanceType":"unlocked","balanceThreshold":"1.5"}}`), []string{"balanceThreshold '1.5'"}},
		{"threshold without filter", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],"subEvents":{"addressActivitySubEvents":["balance_threshold"]}}`), []string{"metadata.balanceThresholdFilter is required with the sub-event 'balance_threshold'"}},
		{"threshold on a P-only type", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],` + okSubs + `,"balanceThresholdFilter":{"balanceType":"lockedStaked","balanceThreshold":"1"}}`), []string{"'lockedStaked': on the X-chain it must be one of 'unlocked', 'locked'"}},
		{"threshold on atomic memory", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],` + okSubs + `,"balanceThresholdFilter":{"balanceType":"atomicMemoryUnlocked","balanceThreshold":"1"}}`), []string{"on the X-chain it must be one of"}},
		{"rewards off the P-chain", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],"subEvents":{"addressActivitySubEvents":["reward_distribution"]}}`), []string{"'reward_distribution': staking rewards are paid on the P-chain only"}},
		{"no threshold", pnMeta(`{"keyType":"addresses","keys":["` + ewoqX + `"],` + okSubs + `,"balanceThresholdFilter":{"balanceType":"unlocked"}}`), []string{"metadata.balanceThresholdFilter.balanceThreshold is required"}},
		{"validator key type", vaMeta(`{"keyType":"addresses","keys":["` + aNodeID + `"],` + okVSubs + `}`), []string{"invalid metadata.keyType 'addresses'", "'nodeId', 'subnetId'"}},
		{"two validator keys", vaMeta(`{"keyType":"nodeId","keys":["` + aNodeID + `","` + aNodeID + `"],` + okVSubs + `}`), []string{"has 2 keys", "exactly one nodeId"}},
		{"bad node ID", vaMeta(`{"keyType":"nodeId","keys":["NodeID-nope"],` + okVSubs + `}`), []string{"invalid metadata.keys entry 'NodeID-nope'", "node ID"}},
		{"bad subnet ID", vaMeta(`{"keyType":"subnetId","keys":["nope"],` + okVSubs + `}`), []string{"invalid metadata.keys entry 'nope'", "subnet ID"}},
		{"primary sub-event on validator", vaMeta(`{"keyType":"nodeId","keys":["` + aNodeID + `"],"subEvents":{"validatorActivitySubEvents":["balance_change"]}}`), []string{"invalid metadata.subEvents.validatorActivitySubEvents entry 'balance_change'"}},
		{"bad nodeIds filter", vaMeta(`{"keyType":"subnetId","keys":["11111111111111111111111111111111LpoYY"],` + okVSubs + `,"nodeIds":["x"]}`), []string{"invalid metadata.nodeIds entry 'x'"}},
		{"bad subnetIds filter", vaMeta(`{"keyType":"nodeId","keys":["` + aNodeID + `"],` + okVSubs + `,"subnetIds":["x"]}`), []string{"invalid metadata.subnetIds entry 'x'"}},
		{"bad fee threshold", vaMeta(`{"keyType":"nodeId","keys":["` + aNodeID + `"],` + okVSubs + `,"l1ValidatorFeeBalanceThreshold":"lots"}`), []string{"invalid metadata.l1ValidatorFeeBalanceThreshold 'lots'"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := a.Request(t, http.MethodPost, "/v1/webhooks", tc.body, manageHeader...)
			handlertest.RequireDataError(t, rec, http.StatusBadRequest, tc.fragments...)
		})
	}
}

// TestCreateWebhookRefusesPrivateTargets: a URL whose host resolves to a
// loopback, private, link-local or reserved address is a 400 naming the
// address, unless the operator allows private targets.
func TestCreateWebhookRefusesPrivateTargets(t *testing.T) {
	for _, addr := range []string{"127.0.0.1", "10.1.2.3", "169.254.169.254", "100.64.0.1", "::1", "fd00::1", "0.0.0.0"} {
		t.Run(addr, func(t *testing.T) {
			a, _ := newTestAPI(t, Config{Resolver: fakeResolver{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr(addr)}})
			rec := a.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...)
			handlertest.RequireDataError(t, rec, http.StatusBadRequest, "not a public address", addr, "webhooks.allowPrivateTargets")
		})
	}
	t.Run("allowed", func(t *testing.T) {
		a, _ := newTestAPI(t, Config{AllowPrivateTargets: true, Resolver: fakeResolver{netip.MustParseAddr("127.0.0.1")}})
		rec := a.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...)
		handlertest.RequireJSON(t, rec, http.StatusCreated, &map[string]any{})
	})
	t.Run("resolved by the system", func(t *testing.T) {
		a, _ := newTestAPI(t, Config{Resolver: net.DefaultResolver})
		for _, url := range []string{"http://localhost:8080/in", "http://127.0.0.1/in", "http://[::ffff:10.0.0.1]/in"} {
			rec := a.Request(t, http.MethodPost, "/v1/webhooks", strings.Replace(evmCreate, "https://hooks.example/in", url, 1), manageHeader...)
			handlertest.RequireDataError(t, rec, http.StatusBadRequest, "not a public address")
		}
		rec := a.Request(t, http.MethodPost, "/v1/webhooks", strings.Replace(evmCreate, "https://hooks.example/in", "https://93.184.216.34/in", 1), manageHeader...)
		handlertest.RequireJSON(t, rec, http.StatusCreated, &map[string]any{})
	})
	t.Run("unresolvable", func(t *testing.T) {
		a, _ := newTestAPI(t, Config{Resolver: fakeResolver{}})
		rec := a.Request(t, http.MethodPost, "/v1/webhooks", evmCreate, manageHeader...)
		handlertest.RequireDataError(t, rec, http.StatusBadRequest, "does not resolve")
	})
}
