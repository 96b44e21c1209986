package indexer

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/rpc"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/catomic"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/pchain"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/indexer/xchain"
)

// PrimaryNetwork gathers what the store's primary-network writers need to
// know of the network: how blockchain IDs map to followed chains, and the
// P- and X-chain genesis blocks (their UTXOs are where every balance
// starts). A built-in genesis is used only when it is the node's own: the
// local network's genesis moves its start time every nine months, and a
// node started with a custom genesis has none built in.
func PrimaryNetwork(ctx context.Context, client *nodeapi.Client, info netinfo.Info, upgrades upgrade.Config,
	log logging.Logger,
) store.PrimaryNetwork {
	chainOf := map[ids.ID]netinfo.Chain{}
	for _, ci := range info.Chains {
		chainOf[ci.BlockchainID] = ci.Chain
	}
	net := store.PrimaryNetwork{
		ChainOf: func(id ids.ID) (netinfo.Chain, bool) { c, ok := chainOf[id]; return c, ok },
		IDOf:    info.ChainID,
		Genesis: map[netinfo.Chain]*pdata.Block{},
		// Webhook events write the reward owners' addresses.
		HRP: info.HRP(),
		// The burns need no more than the asset to count.
		AVAXAssetID: info.AVAXAssetID,
		// A C-chain back-fill re-derives the burns from the stored txs.
		DecodeAtomic: catomic.DecodeTx,
	}
	if gen, ts, err := pchain.Genesis(info.NetworkID); err != nil {
		log.Warn("indexing the P-chain without its genesis UTXOs", zap.Error(err))
	} else if err := sameGenesis(ctx, gen, client.Platform.GetBlockByHeight); err != nil {
		log.Warn("indexing the P-chain without its genesis UTXOs", zap.Error(err))
	} else {
		net.Genesis[netinfo.P], net.GenesisTime = gen, ts
		// The supply starts at this genesis: it is tracked only with it.
		if rewards, initial, err := pchain.SupplyRules(info.NetworkID); err != nil {
			log.Warn("indexing the P-chain without its current supply", zap.Error(err))
		} else {
			net.Supply = &store.SupplyRules{InitialSupply: initial, Rewards: rewards}
		}
	}
	if rules, err := l1FeeRules(ctx, client.Platform, upgrades, net.GenesisTime); err != nil {
		log.Warn("indexing the P-chain without its L1 validator fees", zap.Error(err))
	} else {
		net.L1Fees = rules
	}
	if gen, err := xchain.Genesis(info.NetworkID); err != nil {
		log.Warn("indexing the X-chain without its genesis UTXOs", zap.Error(err))
	} else if err := sameGenesis(ctx, gen, client.AVM.GetBlockByHeight); err != nil {
		log.Warn("indexing the X-chain without its genesis UTXOs", zap.Error(err))
	} else {
		net.Genesis[netinfo.X] = gen
	}
	return net
}

// sameGenesis checks a built-in genesis block against the node's block at
// height 0 (block IDs are the hash of the block bytes).
func sameGenesis(ctx context.Context, gen *pdata.Block,
	blockAt func(ctx context.Context, height uint64, options ...rpc.Option) ([]byte, error),
) error {
	b, err := blockAt(ctx, 0)
	if err != nil {
		return fmt.Errorf("reading the node's %s genesis block: %w", gen.Chain, err)
	}
	if id := ids.ID(hashing.ComputeHash256Array(b)); id != gen.ID {
		return fmt.Errorf("the node's %s genesis block %s is not the built-in genesis %s "+
			"(a custom genesis, or a local network started in another period)", gen.Chain, id, gen.ID)
	}
	return nil
}

// TxDecoder decodes the tx bytes the store keeps, by chain, for the store's
// primary-network reader.
func TxDecoder() (store.TxDecoder, error) {
	x, err := xchain.NewDecoder()
	if err != nil {
		return nil, err
	}
	return func(chain netinfo.Chain, b []byte) (*pdata.Tx, error) {
		switch chain {
		case netinfo.P:
			return pchain.DecodeTx(b)
		case netinfo.X:
			return x.DecodeTx(b)
		case netinfo.C:
			return catomic.DecodeTx(b)
		default:
			return nil, fmt.Errorf("chain %s has no primary-network txs", chain)
		}
	}, nil
}

// CurrentValidators reads the primary network's current validators from the
// node (with nodeIDs, their delegators too): uptimes and potential rewards
// are live P-chain state the index does not keep.
func (ix *Indexer) CurrentValidators(ctx context.Context, nodeIDs []ids.NodeID) ([]platformvm.ClientPermissionlessValidator, error) {
	vals, err := ix.client.Platform.GetCurrentValidators(ctx, constants.PrimaryNetworkID, nodeIDs)
	if err != nil {
		return nil, fmt.Errorf("platform.getCurrentValidators: %w", err)
	}
	return vals, nil
}
