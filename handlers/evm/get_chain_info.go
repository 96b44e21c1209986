package evm

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

func (s *server) serveGetChainInfo(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	chain, err := api.ResolveEVMChain(api.PathVar(r, api.ParamChainID), s.Network())
	if err != nil {
		return err
	}
	if _, err := s.history(r.Context(), chain, heights); err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, s.chainInfo(chain))
	return nil
}
