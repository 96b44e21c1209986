package explorer

import (
	"math/big"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// evmTxData is what an EVM transaction's page shows: getTransaction's
// reply (the transaction, its token transfers and internal transactions),
// and its fee.
type evmTxData struct {
	Chain object
	Tx    object
	// Fee is gasUsed × the effective gas price (the API's gasPrice), in
	// the smallest unit, exact; "" when either is missing.
	Fee string
	// Traced says whether the API knows the internal transactions: it
	// omits them where the block was not traced, so "none" and "not known"
	// read apart.
	Traced bool
	// Logs are the receipt's event logs, from the node (evm_tx_logs.go).
	Logs evmTxLogs
}

func (s *server) serveEVMTx(r *http.Request, req *request) (view, error) {
	chainID, hash := api.PathVar(r, evmVarChainID), api.PathVar(r, "txHash")
	from, err := logsFrom(req)
	if err != nil {
		return view{}, err
	}
	// The node's receipt is read beside the API's replies; the buffered
	// channel lets the reader finish unread when the page fails first.
	logs := make(chan evmTxLogs, 1)
	go func() { logs <- s.readTxLogs(r.Context(), chainID, hash, from) }()
	chain, replies, err := s.readEVM(r.Context(), chainID, evmChainCall(nil, chainID, "transactions", hash))
	if err != nil {
		return view{}, err
	}
	if err := firstError(replies); err != nil {
		return view{}, err
	}
	tx := replies[0].Body
	native, _ := tx["nativeTransaction"].(object)
	_, traced := tx["internalTransactions"]
	txLogs := <-logs
	if txLogs.err != nil {
		return view{}, txLogs.err
	}
	return view{Template: "evm_tx", Title: evmTitle(chain, "Transaction "+short(native["txHash"])),
		Data: evmTxData{Chain: chain, Tx: tx, Fee: txFee(native), Traced: traced, Logs: txLogs}}, nil
}

// txFee is what a transaction paid: its gasUsed times the price per gas it
// paid (the API's gasPrice is the receipt's effective price).
func txFee(native object) string {
	used, ok1 := new(big.Int).SetString(str(native["gasUsed"]), 10)
	price, ok2 := new(big.Int).SetString(str(native["gasPrice"]), 10)
	if !ok1 || !ok2 {
		return ""
	}
	return used.Mul(used, price).String()
}
