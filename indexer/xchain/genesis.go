package xchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/engine/avalanche/vertex"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/avm"
	"github.com/ava-labs/avalanchego/vms/avm/block"
	"github.com/ava-labs/avalanchego/vms/avm/txs"
	pchaintxs "github.com/ava-labs/avalanchego/vms/platformvm/txs"

	"github.com/avadata/avadata/indexer/pdata"
)

// Genesis returns the X-chain's height-0 block of a network with a built-in
// genesis (mainnet, fuji, local), carrying the genesis txs: one
// CreateAssetTx per genesis asset (AVAX first), with its initial UTXOs.
//
// The index never holds this block, and the node's own height-0 block (the
// linearized chain's genesis) holds no txs: the genesis txs predate it. So
// the block is the node's (its ID, parent and size) with the genesis txs
// put in, and its Timestamp is the network's start time, when the genesis
// UTXOs came to be, not the node's genesis block time (the Cortina
// activation).
func Genesis(networkID uint32) (*pdata.Block, error) {
	switch networkID {
	case constants.MainnetID, constants.FujiID, constants.LocalID:
	default:
		return nil, fmt.Errorf("network %d has no built-in genesis", networkID)
	}
	cfg := genesis.GetConfig(networkID)
	genesisBytes, _, err := genesis.FromConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("building network %d genesis: %w", networkID, err)
	}
	chainTx, err := genesis.VMGenesis(genesisBytes, constants.AVMID)
	if err != nil {
		return nil, fmt.Errorf("finding the X-chain in network %d genesis: %w", networkID, err)
	}
	chainID := chainTx.ID()

	d, err := NewDecoder()
	if err != nil {
		return nil, err
	}
	createChain, ok := chainTx.Unsigned.(*pchaintxs.CreateChainTx)
	if !ok {
		return nil, fmt.Errorf("network %d genesis: X-chain tx is a %T", networkID, chainTx.Unsigned)
	}
	genesisTxs, err := d.genesisTxs(createChain.GenesisData)
	if err != nil {
		return nil, fmt.Errorf("network %d: %w", networkID, err)
	}
	out, err := d.linearGenesis(upgrade.GetConfig(networkID), chainID)
	if err != nil {
		return nil, fmt.Errorf("network %d: %w", networkID, err)
	}
	out.Timestamp = int64(cfg.StartTime)
	out.Txs = genesisTxs
	return out, nil
}

// genesisTxs decodes the avm genesis the way the avm does (vms/avm VM
// initGenesis): each asset's CreateAssetTx, unsigned, marshalled with the
// genesis codec, its ID the hash of those bytes.
func (d *Decoder) genesisTxs(avmGenesis []byte) ([]*pdata.Tx, error) {
	var g avm.Genesis
	if _, err := d.parser.GenesisCodec().Unmarshal(avmGenesis, &g); err != nil {
		return nil, fmt.Errorf("parsing avm genesis: %w", err)
	}
	out := make([]*pdata.Tx, len(g.Txs))
	for i, asset := range g.Txs {
		tx := &txs.Tx{Unsigned: &asset.CreateAssetTx}
		if err := tx.Initialize(d.parser.GenesisCodec()); err != nil {
			return nil, fmt.Errorf("initializing genesis asset %s: %w", asset.Alias, err)
		}
		t, err := d.fromTx(tx)
		if err != nil {
			return nil, fmt.Errorf("genesis asset %s: %w", asset.Alias, err)
		}
		out[i] = t
	}
	return out, nil
}

// linearGenesis is the node's height-0 block (vms/avm/state
// initializeChainState): no txs, the Cortina time, and the stop vertex of
// the DAG as parent. Mainnet and fuji name their stop vertex; a network
// born linear (local) has the node build it from an empty DAG frontier
// (snow/engine/avalanche/bootstrap), which is the same stop vertex on
// every node.
func (d *Decoder) linearGenesis(up upgrade.Config, chainID ids.ID) (*pdata.Block, error) {
	stopVertexID := up.CortinaXChainStopVertexID
	if stopVertexID == ids.Empty {
		vtx, err := vertex.BuildStopVertex(chainID, 0, nil)
		if err != nil {
			return nil, fmt.Errorf("building the X-chain stop vertex: %w", err)
		}
		stopVertexID = vtx.ID()
	}
	blk, err := block.NewStandardBlock(stopVertexID, 0, up.CortinaTime, nil, d.parser.Codec())
	if err != nil {
		return nil, fmt.Errorf("building the X-chain genesis block: %w", err)
	}
	return d.fromBlock(blk)
}
