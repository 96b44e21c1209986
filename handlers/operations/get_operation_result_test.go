package operations

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

// createExport posts an export of alice on the subnet chain and returns
// its operationId.
func createExport(t *testing.T, srv *handlertest.API) string {
	t.Helper()
	var created operationStatusResponse
	handlertest.RequireJSON(t, srv.Request(t, http.MethodPost, "/ext/bc/data"+exportPath, exportBody(subnetOptions), keyHeader...),
		http.StatusCreated, &created)
	return created.OperationID
}

func TestGetOperationResultUntilDownload(t *testing.T) {
	srv, _ := newTestAPI(t, true)
	id := createExport(t, srv)
	var status operationStatusResponse
	require.Eventually(t, func() bool {
		handlertest.RequireJSON(t, srv.Get(t, "/ext/bc/data/v1/operations/"+id), http.StatusOK, &status)
		return status.OperationStatus != statusRunning
	}, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, statusCompleted, status.OperationStatus)
	require.Equal(t, id, status.OperationID)
	require.Contains(t, status.Message, "exported 4 transactions of 1 addresses")
	require.NotNil(t, status.Metadata)
	require.Equal(t, "/ext/bc/data/v1/operations/"+id+"/download", status.Metadata.DownloadURL,
		"the path from the node's root: the request names no host")

	rec := srv.Get(t, status.Metadata.DownloadURL)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	require.Equal(t, "text/csv; charset=utf-8", rec.Header().Get("Content-Type"))
	require.Contains(t, rec.Header().Get("Content-Disposition"), "attachment")
	lines := strings.Split(strings.TrimSuffix(rec.Body.String(), "\n"), "\n")
	require.Len(t, lines, 5, "the header and alice's four transactions")
	require.Equal(t, "blockNumber,blockTimestamp,blockHash,chainId,blockIndex,txHash,txStatus,txType,gasLimit,gasUsed,gasPrice,nonce,"+
		"from,to,methodCallType,methodHash,methodName,value", strings.TrimSuffix(lines[0], "\r"))
	require.True(t, strings.HasPrefix(lines[1], "1,1714521601,0x"), lines[1])
	require.Contains(t, lines[1], ",NATIVE_TRANSFER,,Native Transfer,1")

	// Behind a proxy that names the host, the URL is absolute.
	rec = srv.Get(t, "/ext/bc/data/v1/operations/"+id, "X-Forwarded-Host", "api.example", "X-Forwarded-Proto", "https")
	handlertest.RequireJSON(t, rec, http.StatusOK, &status)
	require.Equal(t, "https://api.example/ext/bc/data/v1/operations/"+id+"/download", status.Metadata.DownloadURL)
}

func TestDownloadBeforeTheExportIsDone(t *testing.T) {
	srv, _ := newTestAPI(t, false) // the runner never runs it
	id := createExport(t, srv)
	rec := srv.Get(t, "/v1/operations/"+id+"/download")
	handlertest.RequireDataError(t, rec, http.StatusServiceUnavailable, "the export is still running on this replica", "another replica")
	require.Equal(t, "2", rec.Header().Get("Retry-After"))
	var status operationStatusResponse
	handlertest.RequireJSON(t, srv.Get(t, "/v1/operations/"+id), http.StatusOK, &status)
	require.Equal(t, statusRunning, status.OperationStatus)
	require.Nil(t, status.Metadata)
}

func TestGetOperationResultUnknown(t *testing.T) {
	srv, _ := newTestAPI(t, false)
	for _, id := range []string{"aa22054a-cb7c-4a4e-9b83-59f2ede74138", "transactions:export"} {
		handlertest.RequireDataError(t, srv.Get(t, "/v1/operations/"+id), http.StatusNotFound,
			"operation '"+id+"' not found: it is not an operationId this API issued")
		handlertest.RequireDataError(t, srv.Get(t, "/v1/operations/"+id+"/download"), http.StatusNotFound, "not found")
	}
}
