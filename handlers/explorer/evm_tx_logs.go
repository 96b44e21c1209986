package explorer

import (
	"context"
	"encoding/hex"
	"strconv"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// A transaction's event logs, for its page. Neither the index nor the API
// keeps them, so the page reads them from the node's receipt (LogReader),
// the way a native balance is read live. A failure to read them is a note
// in the page's Logs section, not an error page: the rest of the page is
// the API's and stands on its own.

const (
	// logsPageSize is how many logs one page shows; the rest page with
	// ?page=<the index of the first log of the next page>.
	logsPageSize = 100
	// logDataShown is how many bytes of a log's data the page shows: a log
	// may carry megabytes, and the page says how many bytes it left out.
	logDataShown = 4096
)

// evmTxLogs is the Logs section of a tx page.
type evmTxLogs struct {
	// Note says why no logs show: no reader, no receipt, a failed read.
	Note string
	Logs []evmLogView
	// Total is the receipt's number of logs.
	Total int
	// Next is the ?page= of the next page of logs, "" on the last.
	Next string
	// err is bad input (a page past the last log): the page's error.
	err error
}

// evmLogView is one log as the page shows it.
type evmLogView struct {
	Index   uint64 // block-global, as in the receipt
	Address string
	// Event is the signature of topic0's event where it is well known.
	Event  string
	Topics []string
	Data   string // hex, whole up to logDataShown bytes
	// Hidden is how many bytes of data are not shown.
	Hidden int
}

// logsFrom is the index (in the tx's logs) of the first log the page
// shows: the URL's page, 0 without one.
func logsFrom(req *request) (int, error) {
	page := req.Query.Get("page")
	if page == "" {
		return 0, nil
	}
	from, err := strconv.Atoi(page)
	if err != nil || from < 0 || from%logsPageSize != 0 {
		return 0, api.BadRequest("invalid page '%s': a page of logs starts at a multiple of %d", api.Truncate(page), logsPageSize)
	}
	return from, nil
}

// readTxLogs reads the logs of the tx hash on chain chainID from the node
// and shows the page of them that starts at from. It never fails the page
// but for a page past the last log: what went wrong is the section's note.
func (s *server) readTxLogs(ctx context.Context, chainID, hash string, from int) (logs evmTxLogs) {
	defer func() {
		if p := recover(); p != nil {
			s.Log().Warn("explorer: reading a tx's logs panicked", zap.String("tx", hash), zap.Any("panic", p))
			logs = evmTxLogs{Note: "The logs could not be read (the node's log says why)."}
		}
	}()
	if s.logs == nil {
		return evmTxLogs{Note: "Logs are not available on this node."}
	}
	chain, err := api.ResolveEVMChain(chainID, s.Network())
	if err != nil {
		return evmTxLogs{} // the API answers the page with this error
	}
	h, ok := parseTxHash(hash)
	if !ok {
		return evmTxLogs{} // likewise
	}
	raw, found, err := s.logs.TransactionLogs(ctx, chain.Chain, h)
	if err != nil {
		s.Log().Warn("explorer: reading a tx's logs from the node failed", zap.String("tx", hash), zap.Error(err))
		return evmTxLogs{Note: "The logs could not be read from the node (the node's log says why)."}
	}
	if !found {
		return evmTxLogs{Note: "The node has no receipt for this transaction (it may no longer index transactions this old), so its logs cannot be shown."}
	}
	if from > 0 && from >= len(raw) {
		return evmTxLogs{err: api.BadRequest("invalid page '%d': the transaction has %d logs", from, len(raw))}
	}
	out := evmTxLogs{Total: len(raw)}
	to := min(from+logsPageSize, len(raw))
	for _, l := range raw[from:to] {
		out.Logs = append(out.Logs, s.logView(l))
	}
	if to < len(raw) {
		out.Next = strconv.Itoa(to)
	}
	return out
}

// logView is how the page shows one log.
func (s *server) logView(l evmdata.Log) evmLogView {
	v := evmLogView{Index: uint64(l.LogIndex), Address: l.Address.Hex()}
	for _, t := range l.Topics {
		v.Topics = append(v.Topics, t.Hex())
	}
	if len(l.Topics) > 0 {
		v.Event = s.events[l.Topics[0]]
	}
	data := []byte(l.Data)
	if len(data) > logDataShown {
		v.Hidden = len(data) - logDataShown
		data = data[:logDataShown]
	}
	v.Data = hexutil.Encode(data)
	return v
}

// parseTxHash reads a 0x-prefixed 32-byte hex hash; false for anything
// else (which the API answers with its own error).
func parseTxHash(s string) (common.Hash, bool) {
	if len(s) != 2+2*common.HashLength || (s[:2] != "0x" && s[:2] != "0X") {
		return common.Hash{}, false
	}
	b, err := hex.DecodeString(s[2:])
	if err != nil {
		return common.Hash{}, false
	}
	return common.BytesToHash(b), true
}
