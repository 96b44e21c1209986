package store

import (
	"github.com/ava-labs/avalanchego/ids"
	preward "github.com/ava-labs/avalanchego/vms/platformvm/reward"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// PrimaryNetwork are the facts about the primary network the P, X and C
// writers need beyond their own blocks.
type PrimaryNetwork struct {
	// ChainOf names the followed chain of a blockchain ID: an export's
	// destination chain holds the exported UTXO in its atomic memory.
	ChainOf func(blockchainID ids.ID) (netinfo.Chain, bool)
	// IDOf is the blockchain ID of a followed chain (netinfo.Info.ChainID):
	// a balance in atomic memory names the chain it was exported from.
	IDOf func(netinfo.Chain) ids.ID
	// Genesis are the chains' height-0 blocks (may be missing), written in
	// the same transaction as block 1.
	Genesis map[netinfo.Chain]*pdata.Block
	// GenesisTime is the P-chain time before block 1 (Unix seconds): the
	// time of the first Apricot blocks, which carry none.
	GenesisTime int64
	// Supply, with the P-chain genesis, lets the P writer track the primary
	// network's current supply (supply.go); nil leaves it unknown.
	Supply *SupplyRules
	// L1Fees, with the P-chain genesis, lets the P writer track the L1
	// validator fee state (l1fees.go); nil leaves it unknown.
	L1Fees *L1FeeRules
	// HRP is the bech32 prefix of the network's P/X addresses, which
	// webhook events write addresses with ("" writes them with the
	// fallback prefix).
	HRP string
	// AVAXAssetID lets the writers total the AVAX that txs burn (burns.go);
	// ids.Empty leaves the burns unknown.
	AVAXAssetID ids.ID
	// DecodeAtomic decodes a C-chain atomic tx's signed bytes (the
	// ptxRecord's Bytes, catomic.DecodeTx): a back-fill's re-derive reads
	// the atomic txs back to rebuild the C-chain burn totals
	// (backfillburns.go); nil leaves them unknown on a back-filled chain.
	DecodeAtomic func(b []byte) (*pdata.Tx, error)
}

// SupplyRules are where the primary network's current supply starts and
// what grows it (pchain.SupplyRules).
type SupplyRules struct {
	InitialSupply uint64
	Rewards       preward.Calculator
}

// SetPrimaryNetwork gives the store the network facts; call it before the
// primary-network followers start.
func (s *Store) SetPrimaryNetwork(n PrimaryNetwork) { s.primary.Store(&n) }

// network returns the network facts, empty ones when none were set: exports
// then go to no followed chain.
func (s *Store) network() *PrimaryNetwork {
	if n := s.primary.Load(); n != nil {
		return n
	}
	return &PrimaryNetwork{}
}

// noChain is the hold chain of a UTXO exported to a chain that is not
// followed: it has a creation row but no balance rows.
const noChain netinfo.Chain = 0xFF

// holdOf returns the chain whose balances hold u when chain creates it, and
// for an export the blockchain ID of its source (chain).
func (n *PrimaryNetwork) holdOf(chain netinfo.Chain, u *pdata.UTXO) (hold netinfo.Chain, atomic bool, source ids.ID) {
	if !u.Exported {
		return chain, false, ids.Empty
	}
	if n.IDOf != nil {
		source = n.IDOf(chain)
	}
	if n.ChainOf != nil {
		if dest, ok := n.ChainOf(u.DestinationChain); ok {
			return dest, true, source
		}
	}
	return noChain, true, source
}
