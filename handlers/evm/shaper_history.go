package evm

import (
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// Shaping of an address's entries (listTransactions, listTransactionsV2)
// and of its typed histories' internal transactions.

// addressEntryLists are the lists of an address transaction entry: only
// what involves the address (the store filters), and every empty list
// omitted, internalTransactions included.
func (v *shaper) addressEntryLists(itx *evmdata.IndexedTx) txLists {
	lists := v.txLists(itx)
	if lists.InternalTransactions != nil && len(*lists.InternalTransactions) == 0 {
		lists.InternalTransactions = nil
	}
	return lists
}

// transactionDetailsV2 shapes an entry of listTransactionsV2: the v1 entry
// with ERC-20 tokens in their V2 shape.
func (v *shaper) transactionDetailsV2(itx *evmdata.IndexedTx) transactionDetailsV2 {
	lists := v.addressEntryLists(itx)
	out := transactionDetailsV2{
		NativeTransaction: v.nativeTransaction(itx),
		Erc721Transfers:   lists.Erc721Transfers,
		Erc1155Transfers:  lists.Erc1155Transfers,
	}
	if lists.InternalTransactions != nil {
		out.InternalTransactions = *lists.InternalTransactions
	}
	for _, t := range lists.Erc20Transfers {
		out.Erc20Transfers = append(out.Erc20Transfers, erc20TransferV2{
			transferBase: t.transferBase, Value: t.Value, Erc20Token: erc20TokenV2{erc20Token: t.Erc20Token},
		})
	}
	return out
}

// internalTransactionEntry shapes an item of listInternalTransactions.
func (v *shaper) internalTransactionEntry(t *evmdata.IndexedInternalTx) internalTransactionEntry {
	return internalTransactionEntry{
		transferBlock:       *txBlock(t.Block, t.TxHash),
		internalTransaction: v.internalTransaction(&t.InternalTx),
	}
}

// txBlock shows where a listed transfer or internal transaction is: its
// block and transaction.
func txBlock(b evmdata.BlockRef, txHash common.Hash) *transferBlock {
	return &transferBlock{
		BlockNumber:    api.FormatUint(b.Number),
		BlockTimestamp: b.Timestamp,
		BlockHash:      b.Hash.Hex(),
		TxHash:         txHash.Hex(),
	}
}
