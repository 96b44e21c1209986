package operator

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestOperatorExportOnAnyReplica creates a transaction export on one
// replica and asks the other, which has never seen it, for it: the
// operationId is signed with the shared pageTokenSecret and holds the
// export, so the second replica runs the same export from its own index.
// Both files are byte for byte the same, and hold the EWOQ address's
// C-chain transactions as the node's blocks and receipts give them.
func TestOperatorExportOnAnyReplica(t *testing.T) {
	tn := env.TwoNodes(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	uris := tn.Net.URIs()
	chainPath := "/ext/bc/" + tn.Net.ChainID().String()
	bases := []string{uris[0] + chainPath, uris[1] + chainPath}

	x := harness.NewTxIssuer(t, ctx, uris[0])
	x.IssueC(t, ctx, 3)
	head := truth.Height(t, ctx, uris[0], "C")
	for _, base := range bases {
		harness.WaitIndexed(t, ctx, base, map[string]uint64{"C": head})
	}
	var evmChainID hexutil.Uint64
	require.NoError(t, truth.EthClient(t, ctx, uris[0]).CallContext(ctx, &evmChainID, "eth_chainId"))
	ewoq := genesis.EWOQKey.EthAddress()
	body, err := json.Marshal(map[string]any{"type": "TRANSACTION_EXPORT_EVM", "options": map[string]any{
		"addresses": []string{ewoq.Hex()}, "includeChains": []string{strconv.FormatUint(uint64(evmChainID), 10)}}})
	require.NoError(t, err)

	r := harness.Do(t, ctx, http.MethodPost, bases[0]+"/v1/operations/transactions:export", body,
		map[string]string{"x-data-api-key": harness.TwoNodesAPIKey})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var created struct {
		OperationID string `json:"operationId"`
	}
	r.Decode(t, &created)

	// Node 2 first: it has never seen the operation.
	var files [2][]byte
	for _, i := range []int{1, 0} {
		downloadURL := awaitCompleted(t, ctx, bases[i]+"/v1/operations/"+created.OperationID)
		d := harness.Get(t, ctx, uris[i]+downloadURL)
		require.Equal(t, http.StatusOK, d.Status, "%s", d.Body)
		files[i] = d.Body
	}
	require.Equal(t, string(files[0]), string(files[1]), "both replicas wrote the same file")

	rows, err := csv.NewReader(bytes.NewReader(files[0])).ReadAll()
	require.NoError(t, err)
	last, err := strconv.ParseUint(rows[len(rows)-1][0], 10, 64)
	require.NoError(t, err)
	require.GreaterOrEqual(t, last, head-1, "the export reaches the issued transactions")
	onNode := truth.NewEVMChain(truth.EthClient(t, ctx, uris[0]))
	pinned := max(last, head)
	require.NoError(t, onNode.ScanTo(ctx, pinned))
	require.Equal(t, truth.ExportRows(uint64(evmChainID), onNode.All(), []common.Address{ewoq}), rows[1:])
	t.Logf("%d rows, the same on both replicas", len(rows)-1)
}

// awaitCompleted polls an operation until it completes and returns its
// downloadUrl (a path from the node's root).
func awaitCompleted(t *testing.T, ctx context.Context, opURL string) string {
	t.Helper()
	for {
		r := harness.Get(t, ctx, opURL)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		var st struct {
			OperationStatus string `json:"operationStatus"`
			Message         string `json:"message"`
			Metadata        struct {
				DownloadURL string `json:"downloadUrl"`
			} `json:"metadata"`
		}
		r.Decode(t, &st)
		switch st.OperationStatus {
		case "COMPLETED":
			return st.Metadata.DownloadURL
		case "RUNNING":
		default:
			t.Fatalf("%s: %s", opURL, r.Body)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never completed: %s", opURL, r.Body)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
