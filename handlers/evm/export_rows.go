package evm

import (
	"strconv"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// The rows of a transaction export (postTransactionExportJob, served by
// handlers/operations): one CSV row per transaction with the fields of the
// OpenAPI's NativeTransaction, shaped as the EVM listings shape them. The
// hosted API does not describe its export file, so the columns are
// NativeTransaction's members in its order, with the nested ones flattened:
// from and to are the addresses only (from.address, to.address; names and
// symbols come from metadata a node reads in the background, so they would
// differ between replicas and restarts, and an export must not), and method
// is methodCallType, methodHash and methodName. A value that is absent
// (methodHash of a plain transfer) is an empty field.

// ExportColumns is the header row of an export.
func ExportColumns() []string {
	return []string{
		"blockNumber", "blockTimestamp", "blockHash", "chainId", "blockIndex", "txHash", "txStatus", "txType",
		"gasLimit", "gasUsed", "gasPrice", "nonce", "from", "to", "methodCallType", "methodHash", "methodName", "value",
	}
}

// ExportRows shapes the rows of exports. Build it once (NewExportRows);
// it is only read afterwards.
type ExportRows struct{ methods methodTable }

func NewExportRows() ExportRows { return ExportRows{methods: newMethodTable()} }

// Row is the export row of a transaction of the chain whose EVM chain id
// is evmChainID, in the order of ExportColumns.
func (e ExportRows) Row(evmChainID uint64, itx *evmdata.IndexedTx) []string {
	tx := &itx.Tx
	method := e.methods.method(tx)
	return []string{
		api.FormatUint(itx.Block.Number),
		api.FormatUint(itx.Block.Timestamp),
		itx.Block.Hash.Hex(),
		api.FormatUint(evmChainID),
		strconv.FormatUint(uint64(tx.Index), 10),
		tx.Hash.Hex(),
		txStatus(tx),
		strconv.FormatUint(uint64(tx.Type), 10),
		api.FormatUint(tx.Gas),
		api.FormatUint(tx.GasUsed),
		api.Decimal(paidGasPrice(tx)),
		api.FormatUint(tx.Nonce),
		tx.From.Hex(),
		recipient(tx).Hex(),
		method.CallType,
		method.MethodHash,
		method.MethodName,
		api.Decimal(tx.Value),
	}
}
