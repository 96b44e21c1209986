//go:build e2e

package primary

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestPrimaryTransactionExport: postTransactionExportJob of A's P-, X- and
// C-chain txs (A's X/P address and its 0x address) completes, and its CSV
// holds exactly the scenario's txs involving A, chain after chain in the
// request's order, each in block order, each row matching the node: the
// block height and time the node accepted it at, the chain, the
// counterparty chain of an import/export, and the AVAX its inputs and
// outputs hold (avm/platform.getTx, avax.getAtomicTx). The STAKING kind
// holds none of them (the scenario stakes nothing), and bad input gets a
// 400 naming it.
func TestPrimaryTransactionExport(t *testing.T) {
	s, ctx := primaryFixture(t)
	base := env.Base(t)
	body := map[string]any{"type": "TRANSACTION_EXPORT_PRIMARY_NETWORK", "options": map[string]any{
		"addresses":          []string{s.chainAddr(t, "P")},
		"cChainEvmAddresses": []string{s.evm.Hex()},
		"includeChains":      []string{"p-chain", s.xChain.String(), "c-chain"},
	}}
	rows := runPrimaryExportE2E(t, ctx, base, body)
	require.Equal(t, []string{"txHash", "blockchainId", "blockNumber", "blockHash", "blockTimestamp", "txType",
		"sourceChain", "destinationChain", "avaxConsumed", "avaxProduced", "memo"}, rows[0], "header")
	rows = rows[1:]
	var at int
	for _, chain := range []string{"P", "X", "C"} {
		want := s.txsOn(chain, true)
		require.NotEmpty(t, want, "%s: the scenario has txs of A", chain)
		require.GreaterOrEqual(t, len(rows)-at, len(want), "%s: rows", chain)
		got := rows[at : at+len(want)]
		at += len(want)
		byHash := map[string][]string{}
		var lastHeight uint64
		for _, row := range got {
			require.Len(t, row, 11, "row %v", row)
			byHash[row[0]] = row
			h, err := strconv.ParseUint(row[2], 10, 64)
			require.NoError(t, err)
			require.GreaterOrEqual(t, h, lastHeight, "%s rows in block order", chain)
			lastHeight = h
		}
		require.ElementsMatch(t, scenarioHashes(want), keysOf(byHash), "%s: the export's txs are the scenario's txs of A", chain)
		for _, sc := range want {
			checkExportRow(t, ctx, s, sc, byHash[sc.id.String()])
		}
	}
	require.Len(t, rows, at, "no rows beyond A's txs")

	body["type"] = "TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING"
	require.Len(t, runPrimaryExportE2E(t, ctx, base, body), 1, "staking: the header alone")

	// A day after every tx: nothing; the day of the scenario: all of it.
	body["type"] = "TRANSACTION_EXPORT_PRIMARY_NETWORK"
	body["firstDate"] = time.Now().UTC().Add(48 * time.Hour).Format(time.DateOnly)
	require.Len(t, runPrimaryExportE2E(t, ctx, base, body), 1, "after the scenario: the header alone")
	body["firstDate"] = s.start.UTC().Format(time.DateOnly)
	require.Len(t, runPrimaryExportE2E(t, ctx, base, body), 1+at, "from the scenario's day on")

	for _, tt := range []struct {
		name     string
		options  map[string]any
		fragment string
	}{
		{"no address", map[string]any{"includeChains": []string{"p-chain"}}, "together must hold 1 to 10 addresses"},
		{"fuji address", map[string]any{"addresses": []string{"P-fuji1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqd8n5g9"}, "includeChains": []string{"p-chain"}},
			"invalid options.addresses[0]"},
		{"EVM chain", map[string]any{"addresses": []string{s.chainAddr(t, "P")}, "includeChains": []string{"43112"}}, "options.includeChains[0]"},
	} {
		r := harness.Do(t, ctx, http.MethodPost, base+"/v1/operations/transactions:export",
			[]byte(harness.MustJSON(map[string]any{"type": "TRANSACTION_EXPORT_PRIMARY_NETWORK", "options": tt.options})),
			map[string]string{"Content-Type": "application/json", "x-data-api-key": harness.APIKey})
		harness.RequireErrorBody(t, r, http.StatusBadRequest, tt.fragment)
	}
}

