package primary

import (
	"strconv"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/pdata"
)

// The rows of a primary-network transaction export (postTransactionExportJob
// with a TRANSACTION_EXPORT_PRIMARY_NETWORK* type, run by
// handlers/operations/exportjob): one CSV row per P-, X- or C-chain (atomic)
// transaction, with the fields of the primary listings that every replica's
// index holds alike. The hosted API does not describe its export file, so
// the columns are these: the tx, its chain and block as the listings show
// them, its type, the two chains of an import or export, and the
// AVAX it consumed and produced (nAVAX; on the C-chain the EVM debits and
// credits of an atomic tx included), then its memo (0x hex).

// ExportColumns is the header row of a primary-network export.
func ExportColumns() []string {
	return []string{"txHash", "blockchainId", "blockNumber", "blockHash", "blockTimestamp", "txType",
		"sourceChain", "destinationChain", "avaxConsumed", "avaxProduced", "memo"}
}

// ExportRows shapes the rows of primary-network exports from the node's
// network (its chain IDs and AVAX's asset ID).
type ExportRows struct{ node api.NodeView }

func NewExportRows(node api.NodeView) ExportRows { return ExportRows{node: node} }

// Row is the export row of itx, in the order of ExportColumns.
func (e ExportRows) Row(itx *pdata.IndexedTx) []string {
	net := e.node.Network()
	tx := itx.Tx
	v := &shaper{chain: itx.Chain}
	consumed, produced := tx.AVAXAmounts(net.AVAXAssetID)
	// An import's and an export's two chains, as the listings show them
	// (the P-chain's ID is ids.Empty, so the type decides, not the ID).
	var source, destination string
	switch tx.Type {
	case "ImportTx":
		source, destination = tx.SourceChain.String(), net.ChainID(itx.Chain).String()
	case "ExportTx":
		source, destination = net.ChainID(itx.Chain).String(), tx.DestinationChain.String()
	}
	return []string{
		tx.ID.String(),
		net.ChainID(itx.Chain).String(),
		strconv.FormatUint(itx.Pos.Height, 10),
		v.blockHash(itx.BlockID),
		strconv.FormatInt(itx.BlockTime, 10),
		tx.Type,
		source,
		destination,
		api.FormatUint(consumed),
		api.FormatUint(produced),
		hexBytes(tx.Memo),
	}
}
