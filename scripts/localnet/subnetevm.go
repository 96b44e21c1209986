package localnet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"sync"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/libevm/common/hexutil"

	"github.com/avadata/avadata/scripts/chaincreate"
)

const (
	// CChainEVMChainID is the C-chain's EVM chain ID on the local network.
	CChainEVMChainID uint64 = 43112
	// SubnetEVMChainID is the EVM chain ID of the local network's subnet-evm
	// chain.
	SubnetEVMChainID uint64 = 99999
	// SubnetEVMChainName is the subnet-evm chain's name in its
	// CreateChainTx (the P-chain allows only letters, digits and spaces).
	SubnetEVMChainName = "subnetevm"
	// cChainName is the C-chain's name as the P-chain reports it.
	cChainName = "C-Chain"

	// subnetEVMGasLimit is the subnet-evm chain's block gas limit: ~1400
	// simple transfers per block, so a burst of test txs lands in one or two
	// blocks instead of queueing behind the ~2 s ACP-226 block delay.
	subnetEVMGasLimit = 30_000_000
)

// SubnetEVMVMID is the VM ID the node runs subnet-evm under; its plugin must
// be <PluginDir>/<SubnetEVMVMID> (`make build` installs it there).
var SubnetEVMVMID = constants.SubnetEVMID

// EVMChain is one EVM chain of the local network.
type EVMChain struct {
	// Name is the chain's name on the P-chain: "C-Chain" or
	// SubnetEVMChainName.
	Name         string
	BlockchainID ids.ID
	// SubnetID is the primary network's ID for the C-chain.
	SubnetID   ids.ID
	EVMChainID uint64
	// RPCURL is the chain's eth JSON-RPC endpoint on the node.
	RPCURL string
}

// subnetEVMState is what the state file remembers of the subnet-evm chain;
// its zero value means the data dir has none.
type subnetEVMState struct {
	SubnetID   ids.ID `json:"subnetID"`
	ChainID    ids.ID `json:"chainID"`
	EVMChainID uint64 `json:"evmChainID"`
}

func (s subnetEVMState) created() bool { return s.ChainID != ids.Empty }

// EVMChains returns the network's EVM chains: the C-chain first, then the
// subnet-evm chain when the data dir has one (whatever SkipSubnetEVM says
// now: the node runs every chain the P-chain knows of).
func (n *Network) EVMChains() []EVMChain {
	chains := []EVMChain{{
		Name:         cChainName,
		BlockchainID: localCChainID(),
		SubnetID:     constants.PrimaryNetworkID,
		EVMChainID:   CChainEVMChainID,
		RPCURL:       n.URI() + "/ext/bc/C/rpc",
	}}
	if s := n.state.SubnetEVM; s.created() {
		chains = append(chains, EVMChain{
			Name:         SubnetEVMChainName,
			BlockchainID: s.ChainID,
			SubnetID:     s.SubnetID,
			EVMChainID:   s.EVMChainID,
			RPCURL:       n.URI() + "/ext/bc/" + s.ChainID.String() + "/rpc",
		})
	}
	return chains
}

// localCChainID is the local network's C-chain ID. It follows from the
// network's built-in genesis, so it is computed rather than asked of a node,
// and EVMChains works while the node is stopped.
var localCChainID = sync.OnceValue(func() ids.ID {
	genesisBytes, _, err := genesis.FromConfig(genesis.GetConfig(constants.LocalID))
	if err != nil {
		panic(fmt.Sprintf("localnet: building the local genesis: %v", err))
	}
	tx, err := genesis.VMGenesis(genesisBytes, constants.EVMID)
	if err != nil {
		panic(fmt.Sprintf("localnet: finding the C-chain in the local genesis: %v", err))
	}
	return tx.ID()
})

// subnetEVMGraniteTime is the year 3000: Granite never activates on the
// local subnet-evm chain.
const subnetEVMGraniteTime = 32_503_680_000