// runPrimaryExportE2E posts an export, waits for it and returns its CSV.
func runPrimaryExportE2E(t *testing.T, ctx context.Context, base string, body map[string]any) [][]string {
	t.Helper()
	r := harness.Do(t, ctx, http.MethodPost, base+"/v1/operations/transactions:export", []byte(harness.MustJSON(body)),
		map[string]string{"Content-Type": "application/json", "x-data-api-key": harness.APIKey})
	require.Equal(t, http.StatusCreated, r.Status, "%s", r.Body)
	var st struct {
		OperationID     string `json:"operationId"`
		OperationType   string `json:"operationType"`
		OperationStatus string `json:"operationStatus"`
		Message         string `json:"message"`
		Metadata        struct {
			DownloadURL string `json:"downloadUrl"`
		} `json:"metadata"`
	}
	r.Decode(t, &st)
	require.Equal(t, body["type"], st.OperationType)
	for st.OperationStatus == "RUNNING" {
		time.Sleep(100 * time.Millisecond)
		harness.GetOK(t, ctx, base+"/v1/operations/"+url.PathEscape(st.OperationID), &st)
	}
	require.Equal(t, "COMPLETED", st.OperationStatus, st.Message)
	root, err := url.Parse(env.URI(t) + "/")
	require.NoError(t, err)
	ref, err := url.Parse(st.Metadata.DownloadURL)
	require.NoError(t, err)
	dl := harness.Get(t, ctx, root.ResolveReference(ref).String())
	require.Equal(t, http.StatusOK, dl.Status, "%s", dl.Body)
	rows, err := csv.NewReader(bytes.NewReader(dl.Body)).ReadAll()
	require.NoError(t, err)
	return rows
}

// checkExportRow compares one row with the node.
func checkExportRow(t *testing.T, ctx context.Context, s *primaryScenario, sc *scenarioTx, row []string) {
	t.Helper()
	require.Equal(t, s.chainID(sc.chain).String(), row[1], "%s: blockchainId", sc)
	require.Equal(t, strconv.FormatUint(sc.height, 10), row[2], "%s: block height (node)", sc)
	require.Equal(t, strconv.FormatInt(sc.blockTime, 10), row[4], "%s: block time (node)", sc)
	require.Equal(t, sc.txType, row[5], "%s: txType", sc)
	if sc.chain == "C" {
		require.True(t, strings.EqualFold(sc.blockID, row[3]), "%s: blockHash %s, node %s", sc, row[3], sc.blockID)
	}
	if sc.txType == "ImportTx" || sc.txType == "ExportTx" {
		require.Equal(t, sc.sourceChain.String(), row[6], "%s: sourceChain", sc)
		require.Equal(t, sc.destinationChain.String(), row[7], "%s: destinationChain", sc)
	} else {
		require.Empty(t, row[6]+row[7], "%s: no source or destination chain", sc)
	}
	var in, out uint64
	if sc.chain == "C" {
		in, out = truth.AtomicAmounts(truth.AtomicTx(t, ctx, env.URI(t), sc.id), s.avax)
	} else {
		tx := truth.GetTx(t, ctx, env.URI(t), sc.chain, sc.id)
		if bytes.Contains(tx.Raw, []byte(`"stake"`)) {
			return // stake outputs: not in truth.Tx's outputs
		}
		for _, i := range tx.Ins {
			if i.Asset == s.avax {
				in += i.Amount
			}
		}
		for _, o := range tx.Outs {
			if o.Asset == s.avax {
				out += o.Amount
			}
		}
	}
	require.Equal(t, strconv.FormatUint(in, 10), row[8], "%s: avaxConsumed (node)", sc)
	require.Equal(t, strconv.FormatUint(out, 10), row[9], "%s: avaxProduced (node)", sc)

}
