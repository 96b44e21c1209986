package webhooks

import (
	"encoding/json"

	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The SDK's PrimaryNetworkType: the only networks its requests can name.
const (
	networkMainnet = "mainnet"
	networkFuji    = "fuji"
)

// parseNetwork reads the network member of a primary-network or validator
// request. The node serves one network, so the member only has to name
// it: "mainnet" on mainnet, "fuji" on Fuji and on every other network
// that is not mainnet (a local or custom one, which the SDK cannot name
// otherwise), where it means "this node's network".
func (s *server) parseNetwork(fields map[string]json.RawMessage) (string, error) {
	network, err := requiredString(fields, "", fieldNetwork, "'mainnet' or 'fuji'")
	if err != nil {
		return "", err
	}
	node := s.Network()
	onMainnet := node.NetworkID == constants.MainnetID
	switch network {
	case networkMainnet:
		if onMainnet {
			return network, nil
		}
	case networkFuji:
		if !onMainnet {
			return network, nil
		}
	default:
		return "", api.BadRequest("invalid %s '%s': must be 'mainnet' or 'fuji'", fieldNetwork, api.Truncate(network))
	}
	want := networkFuji
	if onMainnet {
		want = networkMainnet
	}
	return "", api.BadRequest("%s '%s' is not this node's network: it serves '%s'; send '%s' (on a network other "+
		"than mainnet, 'fuji' names the node's own network)", fieldNetwork, network, node.Name(), want)
}

// resolvePrimaryChain resolves the chainId of a primary-network request:
// the P-, X- or C-chain (whose atomic txs are watched) by blockchain ID,
// node alias (P, X, C) or Data API alias (p-chain, ...).
func (s *server) resolvePrimaryChain(id string) (netinfo.ChainInfo, error) {
	node := s.Network()
	chain, ok := api.ChainByAlias(id)
	if !ok {
		if c, err := netinfo.ParseChain(id); err == nil {
			chain, ok = c, true
		}
	}
	if !ok {
		for _, c := range netinfo.PrimaryChains() {
			if node.ChainID(c).String() == id {
				chain, ok = c, true
			}
		}
	}
	ci, followed := node.Chain(chain)
	if !ok || !followed {
		return netinfo.ChainInfo{}, api.BadRequest("invalid %s '%s': must be the P-, X- or C-chain of this node's network: "+
			"'%s', '%s' or '%s' (or P, X, C)", fieldChainID, api.Truncate(id),
			node.ChainID(netinfo.P), node.ChainID(netinfo.X), node.ChainID(netinfo.C))
	}
	ci.Chain = chain
	return ci, nil
}
