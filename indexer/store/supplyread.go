package store

import (
	"context"
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// AvaxSupply reads the supply and the burn totals after the last indexed
// block of each primary-network chain (supply.go, l1fees.go, burns.go), and
// the AVAX still locked at time at (locked.go), in one read so that the
// figures are of one moment of the index.
func (r *PrimaryReader) AvaxSupply(ctx context.Context, at int64) (pdata.AvaxSupply, error) {
	var out pdata.AvaxSupply
	net := r.s.network()
	if net.Supply != nil {
		initial := net.Supply.InitialSupply
		out.InitialSupply = &initial
	}
	err := r.s.read(ctx, func(txn *badger.Txn) error {
		heights := map[netinfo.Chain]uint64{}
		for _, chain := range []netinfo.Chain{netinfo.P, netinfo.X, netinfo.C} {
			c, err := readCursor(txn, chain, StreamBlocks)
			if err != nil {
				return fmt.Errorf("reading the %s cursor: %w", chain, err)
			}
			heights[chain] = c.NextHeight - 1
			out.LastBlockTime = max(out.LastBlockTime, c.LastBlockTs)
		}
		if err := readPSupply(txn, heights[netinfo.P], &out); err != nil {
			return err
		}
		if !hasDAGHistory(net) {
			// A DAG's txs are not totalled (keys.go 0x63-0x64 reserved).
			s, ok, err := readBurns(txn, netinfo.X, heights[netinfo.X])
			if err != nil {
				return err
			}
			if ok {
				out.XBurned = &s.x
			}
		}
		if locksKnown(net, heights) {
			locked, err := lockedAt(ctx, txn, at)
			if err != nil {
				return fmt.Errorf("summing the locked AVAX: %w", err)
			}
			out.Locked = &locked
		}
		s, ok, err := readBurns(txn, netinfo.C, heights[netinfo.C])
		if err != nil || !ok {
			return err
		}
		out.CAtomicBurned, out.CEVMBurned = &s.c.AtomicFees, s.c.EVMFees
		return nil
	})
	if err != nil {
		return pdata.AvaxSupply{}, fmt.Errorf("reading the AVAX supply: %w", err)
	}
	return out, nil
}

// readPSupply reads the P-chain's figures after block height.
func readPSupply(txn *badger.Txn, height uint64, out *pdata.AvaxSupply) error {
	if height == 0 {
		return nil
	}
	v, err := getValue(txn, blockKey(netinfo.P, height))
	if err != nil || v == nil {
		return err
	}
	rec, err := decodeBlock(netinfo.P, height, v)
	if err != nil {
		return fmt.Errorf("P-chain block %d: %w", height, err)
	}
	out.CurrentSupply = rec.CurrentSupply
	s, ok, err := readBurns(txn, netinfo.P, height)
	if err != nil || !ok {
		return err
	}
	out.PTxFees = &s.p.TxFees
	if l1 := rec.L1Fees; l1 != nil {
		if paid, ok := l1FeesPaid(s.p, *l1); ok {
			out.L1ValidatorFees = &paid
		}
	}
	return nil
}

// l1FeesPaid is what L1 validators paid in fees: the balances deposited,
// less the refunds, less what the active validators still hold (their
// EndAccumulatedFee less the accrued fees, summed modulo 2^64, which is
// exact: see burns.go); false when the totals do not add up.
func l1FeesPaid(p pBurns, l1 pdata.L1FeeState) (uint64, bool) {
	held := p.L1ActiveEnd - l1.ActiveL1Validators*l1.AccruedFees
	if p.L1Refunded > p.L1Deposited || held > p.L1Deposited-p.L1Refunded {
		return 0, false
	}
	return p.L1Deposited - p.L1Refunded - held, true
}

// readBurns reads chain's burn row of block height; false when it has none.
func readBurns(txn *badger.Txn, chain netinfo.Chain, height uint64) (burnState, bool, error) {
	if height == 0 {
		return burnState{}, false, nil
	}
	v, err := getValue(txn, burnKeyOf(chain)(height))
	if err != nil || v == nil {
		return burnState{}, false, err
	}
	var s burnState
	if err := s.decode(chain, v); err != nil {
		return burnState{}, false, fmt.Errorf("the %s burns of block %d: %w", chain, height, err)
	}
	return s, true, nil
}

// locksKnown says whether the lock rows hold every locked UTXO: the P- and
// X-chain are indexed from their genesis blocks (which hold the vesting
// allocations), on a network without a DAG history (whose txs the vertex
// follower writes on its own schedule) whose AVAX asset is known.
func locksKnown(net *PrimaryNetwork, heights map[netinfo.Chain]uint64) bool {
	return net.AVAXAssetID != ids.Empty && net.Genesis[netinfo.P] != nil && net.Genesis[netinfo.X] != nil &&
		heights[netinfo.P] > 0 && heights[netinfo.X] > 0 && !hasDAGHistory(net)
}

// hasDAGHistory says whether the X-chain had txs before it became linear
// (mainnet and fuji name their DAG's stop vertex); unknown upgrades count as
// having one.
func hasDAGHistory(net *PrimaryNetwork) bool {
	return net.L1Fees == nil || net.L1Fees.Upgrades.CortinaXChainStopVertexID != ids.Empty
}
