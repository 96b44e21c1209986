package evm

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
	"github.com/avadata/avadata/tests/evmtest"
)

// exportKey is the API key the export test's node accepts.
const exportKey = "export-test-key"

// exportBacklogBlocks is how many blocks of activity the export test makes
// on the subnet-evm chain.
const exportBacklogBlocks = 400

// TestEVMExportJob exports the native transactions of three addresses on
// both local EVM chains as a background job, restarts the node while the
// job runs, and checks that the job resumes by itself and
// that the downloaded CSV holds exactly the rows the node's own blocks and
// receipts give, each once, in order. It also checks the job's 401 and 400
// answers, the unknown operation's 404, and dates outside the chain.
func TestEVMExportJob(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	config := harness.ChainConfig()
	config["apiKeys"] = []string{exportKey}
	// One transaction per address per step: the job takes hundreds of
	// steps, so the restart lands in the middle of it.
	config["exports"] = map[string]any{"stepTxs": 1}
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego, PluginDir: pluginDir, DataDir: filepath.Join(t.TempDir(), "node"),
		ChainConfig: config, ExtraFlags: harness.NodeFlags(),
	})
	require.NoError(t, err)
	defer func() { _ = net.Stop(context.Background()) }()
	cChain, subnet := net.EVMChains()[0], net.EVMChains()[1]
	base := net.ChainURL()

	sent := makeEVMBacklog(t, ctx, subnet, exportBacklogBlocks)
	recipient := common.BigToAddress(big.NewInt(100))
	cHead := sendCChainValues(t, ctx, cChain, recipient, 5)
	waitChainsIndexed(t, ctx, base, map[string]uint64{subnet.BlockchainID.String(): sent.head, cChain.BlockchainID.String(): cHead})

	addrs := []common.Address{genesis.EWOQKey.EthAddress(), recipient, sent.token}
	chains := []localnet.EVMChain{subnet, cChain}
	body := exportRequest(addrs, chains, "", "")

	t.Run("bad inputs", func(t *testing.T) {
		checkExportBadInputs(t, ctx, base, body)
	})

	created := postExport(t, ctx, base, body)
	require.Equal(t, "RUNNING", created.OperationStatus)
	require.Equal(t, "TRANSACTION_EXPORT_EVM", created.OperationType)
	opURL := base + "/v1/operations/" + created.OperationID
	// A second export (the C-chain alone) waits behind the first: one runs
	// at a time.
	queued := postExport(t, ctx, base, exportRequest(addrs, chains[1:], "", ""))

	// Restart the node while the job is part-way.
	var before exportStatus
	for {
		r := harness.Get(t, ctx, opURL)
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		r.Decode(t, &before)
		require.Equal(t, "RUNNING", before.OperationStatus, "the job finished before the restart: %s", r.Body)
		if rows, found := strings.CutPrefix(before.Message, "running: "); found && !strings.HasPrefix(rows, "1 ") {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A graceful restart (SIGTERM): a SIGKILL here also costs the node
	// its newest accepted blocks (subnet-evm came back 5 blocks behind
	// what it had accepted and avadata had indexed), which would test the
	// node, not the export.
	require.NoError(t, net.Restart(ctx))
	t.Logf("restarted the node while the export ran (%s)", before.Message)

	// Nobody asks: the restarted node resumes the job from its store.
	done := awaitExport(t, ctx, opURL)
	require.Equal(t, "COMPLETED", done.OperationStatus, "%s", done.Message)
	require.Equal(t, created.CreatedAtTimestamp, done.CreatedAtTimestamp)
	require.NotNil(t, done.Metadata)

	resumed := resumedExports(t, net.LogDir())
	require.Contains(t, resumed, created.OperationID, "the restart interrupted the export, which resumed at start")
	require.Positive(t, resumed[created.OperationID], "it resumed from its stored progress, not from the start")
	require.Contains(t, resumed, queued.OperationID, "the queued export survived the restart")
	t.Logf("resumed after %d rows", resumed[created.OperationID])

	rows := downloadExport(t, ctx, net.URI(), base, done.Metadata.DownloadURL)
	ranges := exportRanges(t, created.OperationID)
	require.Len(t, ranges, 2)
	var want [][]string
	for i, chain := range chains {
		require.Equal(t, uint64(1), ranges[i].from)
		client, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
		require.NoError(t, err)
		waitNodeHeight(t, ctx, client, ranges[i].to) // the restarted node may not serve them yet
		onNode := truth.NewEVMChain(client.RPC())
		require.NoError(t, onNode.ScanTo(ctx, ranges[i].to))
		want = append(want, truth.ExportRows(chain.EVMChainID, onNode.All(), addrs)...)
		client.Close()
	}
	require.Equal(t, strings.Split("blockNumber,blockTimestamp,blockHash,chainId,blockIndex,txHash,txStatus,txType,gasLimit,"+
		"gasUsed,gasPrice,nonce,from,to,methodCallType,methodHash,methodName,value", ","), rows[0])
	require.Greater(t, len(want), exportBacklogBlocks/2, "the export holds the backlog")
	require.Equal(t, want, rows[1:], "every row of the node's transactions of the addresses, once, in order")
	require.Contains(t, done.Message, fmt.Sprintf("exported %d transactions of 3 addresses", len(want)))

	// The queued export holds the C-chain's rows of the first.
	queuedDone := awaitExport(t, ctx, base+"/v1/operations/"+queued.OperationID)
	require.Equal(t, "COMPLETED", queuedDone.OperationStatus, "%s", queuedDone.Message)
	var cRows [][]string
	for _, row := range rows[1:] {
		if row[3] == strconv.FormatUint(cChain.EVMChainID, 10) {
			cRows = append(cRows, row)
		}
	}
	require.NotEmpty(t, cRows)
	require.Equal(t, cRows, downloadExport(t, ctx, net.URI(), base, queuedDone.Metadata.DownloadURL)[1:])

	t.Run("dates outside the chain", func(t *testing.T) {
		tomorrow := time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
		yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
		for _, dates := range [][2]string{{tomorrow, ""}, {"", yesterday}} {
			op := postExport(t, ctx, base, exportRequest(addrs, chains, dates[0], dates[1]))
			st := awaitExport(t, ctx, base+"/v1/operations/"+op.OperationID)
			require.Equal(t, "COMPLETED", st.OperationStatus)
			rows := downloadExport(t, ctx, net.URI(), base, st.Metadata.DownloadURL)
			require.Len(t, rows, 1, "the header alone")
		}
	})
}

// exportStatus is the OperationStatusResponse.
type exportStatus struct {
	OperationID        string `json:"operationId"`
	OperationType      string `json:"operationType"`
	OperationStatus    string `json:"operationStatus"`
	Message            string `json:"message"`
	CreatedAtTimestamp int64  `json:"createdAtTimestamp"`
	UpdatedAtTimestamp int64  `json:"updatedAtTimestamp"`
	Metadata           *struct {
		Code        string `json:"code"`
		DownloadURL string `json:"downloadUrl"`
		NextDate    string `json:"nextDate"`
	} `json:"metadata"`
}

func exportRequest(addrs []common.Address, chains []localnet.EVMChain, firstDate, lastDate string) map[string]any {
	var a, c []string
	for _, addr := range addrs {
		a = append(a, addr.Hex())
	}
	for _, chain := range chains {
		c = append(c, strconv.FormatUint(chain.EVMChainID, 10))
	}
	body := map[string]any{"type": "TRANSACTION_EXPORT_EVM", "options": map[string]any{"addresses": a, "includeChains": c}}
	if firstDate != "" {
		body["firstDate"] = firstDate
	}
	if lastDate != "" {
		body["lastDate"] = lastDate
	}
	return body
}

func postExport(t *testing.T, ctx context.Context, base string, body map[string]any) exportStatus {
	t.Helper()
	r := harness.Do(t, ctx, http.MethodPost, base+"/v1/operations/transactions:export", []byte(harness.MustJSON(body)),
		map[string]string{"Content-Type": "application/json", "x-glacier-api-key": exportKey})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var st exportStatus
	r.Decode(t, &st)
	return st
}

// awaitExport polls an operation until it is done; while the node
// restarts, requests fail or answer 503.
func awaitExport(t *testing.T, ctx context.Context, opURL string) exportStatus {
	t.Helper()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, opURL, nil)
		require.NoError(t, err)
		if resp, err := harness.HTTPClient.Do(req); err == nil {
			var st exportStatus
			decodeErr := json.NewDecoder(resp.Body).Decode(&st)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK && decodeErr == nil && st.OperationStatus != "RUNNING" {
				return st
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the export %s never finished", opURL)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// downloadExport fetches an export's CSV: downloadURL is the path from the
// node's root (the node does not pass the Host on to the plugin).
func downloadExport(t *testing.T, ctx context.Context, nodeURI, base, downloadURL string) [][]string {
	t.Helper()
	root, err := url.Parse(nodeURI + "/")
	require.NoError(t, err)
	ref, err := url.Parse(downloadURL)
	require.NoError(t, err)
	full := root.ResolveReference(ref).String()
	require.True(t, strings.HasPrefix(full, base+"/v1/operations/"), "%s", full)
	r := harness.Get(t, ctx, full)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, "text/csv; charset=utf-8", r.Header.Get("Content-Type"))
	rows, err := csv.NewReader(bytes.NewReader(r.Body)).ReadAll()
	require.NoError(t, err)
	return rows
}

// blockSpan is one chain's pinned range in an operationId.
type blockSpan struct{ from, to uint64 }

// exportRanges reads the block ranges an operationId pins: it is a page
// token (api.PageToken) whose heights are the last blocks and whose extra
// ends with the first blocks.
func exportRanges(t *testing.T, operationID string) []blockSpan {
	t.Helper()
	raw, err := base64.RawURLEncoding.DecodeString(operationID)
	require.NoError(t, err)
	token, err := api.ParsePageTokenPayload(raw[:len(raw)-api.PageTokenMACLen])
	require.NoError(t, err)
	firsts := token.Extra[len(token.Extra)-8*len(token.Heights):]
	out := make([]blockSpan, len(token.Heights))
	for i, h := range token.Heights {
		out[i] = blockSpan{from: binary.BigEndian.Uint64(firsts[8*i:]), to: h.Height}
	}
	return out
}

// sendCChainValues sends n value transfers from EWOQ to to on the C-chain
// and returns the block of the last.
func sendCChainValues(t *testing.T, ctx context.Context, chain localnet.EVMChain, to common.Address, n int) uint64 {
	t.Helper()
	c, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer c.Close()
	var last *evmtest.Receipt
	for i := range n {
		h, err := c.SendValue(ctx, to, big.NewInt(int64(1000+i)))
		require.NoError(t, err)
		last, err = c.WaitReceipt(ctx, h)
		require.NoError(t, err)
	}
	return last.BlockNumber
}

// resumedExports reads the node's logs for the exports it resumed at a
// start, and the rows each had written then.
func resumedExports(t *testing.T, dir string) map[string]uint64 {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string]uint64{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		for line := range strings.SplitSeq(string(b), "\n") {
			_, fields, found := strings.Cut(line, "resuming export job ")
			if !found {
				continue
			}
			var job struct {
				OperationID string `json:"operationId"`
				Rows        uint64 `json:"rows"`
			}
			require.NoError(t, json.Unmarshal([]byte(fields), &job), "%s", line)
			out[job.OperationID] = job.Rows
		}
	}
	return out
}

// waitNodeHeight waits until the node's chain answers for height.
func waitNodeHeight(t *testing.T, ctx context.Context, c *evmtest.Client, height uint64) {
	t.Helper()
	for {
		if head, err := c.BlockNumber(ctx); err == nil && head >= height {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the node never reached block %d", height)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitChainsIndexed waits until avadata has indexed each chain, by
// blockchain ID, up to its height.
func waitChainsIndexed(t *testing.T, ctx context.Context, base string, heights map[string]uint64) {
	t.Helper()
	for {
		r := harness.Get(t, ctx, base+"/v1/status")
		var body struct {
			Chains []struct {
				BlockchainID  string `json:"blockchainId"`
				IndexedHeight uint64 `json:"indexedHeight"`
			} `json:"chains"`
		}
		if r.Status == http.StatusOK && json.Unmarshal(r.Body, &body) == nil {
			reached := 0
			for _, c := range body.Chains {
				if want, ok := heights[c.BlockchainID]; ok && c.IndexedHeight >= want {
					reached++
				}
			}
			if reached == len(heights) {
				return
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("avadata did not index %v: %s", heights, r.Body)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// checkExportBadInputs checks the answers to a request without a key, to
// bad bodies and to an unknown operation.
func checkExportBadInputs(t *testing.T, ctx context.Context, base string, good map[string]any) {
	post := func(body any, header map[string]string) harness.Reply {
		raw, ok := body.(string)
		if !ok {
			raw = harness.MustJSON(body)
		}
		return harness.Do(t, ctx, http.MethodPost, base+"/v1/operations/transactions:export", []byte(raw), header)
	}
	keyed := map[string]string{"x-data-api-key": exportKey}
	with := func(change func(body map[string]any)) map[string]any {
		var body map[string]any
		require.NoError(t, json.Unmarshal([]byte(harness.MustJSON(good)), &body))
		change(body)
		return body
	}
	for _, tt := range []struct {
		name     string
		body     any
		header   map[string]string
		status   int
		fragment string
	}{
		{"no key", good, nil, 401, "postTransactionExportJob needs an API key"},
		{"unknown key", good, map[string]string{"x-data-api-key": "nope"}, 401, ""},
		// A primary-network export takes X/P addresses there (0x ones go in
		// cChainEvmAddresses; the primary tests export both).
		{"0x addresses in a primary-network export", with(func(b map[string]any) { b["type"] = "TRANSACTION_EXPORT_PRIMARY_NETWORK" }),
			keyed, 400, "is not a bech32 address"},
		{"bad type", with(func(b map[string]any) { b["type"] = "EXPORT" }), keyed, 400, "invalid type 'EXPORT'"},
		{"bad address", with(func(b map[string]any) {
			b["options"].(map[string]any)["addresses"] = []string{"0x1234"}
		}), keyed, 400, "invalid options.addresses[0] '0x1234'"},
		{"unknown chain", with(func(b map[string]any) {
			b["options"].(map[string]any)["includeChains"] = []string{"999999"}
		}), keyed, 400, "options.includeChains[0]: unsupported chainId '999999'"},
		{"bad date", with(func(b map[string]any) { b["firstDate"] = "yesterday" }), keyed, 400, "invalid firstDate 'yesterday'"},
		{"reversed dates", with(func(b map[string]any) { b["firstDate"], b["lastDate"] = "2024-05-02", "2024-05-01" }), keyed, 400,
			"it is before firstDate"},
		{"no options", with(func(b map[string]any) { delete(b, "options") }), keyed, 400, "options is required"},
		{"not JSON", "{", keyed, 400, "malformed JSON body"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			harness.RequireErrorBody(t, post(tt.body, tt.header), tt.status, tt.fragment)
		})
	}
	harness.RequireErrorBody(t, harness.Get(t, ctx, base+"/v1/operations/aa22054a-cb7c-4a4e-9b83-59f2ede74138"),
		http.StatusNotFound, "not an operationId this API issued")
}
