package primary

import (
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// GET /v1/networks/{network}/addresses:listChainIds (getChainIdsForAddresses):
// for each address (required, X/P-chain addresses, in the order given), the
// blockchain IDs of the primary-network chains it has activity on: a tx that
// involves it, or a UTXO held for it (in the chain's atomic memory too). An
// address without any activity gets an empty list.

func (s *server) serveGetChainIdsForAddresses(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	if err := api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return err
	}
	chains := netinfo.PrimaryChains()
	for _, c := range chains {
		s.ReadsChain(heights, c)
	}
	s.ReadsStream(heights, api.VertexStream) // the X-chain's DAG-era txs
	addrs, addrIDs, err := s.parsePrimaryAddresses(r.URL.Query(), api.ParamAddresses, false)
	if err != nil {
		return err
	}
	if len(addrs) == 0 {
		return api.BadRequest("%s is required: a comma-separated list of X/P-chain addresses", api.ParamAddresses)
	}
	active, err := s.reader.ChainsWithActivity(r.Context(), addrIDs, chains)
	if err != nil {
		return fmt.Errorf("reading the chains of %d addresses: %w", len(addrIDs), err)
	}
	node := s.Network()
	resp := chainAddressChainIDMapListResponse{Addresses: make([]chainAddressChainIDMap, len(addrs))}
	for i, addr := range addrs {
		chainIDs := make([]string, len(active[i]))
		for j, c := range active[i] {
			chainIDs[j] = node.ChainID(c).String()
		}
		resp.Addresses[i] = chainAddressChainIDMap{Address: addr, BlockchainIDs: chainIDs}
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}
