package explorer

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/graft/coreth/precompile/contracts/warp"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/crypto"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// fakeLogs is a LogReader with canned logs for one tx.
type fakeLogs struct {
	logs  []evmdata.Log
	found bool
	err   error
	// asked records the chain and hash of the last read.
	asked struct {
		chain netinfo.Chain
		hash  common.Hash
	}
}

func (f *fakeLogs) TransactionLogs(_ context.Context, chain netinfo.Chain, hash common.Hash) ([]evmdata.Log, bool, error) {
	f.asked.chain, f.asked.hash = chain, hash
	return f.logs, f.found, f.err
}

// txLogsPage serves the test tx's page (at path below it) with reader.
func txLogsPage(t *testing.T, reader LogReader, query string, status int) string {
	t.Helper()
	api := evmAPI(t, fakeAPI{testChain + "/transactions/" + testTxHash: jsonOf(t, evmTxReply)})
	rec := getPage(t, newTestExplorerWith(t, Config{}, api, Readers{Logs: reader}), "/evm/43112/tx/"+testTxHash+query)
	require.Equal(t, status, rec.Code, rec.Body.String())
	return rec.Body.String()
}

func topic(sig string) common.Hash { return crypto.Keccak256Hash([]byte(sig)) }

func TestEVMTxPageShowsTheLogs(t *testing.T) {
	long := make([]byte, logDataShown+10)
	long[0], long[logDataShown-1], long[logDataShown] = 0xab, 0xcd, 0xef
	token, from := common.HexToAddress(testToken), common.HexToAddress(testAddr)
	reader := &fakeLogs{found: true, logs: []evmdata.Log{
		{Address: token, LogIndex: 4, Data: common.LeftPadBytes([]byte{0x12, 0x34}, 32),
			Topics: []common.Hash{topic("Transfer(address,address,uint256)"), common.BytesToHash(from[:]), {}}},
		{Address: warp.ContractAddress, LogIndex: 5, Data: long,
			Topics: []common.Hash{warp.WarpABI.Events["SendWarpMessage"].ID, {1}, {2}}},
		{Address: token, LogIndex: 6, Topics: []common.Hash{topic("Frobbed(uint256)")}},
		{Address: token, LogIndex: 7}, // anonymous, no data
	}}
	body := txLogsPage(t, reader, "", http.StatusOK)
	require.Equal(t, netinfo.C, reader.asked.chain)
	require.Equal(t, common.HexToHash(testTxHash), reader.asked.hash)
	require.Equal(t, 4, strings.Count(body, `<table class="kv evm-log"`))
	require.Contains(t, body, `<td data-field="logIndex">4</td>`)
	require.Contains(t, body, `data-address="`+testToken+`" href="/ext/bc/data/explorer/evm/43112/address/`+testToken+`"`)
	require.Contains(t, body, `data-address="0x0200000000000000000000000000000000000005" href="/ext/bc/data/explorer/evm/43112/address/0x0200000000000000000000000000000000000005"`)
	require.Contains(t, body, `data-field="event">Transfer(address,address,uint256)</span>`)
	require.Contains(t, body, `data-field="event">SendWarpMessage(address,bytes32,bytes)</span>`)
	require.Contains(t, body, "not a well-known event")
	require.Contains(t, body, "none (an anonymous event)")
	require.Contains(t, body, `<li class="mono" data-field="topic">`+topic("Transfer(address,address,uint256)").Hex()+`</li>`)
	require.Contains(t, body, `<li class="mono" data-field="topic">0x0000000000000000000000008db97c7cece249c2b98bdc0226cc4c2a57bf52fc</li>`)
	require.Contains(t, body, `data-field="data">0x`+strings.Repeat("0", 60)+`1234</pre>`)
	// The long data: its first logDataShown bytes whole, and how many more.
	require.Contains(t, body, `data-field="data">0xab`+strings.Repeat("00", logDataShown-2)+`cd</pre>`)
	require.NotContains(t, body, "cdef")
	require.Contains(t, body, `<p class="muted" data-field="hidden">… and 10 more bytes, not shown.</p>`)
	require.Contains(t, body, `data-field="data">0x</pre>`)
	require.NotContains(t, body, "The API gives no raw logs")
	requireEscaped(t, body)
}

func TestEVMTxPageNamesTheWellKnownEvents(t *testing.T) {
	table := newEventTable()
	// The warp precompile's own ABI says what its event's topic is.
	require.Equal(t, "SendWarpMessage(address,bytes32,bytes)", table[warp.WarpABI.Events["SendWarpMessage"].ID])
	require.Equal(t, "Transfer(address,address,uint256)",
		table[common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")])
	require.Len(t, table, len(wellKnownEvents()))
}

func TestEVMTxPageLogsNotes(t *testing.T) {
	body := txLogsPage(t, nil, "", http.StatusOK)
	require.Contains(t, body, `id="logs-note">Logs are not available on this node.</p>`)
	require.Contains(t, body, `data-field="amount">1.2345</td>`, "the rest of the page shows")

	body = txLogsPage(t, &fakeLogs{err: errors.New("connection refused")}, "", http.StatusOK)
	require.Contains(t, body, `id="logs-note">The logs could not be read from the node`)
	require.NotContains(t, body, "connection refused")

	body = txLogsPage(t, &fakeLogs{}, "", http.StatusOK)
	require.Contains(t, body, `id="logs-note">The node has no receipt for this transaction`)

	body = txLogsPage(t, &fakeLogs{found: true}, "", http.StatusOK)
	require.Contains(t, body, `<section id="logs"><h2>Logs</h2>`+"\n"+`<p class="muted">None.</p>`)
}

func TestEVMTxPageLogsPage(t *testing.T) {
	reader := &fakeLogs{found: true}
	for i := range logsPageSize + 50 {
		reader.logs = append(reader.logs, evmdata.Log{Address: common.Address{1}, LogIndex: hexutil.Uint64(1000 + i)})
	}
	body := txLogsPage(t, reader, "", http.StatusOK)
	require.Equal(t, logsPageSize, strings.Count(body, `<table class="kv evm-log"`))
	require.Contains(t, body, `<td data-field="logIndex">1000</td>`)
	require.Contains(t, body, `<a rel="next" href="/ext/bc/data/explorer/evm/43112/tx/`+testTxHash+`?page=100">`)
	body = txLogsPage(t, reader, "?page=100", http.StatusOK)
	require.Equal(t, 50, strings.Count(body, `<table class="kv evm-log"`))
	require.Contains(t, body, `<td data-field="logIndex">1100</td>`)
	require.NotContains(t, body, `rel="next"`)

	body = txLogsPage(t, reader, "?page=200", http.StatusBadRequest)
	require.Contains(t, body, "the transaction has 150 logs")
	body = txLogsPage(t, reader, "?page=%3Cb%3E", http.StatusBadRequest)
	require.Contains(t, body, "invalid page &#39;&lt;b&gt;&#39;")
}
