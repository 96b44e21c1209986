package primary

import (
	"context"
	"fmt"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}
// (getTxByHash): one P-chain tx, X-chain tx (of a block, or of the
// pre-Cortina DAG) or C-chain atomic tx, shaped exactly as
// listLatestPrimaryNetworkTransactions shows it (PChainTransaction,
// XChainLinearTransaction / XChainNonLinearTransaction,
// CChainImportTransaction / CChainExportTransaction).

// getTxByHashRequest is the validated input of getTxByHash.
type getTxByHashRequest struct {
	Chain netinfo.Chain
	TxID  ids.ID
}

func (s *server) parseGetTxByHashRequest(r *http.Request, heights *api.Heights) (getTxByHashRequest, error) {
	var req getTxByHashRequest
	var err error
	if req.Chain, err = s.resolveChain(r, heights, allPrimaryChains()); err != nil {
		return req, err
	}
	req.TxID, err = api.ParseCB58ID(api.ParamTxHash, api.PathVar(r, api.ParamTxHash))
	return req, err
}

func (s *server) serveGetTxByHash(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetTxByHashRequest(r, heights)
	if err != nil {
		return err
	}
	itx, err := s.chainTx(r.Context(), req.Chain, req.TxID)
	if err != nil {
		return err
	}
	shaped, err := s.shapeTxs(r.Context(), req.Chain, []pdata.IndexedTx{itx})
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, shaped[0])
	return nil
}

// chainTx reads the tx id of chain: a 404 when the index holds none, or
// holds it as another chain's tx.
func (s *server) chainTx(ctx context.Context, chain netinfo.Chain, id ids.ID) (pdata.IndexedTx, error) {
	itx, found, err := s.reader.Tx(ctx, id)
	if err != nil {
		return pdata.IndexedTx{}, fmt.Errorf("reading tx %s: %w", id, err)
	}
	if !found && chain == netinfo.C {
		if err := s.cTxBeforeHistory(ctx, id); err != nil {
			return pdata.IndexedTx{}, err
		}
	}
	if !found {
		return pdata.IndexedTx{}, api.NotFound("transaction %s not found on the %s%s", id, chain.DataAPIAlias(),
			s.notFoundHint(ctx, chain, hintDAG))
	}
	if itx.Chain != chain {
		return pdata.IndexedTx{}, api.NotFound("transaction %s not found on the %s: it is a %s transaction",
			id, chain.DataAPIAlias(), itx.Chain.DataAPIAlias())
	}
	return itx, nil
}
