package pchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/hashing"
	"github.com/ava-labs/avalanchego/vms/platformvm/block"
	pgenesis "github.com/ava-labs/avalanchego/vms/platformvm/genesis"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Genesis returns the P-chain's genesis as a height-0 block, and the genesis
// timestamp (the chain time before any block). The index API never holds
// it. Its first tx is a pseudo tx (ID ids.Empty, no type) producing the
// genesis UTXOs; the genesis validator txs and chain txs follow, decoded
// like any tx (their stakers start at the tx's own Start: the genesis
// validators start at the genesis time).
//
// Only networks with a built-in genesis are known (mainnet, Fuji, local);
// any other returns an error. The local genesis renews its start time from
// the build's clock (genesis.LocalConfig), so it matches a local node's only
// when both compute it in the same period.
func Genesis(networkID uint32) (*pdata.Block, int64, error) {
	genesisBytes, gen, err := builtinGenesis(networkID)
	if err != nil {
		return nil, 0, err
	}

	// The VM's genesis block, as platformvm's state builds it: a commit
	// block at height 0 whose parent is the hash of the genesis bytes.
	blk, err := block.NewApricotCommitBlock(hashing.ComputeHash256Array(genesisBytes), 0)
	if err != nil {
		return nil, 0, fmt.Errorf("building the P-chain genesis block: %w", err)
	}
	ts := int64(gen.Timestamp)
	out := &pdata.Block{
		Chain:     netinfo.P,
		Number:    0,
		ID:        blk.ID(),
		ParentID:  blk.Parent(),
		Timestamp: ts,
		Type:      typeName(blk),
		Size:      len(blk.Bytes()),
	}

	utxos := &pdata.Tx{ID: ids.Empty}
	for _, u := range gen.UTXOs {
		p, err := utxoOf(&u.UTXO)
		if err != nil {
			return nil, 0, fmt.Errorf("genesis UTXO: %w", err)
		}
		utxos.Produced = append(utxos.Produced, p)
	}
	out.Txs = append(out.Txs, utxos)
	for _, tx := range append(gen.Validators, gen.Chains...) {
		decoded, err := decodeParsed(tx)
		if err != nil {
			return nil, 0, fmt.Errorf("genesis: %w", err)
		}
		out.Txs = append(out.Txs, decoded)
	}
	return out, ts, nil
}

// builtinGenesis is the P-chain genesis of a network with a built-in one
// (mainnet, Fuji, local): its bytes and their parse.
func builtinGenesis(networkID uint32) ([]byte, *pgenesis.Genesis, error) {
	switch networkID {
	case constants.MainnetID, constants.FujiID, constants.LocalID:
	default:
		return nil, nil, fmt.Errorf("network %d has no built-in P-chain genesis", networkID)
	}
	genesisBytes, _, err := genesis.FromConfig(genesis.GetConfig(networkID))
	if err != nil {
		return nil, nil, fmt.Errorf("building network %d's genesis: %w", networkID, err)
	}
	gen, err := pgenesis.Parse(genesisBytes)
	if err != nil {
		return nil, nil, fmt.Errorf("parsing network %d's P-chain genesis: %w", networkID, err)
	}
	return genesisBytes, gen, nil
}
