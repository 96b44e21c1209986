package operations

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
)

const exportPath = "/v1/operations/transactions:export"

func exportBody(fields string) string {
	return `{"type":"TRANSACTION_EXPORT_EVM",` + fields + `}`
}

var subnetOptions = `"options":{"addresses":["` + alice.Hex() + `"],"includeChains":["` + strconv.Itoa(fakenet.SubnetEVMChainID) + `"]}`

func TestPostTransactionExportJobCreates(t *testing.T) {
	srv, _ := newTestAPI(t, false)
	rec := srv.Request(t, http.MethodPost, exportPath, exportBody(`"firstDate":"2024-05-01","lastDate":"2024-05-01",`+subnetOptions), keyHeader...)
	var body map[string]any
	handlertest.RequireJSON(t, rec, http.StatusCreated, &body)
	handlertest.RequireNoNulls(t, body)
	require.Equal(t, "TRANSACTION_EXPORT_EVM", body["operationType"])
	require.Equal(t, "RUNNING", body["operationStatus"])
	require.NotEmpty(t, body["operationId"])
	require.NotContains(t, body, "metadata", "nothing to say while it runs")
	require.Positive(t, body["createdAtTimestamp"])
	require.Positive(t, body["updatedAtTimestamp"])
}

func TestPostTransactionExportJobNeedsAKey(t *testing.T) {
	srv, _ := newTestAPI(t, false)
	rec := srv.Request(t, http.MethodPost, exportPath, exportBody(subnetOptions))
	handlertest.RequireDataError(t, rec, http.StatusUnauthorized, "postTransactionExportJob needs an API key")
}

func TestPostTransactionExportJobBadInput(t *testing.T) {
	srv, _ := newTestAPI(t, false)
	chain := strconv.Itoa(fakenet.SubnetEVMChainID)
	addrs := make([]string, 11)
	for i := range addrs {
		addrs[i] = `"` + alice.Hex() + `"`
	}
	for _, tt := range []struct {
		name, body string
		status     int
		fragment   string
	}{
		{"empty", ``, 400, "the body is empty"},
		{"not json", `{`, 400, "malformed JSON body"},
		{"unknown field", `{"type":"TRANSACTION_EXPORT_EVM","foo":1,` + subnetOptions + `}`, 400, "unknown field 'foo'"},
		{"no type", `{` + subnetOptions + `}`, 400, "type is required"},
		{"bad type", `{"type":"NOPE",` + subnetOptions + `}`, 400, "invalid type 'NOPE': must be one of 'TRANSACTION_EXPORT_EVM', "},
		{"no options", exportBody(`"firstDate":"2024-05-01"`), 400, "options is required"},
		{"options not object", exportBody(`"options":[1]`), 400, "invalid options: must be an object"},
		{"unknown option", exportBody(`"options":{"addresses":[],"cChainEvmAddresses":[]}`), 400, "unknown field 'options.cChainEvmAddresses'"},
		{"no addresses", exportBody(`"options":{"includeChains":["` + chain + `"]}`), 400, "options.addresses is required"},
		{"empty addresses", exportBody(`"options":{"addresses":[],"includeChains":["` + chain + `"]}`), 400, "has 0 entries, must have 1 to 10"},
		{"too many addresses", exportBody(`"options":{"addresses":[` + strings.Join(addrs, ",") + `],"includeChains":["` + chain + `"]}`), 400, "has 11 entries"},
		{"bad address", exportBody(`"options":{"addresses":["0x12"],"includeChains":["` + chain + `"]}`), 400, "invalid options.addresses[0] '0x12'"},
		{"addresses not strings", exportBody(`"options":{"addresses":[1],"includeChains":["` + chain + `"]}`), 400, "invalid options.addresses: must be an array of strings"},
		{"no chains", exportBody(`"options":{"addresses":["` + alice.Hex() + `"]}`), 400, "options.includeChains is required"},
		{"unknown chain", exportBody(`"options":{"addresses":["` + alice.Hex() + `"],"includeChains":["` + chain + `","999"]}`), 400,
			"options.includeChains[1]: unsupported chainId '999'"},
		{"bad date", exportBody(`"firstDate":"2024-5-1",` + subnetOptions), 400, "invalid firstDate '2024-5-1': must be a date YYYY-MM-DD"},
		{"date not string", exportBody(`"lastDate":20240501,` + subnetOptions), 400, "invalid lastDate: must be a string"},
		{"both names", exportBody(`"firstDate":"2024-05-01","startDate":"2024-05-01",` + subnetOptions), 400, "give firstDate or its deprecated name startDate, not both"},
		{"reversed", exportBody(`"firstDate":"2024-05-02","endDate":"2024-05-01",` + subnetOptions), 400, "invalid lastDate 2024-05-01: it is before firstDate 2024-05-02"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := srv.Request(t, http.MethodPost, exportPath, tt.body, keyHeader...)
			handlertest.RequireDataError(t, rec, tt.status, tt.fragment)
		})
	}
}

func TestOperationsNotServedWithoutRunner(t *testing.T) {
	srv := handlertest.NewAPI(t, handlertest.Config(), handlertest.NewFakes(), func(core *api.Core) []api.Route { return Routes(core, nil) })
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, exportPath, exportBody(subnetOptions), keyHeader...),
		http.StatusNotFound, "is not served by avadata")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/operations/x"), http.StatusNotFound, "is not served by avadata")
}
