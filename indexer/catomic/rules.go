package catomic

import (
	"time"

	"github.com/ava-labs/avalanchego/upgrade"

	"github.com/avadata/avadata/indexer/pdata"
)

// Rules are what a network's upgrades decide about reading a C-chain
// block's atomic txs.
//
// Mainnet's "bonus blocks" (heights 102972-103600 or so, coreth's
// atomic/vm bonus_blocks.go) hold atomic txs whose UTXO effects the node
// never applied; coreth keeps that list unexported, so Rules does not know
// it and those txs read as ordinary ones.
type Rules struct {
	// ApricotPhase5 is when blocks began to carry a list of atomic txs
	// instead of at most one.
	ApricotPhase5 time.Time
}

// NewRules returns the rules of a network with these upgrades.
func NewRules(up upgrade.Config) Rules {
	return Rules{ApricotPhase5: up.ApricotPhase5Time}
}

// RulesFor returns the rules of a network with its default upgrades
// (mainnet's, fuji's, or those of any other network).
func RulesFor(networkID uint32) Rules { return NewRules(upgrade.GetConfig(networkID)) }

// Batch reports whether a block of this time (Unix seconds) holds a list
// of atomic txs: coreth's IsApricotPhase5 at the block's time.
func (r Rules) Batch(blockTime uint64) bool {
	return !time.Unix(int64(blockTime), 0).Before(r.ApricotPhase5)
}

// BlockTxs decodes the atomic txs of a block from its extra data.
func (r Rules) BlockTxs(extData []byte, blockTime uint64) ([]*pdata.Tx, error) {
	return ExtractTxs(extData, r.Batch(blockTime))
}
