package operations

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/evm"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/handlers/operations/exportjob"
	"github.com/avadata/avadata/handlers/primary"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/indexer/txsig"
)

var (
	pAlice = ids.ShortID{0xA1}
	pBob   = ids.ShortID{0xB0}
)

// newPrimaryExportAPI serves the operations over a real store holding P
// blocks 1-3: alice pays bob (block 1), bob pays himself (2), alice
// stakes (3); and a running runner with primary-network exports.
func newPrimaryExportAPI(t *testing.T) *handlertest.API {
	t.Helper()
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	info := fakenet.Info()
	st.SetPrimaryNetwork(store.PrimaryNetwork{IDOf: info.ChainID,
		ChainOf: func(id ids.ID) (netinfo.Chain, bool) { return 0, false }})
	txs := map[ids.ID]*pdata.Tx{}
	utxo := func(tx ids.ID, i uint32, amount uint64, owner ids.ShortID) pdata.UTXO {
		return pdata.UTXO{ID: tx.Prefix(uint64(i)), TxID: tx, OutputIndex: i, Asset: fakenet.AVAXAssetID, Amount: amount,
			Owners: pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{owner}}, Bytes: []byte{byte(i)}}
	}
	spend := func(u pdata.UTXO) []pdata.Input {
		return []pdata.Input{{UTXOID: u.ID, TxID: u.TxID, OutputIndex: u.OutputIndex, Asset: u.Asset, Amount: u.Amount,
			Signers: txsig.Known(u.Owners.Addrs...)}}
	}
	t1, t2, t3 := ids.ID{'t', 1}, ids.ID{'t', 2}, ids.ID{'t', 3}
	seed := utxo(ids.ID{'s'}, 0, 1000, pAlice)
	toBob := utxo(t1, 0, 900, pBob)
	txs[t1] = &pdata.Tx{ID: t1, Type: "BaseTx", Bytes: t1[:], Consumed: spend(seed), Produced: []pdata.UTXO{toBob}, Memo: []byte("hi")}
	txs[t2] = &pdata.Tx{ID: t2, Type: "BaseTx", Bytes: t2[:], Consumed: spend(toBob), Produced: []pdata.UTXO{utxo(t2, 0, 899, pBob)}}
	txs[t3] = &pdata.Tx{ID: t3, Type: "AddPermissionlessDelegatorTx", Bytes: t3[:], Produced: []pdata.UTXO{utxo(t3, 0, 5, pAlice)}}
	var blocks []*pdata.Block
	for i, id := range []ids.ID{t1, t2, t3} {
		h := uint64(i + 1)
		blocks = append(blocks, &pdata.Block{Number: h, ID: ids.ID{'b', byte(h)}, Timestamp: 1_714_521_600 + int64(h),
			Type: "BanffStandardBlock", Txs: []*pdata.Tx{txs[id]}})
	}
	require.NoError(t, st.PrimaryWriter(netinfo.P).Apply(context.Background(), blocks, time.Now()))
	decode := func(_ netinfo.Chain, b []byte) (*pdata.Tx, error) {
		tx, ok := txs[ids.ID(b)]
		if !ok {
			return nil, fmt.Errorf("unknown tx %x", b)
		}
		cp := *tx
		return &cp, nil
	}
	fakes := handlertest.NewFakes()
	runner := exportjob.New(st, fakes, evm.NewExportRows(), evm.ExportColumns(), exportjob.Config{}, nil, nil).
		WithPrimary(st.PrimaryReader(decode), primary.NewExportRows(fakes), primary.ExportColumns())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		runner.Run(ctx)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return handlertest.NewAPI(t, handlertest.Config(), fakes, func(core *api.Core) []api.Route { return Routes(core, runner) })
}

// runPrimaryExport posts body and returns the finished status and the CSV
// lines.
func runPrimaryExport(t *testing.T, srv *handlertest.API, body string) (operationStatusResponse, []string) {
	t.Helper()
	var status operationStatusResponse
	handlertest.RequireJSON(t, srv.Request(t, http.MethodPost, "/ext/bc/data"+exportPath, body, keyHeader...), http.StatusCreated, &status)
	require.Eventually(t, func() bool {
		handlertest.RequireJSON(t, srv.Get(t, "/ext/bc/data/v1/operations/"+status.OperationID), http.StatusOK, &status)
		return status.OperationStatus != statusRunning
	}, 10*time.Second, 10*time.Millisecond)
	require.Equal(t, statusCompleted, status.OperationStatus, status.Message)
	rec := srv.Get(t, status.Metadata.DownloadURL)
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	return status, strings.Split(strings.TrimSuffix(strings.ReplaceAll(rec.Body.String(), "\r", ""), "\n"), "\n")
}

