package replies

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strconv"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
)

// Discover finds the values the request set's placeholders name on the
// seeded network: the node's own APIs first (network, node and chain IDs,
// the pre-funded local key's addresses, the C-chain's blocks and receipts),
// then avadata's replies for what only its index lists (the primary
// network's transactions of the key). This is a regression record, not a
// correctness test, so taking IDs from avadata is fine: the same IDs are
// asked again in every replay.
func Discover(ctx context.Context, c *Client) (map[string]string, error) {
	ids := make(map[string]string)
	steps := []struct {
		what string
		run  func(context.Context, *Client, map[string]string) error
	}{
		{"the node and its chains", discoverNode},
		{"the pre-funded key's addresses", discoverKey},
		{"the C-chain's sample", discoverEVM},
		{"the primary network's sample", discoverPrimary},
		{"the validators", discoverValidators},
	}
	for _, step := range steps {
		if err := step.run(ctx, c, ids); err != nil {
			return nil, fmt.Errorf("discovering %s: %w", step.what, err)
		}
	}
	return ids, nil
}

// discoverNode asks the node's info API for its network, node ID and chain
// IDs, and avadata's status for the EVM chains it follows.
func discoverNode(ctx context.Context, c *Client, ids map[string]string) error {
	var network struct {
		NetworkID json.Number `json:"networkID"`
	}
	if err := c.nodeCall(ctx, "/ext/info", "info.getNetworkID", nil, &network); err != nil {
		return err
	}
	networkID, err := strconv.ParseUint(string(network.NetworkID), 10, 32)
	if err != nil {
		return fmt.Errorf("parsing network ID %q: %w", network.NetworkID, err)
	}
	ids["networkId"] = network.NetworkID.String()
	ids["network"] = constants.NetworkName(uint32(networkID))
	ids["hrp"] = constants.GetHRP(uint32(networkID))

	var node struct {
		NodeID string `json:"nodeID"`
	}
	if err := c.nodeCall(ctx, "/ext/info", "info.getNodeID", nil, &node); err != nil {
		return err
	}
	ids["nodeId"] = node.NodeID

	base, err := url.Parse(c.Base)
	if err != nil {
		return fmt.Errorf("parsing the base URL: %w", err)
	}
	ids["basePath"] = base.Path
	for alias, name := range map[string]string{"P": "pChainId", "X": "xChainId", "C": "cChainId", path.Base(base.Path): "avadataChainId"} {
		var chain struct {
			BlockchainID string `json:"blockchainID"`
		}
		if err := c.nodeCall(ctx, "/ext/info", "info.getBlockchainID", map[string]string{"alias": alias}, &chain); err != nil {
			return err
		}
		ids[name] = chain.BlockchainID
	}
	var cChainID hexUint
	if err := c.nodeCall(ctx, "/ext/bc/C/rpc", "eth_chainId", []any{}, &cChainID); err != nil {
		return err
	}
	ids["cChainEvmId"] = strconv.FormatUint(uint64(cChainID), 10)
	return discoverOtherEVMChain(ctx, c, ids)
}

// discoverOtherEVMChain finds the followed EVM chain that is not the
// C-chain (the local network's subnet-evm chain) in avadata's status.
func discoverOtherEVMChain(ctx context.Context, c *Client, ids map[string]string) error {
	var status struct {
		Network struct {
			EVMChains []struct {
				BlockchainID string `json:"blockchainId"`
				EVMChainID   uint64 `json:"evmChainId"`
			} `json:"evmChains"`
		} `json:"network"`
	}
	if err := c.apiGet(ctx, "/v1/status", &status); err != nil {
		return err
	}
	for _, chain := range status.Network.EVMChains {
		if chain.BlockchainID != ids["cChainId"] {
			ids["subnetEvmChainId"] = chain.BlockchainID
			ids["subnetEvmEvmId"] = strconv.FormatUint(chain.EVMChainID, 10)
			return nil
		}
	}
	return fmt.Errorf("avadata follows no EVM chain but the C-chain (%d chains)", len(status.Network.EVMChains))
}

// discoverKey derives the addresses of the local networks' pre-funded key
// (EWOQ), which made the seed's activity.
func discoverKey(_ context.Context, _ *Client, ids map[string]string) error {
	key := genesis.EWOQKey
	ids["sender.evm"] = key.EthAddress().Hex()
	short := key.Address()
	bech, err := address.FormatBech32(ids["hrp"], short[:])
	if err != nil {
		return fmt.Errorf("formatting the key's address: %w", err)
	}
	ids["sender.bech32"] = bech
	ids["sender.x"] = "X-" + bech
	ids["sender.p"] = "P-" + bech
	return nil
}
