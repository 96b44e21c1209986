package evm

import (
	"encoding/binary"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET /v1/chains/{chainId}/blocks/{blockId}/transactions
// (getTransactionsForBlock): the transactions of one indexed block, in
// block order (the NativeTransaction shape). 404 when the index does not
// hold the block (get_block.go).
//
// pageSize: the OpenAPI gives it default 0, minimum 0, maximum 100. A
// client asking for a block's transactions wants the block's transactions,
// so 0 and an absent pageSize both mean a full page of 100: nearly every
// block comes whole in one reply, and a bigger one pages on with
// nextPageToken. 1 to 100 are page sizes as everywhere; anything else is a
// 400. A block's transactions never change once indexed, so the pages need
// no pinned height; the token carries the last tx index.

// blockTxsPageSize is the page of an absent or 0 pageSize.
const blockTxsPageSize = 100

func blockTxsPaging() api.Paging {
	p := api.DataPaging(routeGetTransactionsForBlock, false)
	p.Size.Min, p.Size.Default = 0, blockTxsPageSize
	return p
}

func (s *server) serveGetTransactionsForBlock(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseBlockRequest(r, heights)
	if err != nil {
		return err
	}
	page, err := s.ParsePage(r.Context(), heights, r.URL.Query(), blockTxsPaging(), s.EVMChainStream(req.Chain), req.Block.String())
	if err != nil {
		return err
	}
	if page.Size == 0 {
		page.Size = blockTxsPageSize
	}
	after, err := api.ResumeAfter(page, decodeTxIndex)
	if err != nil {
		return err
	}
	block, err := s.readBlock(r.Context(), req, heights)
	if err != nil {
		return err
	}
	txs, err := s.reader.EVMBlockTxs(r.Context(), req.Chain.Chain, block.Number, after, page.Size+1)
	if err != nil {
		return fmt.Errorf("listing the transactions of block %d: %w", block.Number, err)
	}
	txs, hasMore := api.TrimPage(txs, page.Size)
	resp := listNativeTransactionsResponse{}
	if hasMore {
		last := binary.BigEndian.AppendUint32(nil, txs[len(txs)-1].Tx.Index)
		if resp.NextPageToken, err = s.NextPageToken(page, int64(block.Number), last); err != nil {
			return err
		}
	}
	shapes := s.newShaper(r.Context(), req.Chain, defaultCurrency)
	resp.Transactions = shapes.nativeTransactions(txs)
	return shapes.write(w, resp)
}

func decodeTxIndex(b []byte) (uint32, bool) {
	if len(b) != 4 {
		return 0, false
	}
	return binary.BigEndian.Uint32(b), true
}