// SubnetEVMGenesis returns the subnet-evm chain's genesis: EVM chain ID
// SubnetEVMChainID, the EWOQ key's eth address funded with a billion coins,
// fees that never slow a local test down, and warp on.
//
// The genesis time is when the local network activated its upgrades, so
// Durango (which warp needs) is active from the genesis block on. Granite is
// moved past any test's lifetime on this chain alone: ACP-226's minimum
// block delay starts at ~2 s and shrinks by ~0.02 % a block (see
// CChainConfig), while before Granite blocks come as fast as transactions
// do (~20 ms apart), which the catch-up benchmark and the kill test need for
// their thousands of blocks. The C-chain keeps Granite, so the index is
// tested on both header generations (with and without millisecond
// timestamps and minDelayExcess).
func SubnetEVMGenesis() []byte {
	start := uint64(upgrade.GetConfig(constants.LocalID).GraniteTime.Unix())
	funds := new(big.Int).Mul(big.NewInt(1_000_000_000), big.NewInt(1e18))
	g := map[string]any{
		"config": map[string]any{
			"chainId": SubnetEVMChainID,
			"feeConfig": map[string]any{
				"gasLimit": subnetEVMGasLimit,
				// 1 gwei; the base fee rises only past targetGas per 10 s,
				// five full blocks' worth.
				"minBaseFee":               1_000_000_000,
				"targetGas":                5 * subnetEVMGasLimit,
				"baseFeeChangeDenominator": 48,
				"targetBlockRate":          1, // seconds; the smallest allowed
				"minBlockGasCost":          0,
				"maxBlockGasCost":          1_000_000,
				"blockGasCostStep":         0,
			},
			"warpConfig":       map[string]any{"blockTimestamp": start},
			"graniteTimestamp": subnetEVMGraniteTime,
		},
		"alloc": map[string]any{
			genesis.EWOQKey.EthAddress().Hex(): map[string]any{"balance": hexutil.EncodeBig(funds)},
		},
		"timestamp":  hexutil.EncodeUint64(start),
		"gasLimit":   hexutil.EncodeUint64(subnetEVMGasLimit), // must equal feeConfig.gasLimit
		"difficulty": "0x0",
		"nonce":      "0x0",
		"extraData":  "0x",
	}
	b, err := json.Marshal(g)
	if err != nil {
		panic(fmt.Sprintf("localnet: encoding the subnet-evm genesis: %v", err))
	}
	return b
}

// subnetEVMPluginPath is where the node looks for the subnet-evm binary.
func (c *Config) subnetEVMPluginPath() string {
	return filepath.Join(c.PluginDir, SubnetEVMVMID.String())
}

// checkSubnetEVMPlugin fails early, before any node starts, when the node
// would need the subnet-evm plugin and it is missing: otherwise the node
// only reports a failing health check for a chain it could not create.
func (c *Config) checkSubnetEVMPlugin(saved *state) error {
	haveChain := saved != nil && saved.SubnetEVM.created()
	if !haveChain && c.SkipSubnetEVM {
		return nil
	}
	_, err := os.Stat(c.subnetEVMPluginPath())
	if err == nil {
		return nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("checking the subnet-evm plugin: %w", err)
	}
	if haveChain {
		return fmt.Errorf("the subnet-evm plugin %s is missing (make build installs it); data dir %s has a subnet-evm chain, which the node cannot run without it",
			c.subnetEVMPluginPath(), c.DataDir)
	}
	return fmt.Errorf("the subnet-evm plugin %s is missing: run make build, or set Config.SkipSubnetEVM to go without the subnet-evm chain",
		c.subnetEVMPluginPath())
}

// createSubnetEVMChain creates a subnet of its own and the subnet-evm chain
// in it with the EWOQ key, as an L1's EVM chain lives on mainnet. With
// sybil protection off the node runs it as soon as the CreateChainTx is
// accepted, without --track-subnets.
func createSubnetEVMChain(ctx context.Context, uri string, logf func(string, ...any)) (subnetEVMState, error) {
	subnetID, chainID, err := chaincreate.CreateSubnetAndChain(ctx, uri, genesis.EWOQKey, SubnetEVMVMID,
		SubnetEVMChainName, SubnetEVMGenesis(), logf)
	if err != nil {
		return subnetEVMState{}, fmt.Errorf("creating the subnet-evm chain: %w", err)
	}
	return subnetEVMState{SubnetID: subnetID, ChainID: chainID, EVMChainID: SubnetEVMChainID}, nil
}
