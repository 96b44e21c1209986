package store

import (
	"context"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// PrimaryWriter writes the blocks of the P- or X-chain follower: block
// records, txs, their address rows, UTXOs and balance rows, and for the
// P-chain stakers and rewards (keys.go 0x10-0x22, 0x30-0x35, 0x40-0x41,
// 0x45).
type PrimaryWriter struct {
	s     *Store
	chain netinfo.Chain
}

// PrimaryWriter returns chain's writer (P or X).
func (s *Store) PrimaryWriter(chain netinfo.Chain) *PrimaryWriter {
	return &PrimaryWriter{s: s, chain: chain}
}

// Cursor is the block stream's cursor.
func (w *PrimaryWriter) Cursor(ctx context.Context) (Cursor, error) {
	return w.s.Cursor(ctx, w.chain, StreamBlocks)
}

// Start makes the stream, never written yet, begin at height first.
func (w *PrimaryWriter) Start(ctx context.Context, first uint64) error {
	return w.s.StartStream(ctx, w.chain, StreamBlocks, first)
}

// Apply writes blocks (consecutive heights from the cursor), their TPS
// counts and the advanced cursor; the chain's genesis block goes with block
// 1. A commit that collides with another chain's writer on a UTXO both touch
// fails with badger.ErrConflict (wrapped) and writes nothing: the follower
// retries the batch, which then sees the other writer's rows.
func (w *PrimaryWriter) Apply(ctx context.Context, blocks []*pdata.Block, now time.Time) error {
	return commitBlocks(ctx, w.s, w.chain, StreamBlocks, blocks, now, w.writeBlock)
}

func (w *PrimaryWriter) writeBlock(txn *blockTxn, b *pdata.Block) error {
	net := w.s.network()
	if b.Number == 1 {
		// commitPrefix only lets height 1 through at a fresh cursor, so the
		// genesis block is written exactly once.
		if g := net.Genesis[w.chain]; g != nil {
			if err := w.writeGenesis(txn, net, g); err != nil {
				return err
			}
		}
	}
	// The chain time before b, for the L1 validator fees: what the block
	// before it in this transaction left, else what the stored one did.
	prevTime, prevKnown := txn.chainTime, txn.chainTimeKnown
	chainTimeBefore := func() (int64, error) {
		if prevKnown {
			return prevTime, nil
		}
		return w.chainTimeBefore(txn, net, b.Number)
	}
	ts, err := w.resolveTime(txn, net, b)
	if err != nil {
		return err
	}
	txn.blockTs = ts
	if err := loadBurns(txn, net, b.Number); err != nil {
		return err
	}
	if w.chain == netinfo.P {
		if err := trackSupply(txn, net, b, ts); err != nil {
			return fmt.Errorf("P-chain supply at block %d: %w", b.Number, err)
		}
		if err := trackL1Fees(txn, net, b, ts, chainTimeBefore); err != nil {
			return fmt.Errorf("P-chain L1 validator fees at block %d: %w", b.Number, err)
		}
		if err := stakeCountedFrom(txn, b.Number); err != nil {
			return fmt.Errorf("P-chain staking figures at block %d: %w", b.Number, err)
		}
		if b.AdvancesTime {
			if err := stakeAdvance(txn, ts); err != nil {
				return fmt.Errorf("P-chain staking figures at block %d: %w", b.Number, err)
			}
		}
	}
	if err := emitL1Events(txn, b, ts, l1AtAdvance, nil); err != nil {
		return fmt.Errorf("P-chain block %d L1 validator events: %w", b.Number, err)
	}
	if err := writePrimaryBlock(txn, net, w.chain, b, ts); err != nil {
		return err
	}
	if err := emitL1Events(txn, b, ts, l1AtEnd, nil); err != nil {
		return fmt.Errorf("P-chain block %d L1 validator events: %w", b.Number, err)
	}
	if w.chain == netinfo.P {
		if err := stakeBlockEnd(txn, b, ts); err != nil {
			return fmt.Errorf("P-chain staking figures at block %d: %w", b.Number, err)
		}
	}
	if err := writePrimaryBurns(txn, net, b); err != nil {
		return fmt.Errorf("%s burns at block %d: %w", w.chain, b.Number, err)
	}
	return nil
}

func (w *PrimaryWriter) writeGenesis(txn *blockTxn, net *PrimaryNetwork, g *pdata.Block) error {
	if g.Number != 0 {
		return fmt.Errorf("%s genesis block has height %d", w.chain, g.Number)
	}
	if len(g.Txs) >= int(dagTxIndexBase) {
		// The X-chain's DAG txs follow the genesis txs at height 0.
		return fmt.Errorf("%s genesis block has %d txs, more than the %d positions kept for them",
			w.chain, len(g.Txs), dagTxIndexBase)
	}
	ts := g.Timestamp
	if ts == 0 {
		ts = net.GenesisTime
	}
	if w.chain == netinfo.P {
		genesisSupply(txn, net, g)
		if err := stakeGenesis(txn, g, ts); err != nil {
			return fmt.Errorf("the genesis staking figures: %w", err)
		}
		if err := writePrimaryNetworkRegistry(txn, ts); err != nil {
			return fmt.Errorf("writing the primary network: %w", err)
		}
	}
	if err := writePrimaryBlock(txn, net, w.chain, g, ts); err != nil {
		return fmt.Errorf("writing %s genesis: %w", w.chain, err)
	}
	return nil
}

// resolveTime returns b's time: its own, or for a block that carries none
// (Apricot P-chain blocks) the chain time, which the previous block set
// (its time, or the NextChainTime a committed AdvanceTimeTx gave it).
func (w *PrimaryWriter) resolveTime(txn *blockTxn, net *PrimaryNetwork, b *pdata.Block) (int64, error) {
	ts := b.Timestamp
	if ts == 0 {
		if !txn.chainTimeKnown {
			t, err := w.chainTimeBefore(txn, net, b.Number)
			if err != nil {
				return 0, err
			}
			txn.chainTime = t
		}
		ts = txn.chainTime
	}
	txn.chainTime, txn.chainTimeKnown = ts, true
	if b.NextChainTime != 0 {
		txn.chainTime = b.NextChainTime
	}
	return ts, nil
}

// chainTimeBefore is the chain time before block height, for the first
// block of a transaction: the genesis time before block 1, else what the
// stored previous block left (the cursor's time when its row is missing).
func (w *PrimaryWriter) chainTimeBefore(txn *blockTxn, net *PrimaryNetwork, height uint64) (int64, error) {
	if height <= 1 {
		return net.GenesisTime, nil
	}
	prev, err := previousBlock(txn, height)
	if err != nil {
		return 0, fmt.Errorf("the chain time: %w", err)
	}
	if prev == nil {
		return txn.cursor.LastBlockTs, nil
	}
	if prev.NextChainTime != 0 {
		return prev.NextChainTime, nil
	}
	return prev.Time, nil
}

// writePrimaryBlock writes a P/X block record stamped ts, its ID and
// proposer rows and its txs; P-chain txs also write their staker and reward rows (genesis
// validators included: the genesis block comes through here too).
func writePrimaryBlock(txn *blockTxn, net *PrimaryNetwork, chain netinfo.Chain, b *pdata.Block, ts int64) error {
	var supply *uint64
	var l1 *pdata.L1FeeState
	if chain == netinfo.P {
		supply, l1 = txn.supply.after(), txn.l1fees.after()
	}
	if err := txn.set(blockKey(chain, b.Number), encodeBlock(b, ts, supply, l1)); err != nil {
		return err
	}
	if err := writeBlockID(txn, chain, b); err != nil {
		return err
	}
	if b.Proposer != nil && b.Proposer.NodeID != ids.EmptyNodeID {
		if err := txn.set(proposerKey(chain, b.Proposer.NodeID, b.Number), nil); err != nil {
			return err
		}
	}
	for i, tx := range b.Txs {
		at := txPlace{chain: chain, pos: pdata.TxPos{Height: b.Number, Index: uint32(i)}, block: b.ID, time: ts}
		if err := writePrimaryTx(txn, net, at, tx); err != nil {
			return fmt.Errorf("tx %s: %w", tx.ID, err)
		}
		if chain == netinfo.P && b.Number > 0 {
			if err := stakeTx(txn, b, b.Durango, tx, ts); err != nil {
				return fmt.Errorf("tx %s staking figures: %w", tx.ID, err)
			}
		}
		if chain == netinfo.P {
			if err := writeStaking(txn, at, tx); err != nil {
				return fmt.Errorf("tx %s staking: %w", tx.ID, err)
			}
			if err := writeL1Validations(txn, tx); err != nil {
				return fmt.Errorf("tx %s: %w", tx.ID, err)
			}
			if err := writeRegistry(txn, at, tx); err != nil {
				return fmt.Errorf("tx %s: %w", tx.ID, err)
			}
			if err := writeL1Weights(txn, tx); err != nil {
				return fmt.Errorf("tx %s: %w", tx.ID, err)
			}
			if err := emitL1Events(txn, b, ts, l1AtTx, tx); err != nil {
				return fmt.Errorf("tx %s: %w", tx.ID, err)
			}
		}
	}
	return nil
}
