package evm

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v2/chains/{chainId}/addresses/{address}/transactions
// (listTransactionsV2): listTransactions' entries (list_transactions.go:
// the transactions that involve the address, each with only its own
// transfers and internal transactions; sortOrder, startBlock/endBlock,
// pinned paging) in the V2 shapes (ERC-20 tokens carry tokenReputation),
// and filterSpamTokens.

// listTransactionDetailsResponseV2 is the OpenAPI's
// ListTransactionDetailsResponseV2.
type listTransactionDetailsResponseV2 struct {
	Transactions  []transactionDetailsV2 `json:"transactions"`
	NextPageToken string                 `json:"nextPageToken,omitempty"`
}

func (s *server) serveListTransactionsV2(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	filterSpam, spamErr := api.ParseBool(r.URL.Query(), paramFilterSpamTokens, false)
	// The filter is bound into the page tokens: a token resumes only the
	// listing it came from.
	req, err := s.parseEVMBlockListing(r, heights, api.DataPaging(routeListTransactionsV2, true), strconv.FormatBool(filterSpam))
	if err != nil {
		return err
	}
	if spamErr != nil {
		return spamErr
	}
	txs, next, err := s.readAddressTxPage(r.Context(), req)
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	if filterSpam {
		txs = withoutSpamTokens(txs, req.Address, shapes.isSpamToken) // spam.go
	}
	resp := listTransactionDetailsResponseV2{Transactions: make([]transactionDetailsV2, len(txs)), NextPageToken: next}
	for i := range txs {
		resp.Transactions[i] = shapes.transactionDetailsV2(&txs[i])
	}
	return shapes.write(w, resp)
}

// withoutSpamTokens drops the transfers of spam tokens from each entry, and
// then the entries that are left with nothing of addr: it neither sent nor
// received the transaction nor was created by it, and no transfer or
// internal transaction of it remains (a spam token's airdrop). A page may
// so be shorter than pageSize; paging is unaffected, as the next page
// starts after the last entry read, shown or not.
func withoutSpamTokens(txs []evmdata.IndexedTx, addr common.Address, isSpam func(common.Address) bool) []evmdata.IndexedTx {
	out := txs[:0:0]
	for _, itx := range txs {
		tx := &itx.Tx
		tx.Transfers = slices.DeleteFunc(slices.Clone(tx.Transfers), func(t evmdata.TokenTransfer) bool { return isSpam(t.Token) })
		own := tx.From == addr || (tx.To != nil && *tx.To == addr) || (tx.ContractAddress != nil && *tx.ContractAddress == addr)
		if own || len(tx.Transfers) > 0 || len(tx.Internal) > 0 {
			out = append(out, itx)
		}
	}
	return out
}