func TestPrimaryExport(t *testing.T) {
	srv := newPrimaryExportAPI(t)
	p := fakenet.Info().ChainID(netinfo.P).String()
	status, lines := runPrimaryExport(t, srv, `{"type":"TRANSACTION_EXPORT_PRIMARY_NETWORK","options":{"addresses":["P-`+
		handlertest.Bech32Of(t, pAlice)+`"],"includeChains":["p-chain"]}}`)
	require.Equal(t, "TRANSACTION_EXPORT_PRIMARY_NETWORK", status.OperationType)
	require.Equal(t, []string{
		"txHash,blockchainId,blockNumber,blockHash,blockTimestamp,txType,sourceChain,destinationChain,avaxConsumed,avaxProduced,memo",
		ids.ID{'t', 1}.String() + "," + p + ",1," + ids.ID{'b', 1}.String() + ",1714521601,BaseTx,,,1000,900,0x6869",
		ids.ID{'t', 3}.String() + "," + p + ",3," + ids.ID{'b', 3}.String() + ",1714521603,AddPermissionlessDelegatorTx,,,0,5,",
	}, lines, "alice's txs, not bob's own")

	_, lines = runPrimaryExport(t, srv, `{"type":"TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING","options":{"addresses":["`+
		handlertest.Bech32Of(t, pAlice)+`"],"includeChains":["`+p+`"]}}`)
	require.Len(t, lines, 2, "the staking tx alone")
	require.True(t, strings.HasPrefix(lines[1], ids.ID{'t', 3}.String()), lines[1])

	_, lines = runPrimaryExport(t, srv, `{"type":"TRANSACTION_EXPORT_PRIMARY_NETWORK","firstDate":"2024-05-02","options":{"addresses":["`+
		handlertest.Bech32Of(t, pBob)+`"],"includeChains":["p-chain"]}}`)
	require.Len(t, lines, 1, "bob's txs are all of 2024-05-01: the header alone")
}

func TestPrimaryExportBadInput(t *testing.T) {
	srv := newPrimaryExportAPI(t)
	alice := `"` + handlertest.Bech32Of(t, pAlice) + `"`
	body := func(opts string) string {
		return `{"type":"TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE","options":` + opts + `}`
	}
	addrs := make([]string, 11)
	for i := range addrs {
		addrs[i] = `"` + handlertest.Bech32Of(t, ids.ShortID{byte(i)}) + `"`
	}
	for _, tt := range []struct{ name, body, fragment string }{
		{"no options", `{"type":"TRANSACTION_EXPORT_PRIMARY_NETWORK"}`, "options is required"},
		{"unknown option", body(`{"addresses":[` + alice + `],"includeChains":["p-chain"],"x":1}`), "unknown field 'options.x'"},
		{"no addresses", body(`{"includeChains":["p-chain"]}`), "together must hold 1 to 10 addresses; they hold 0"},
		{"too many", body(`{"addresses":[` + strings.Join(addrs, ",") + `],"includeChains":["p-chain"]}`), "has 11 entries"},
		{"bad address", body(`{"addresses":["fuji1xyz"],"includeChains":["p-chain"]}`), "invalid options.addresses[0] 'fuji1xyz'"},
		{"bad evm address", body(`{"cChainEvmAddresses":["0x12"],"includeChains":["c-chain"]}`), "options.cChainEvmAddresses[0]"},
		{"no chains", body(`{"addresses":[` + alice + `]}`), "options.includeChains is required"},
		{"evm chain", body(`{"addresses":[` + alice + `],"includeChains":["dispatch"]}`), "options.includeChains[0]: invalid blockchainId 'dispatch'"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, exportPath, tt.body, keyHeader...), http.StatusBadRequest, tt.fragment)
		})
	}
}
