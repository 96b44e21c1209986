package metrics

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// GET {metrics_url}/v2/chains/{chainId} (getChain): one followed EVM chain
// in the SDK's Chain shape (list_chains.go). chainId is what the data
// service's GET /v1/chains/{chainId} takes (api.ResolveEVMChain): the EVM
// chain id, the cb58 blockchain ID, or c-chain; the aggregates total,
// mainnet and testnet name no single chain and are refused like any other
// unknown chain.

func (s *server) serveGetChain(w http.ResponseWriter, r *http.Request, _ *api.Heights) error {
	ci, err := api.ResolveEVMChain(api.PathVar(r, api.ParamChainID), s.Network())
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, newMetricsChain(ci, s.Network()))
	return nil
}
