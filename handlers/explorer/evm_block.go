package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// evmBlockData is what an EVM block's page shows: the block (getBlock) and
// one page of its transactions (getTransactionsForBlock).
type evmBlockData struct {
	Chain object
	Block object
	// Txs is the reply of getTransactionsForBlock: transactions and
	// nextPageToken.
	Txs object
}

func (s *server) serveEVMBlock(r *http.Request, req *request) (view, error) {
	chainID, blockID := api.PathVar(r, evmVarChainID), api.PathVar(r, "blockId")
	chain, replies, err := s.readEVM(r.Context(), chainID,
		evmChainCall(nil, chainID, "blocks", blockID),
		evmChainCall(pageQuery(req, listPageSize), chainID, "blocks", blockID, "transactions"))
	if err != nil {
		return view{}, err
	}
	if err := firstError(replies); err != nil {
		return view{}, err
	}
	block := replies[0].Body
	return view{Template: "evm_block", Title: evmTitle(chain, "Block "+str(block["blockNumber"])),
		Data: evmBlockData{Chain: chain, Block: block, Txs: replies[1].Body}}, nil
}
