package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// EVMWriter writes one EVM chain's blocks: transactions with their receipts,
// the address and token indexes, transfers, internal transactions,
// deployments, contracts seen and NFT ownership.
type EVMWriter struct {
	s     *Store
	chain netinfo.Chain
}

// EVMWriter returns chain's writer.
func (s *Store) EVMWriter(chain netinfo.Chain) *EVMWriter { return &EVMWriter{s: s, chain: chain} }

// Cursor is the block stream's cursor.
func (w *EVMWriter) Cursor(ctx context.Context) (Cursor, error) {
	return w.s.Cursor(ctx, w.chain, StreamBlocks)
}

// Start makes the stream, never written yet, begin at height first.
func (w *EVMWriter) Start(ctx context.Context, first uint64) error {
	return w.s.StartStream(ctx, w.chain, StreamBlocks, first)
}

// Apply writes blocks (consecutive heights from the cursor) with the advanced
// cursor. NFT holdings are running state, correct because every transaction
// commits whole blocks together with the cursor (never twice, never half).
func (w *EVMWriter) Apply(ctx context.Context, blocks []*evmdata.Block, now time.Time) error {
	return commitBlocks(ctx, w.s, w.chain, StreamBlocks, blocks, now, w.writeBlock)
}

func (w *EVMWriter) writeBlock(txn *blockTxn, b *evmdata.Block) error {
	derived, err := deriveBlock(txn, w.chain, b)
	if err != nil {
		return err
	}
	if err := txn.set(newKey(tagEVMBlock, w.chain).u64(b.Number), encodeEVMBlock(b, derived)); err != nil {
		return err
	}
	if err := txn.set(blockHashKey(w.chain, b.Hash), key{}.u64(b.Number)); err != nil {
		return err
	}
	for j := range b.Txs {
		i := inOrder(txn, j, len(b.Txs))
		if err := w.writeTx(txn, b.Number, &b.Txs[i]); err != nil {
			return fmt.Errorf("tx %s: %w", b.Txs[i].Hash, err)
		}
	}
	// The webhooks' events, after the txs' rows: the tokens the block
	// reveals have their contract rows. No webhook, or a back-fill: nothing.
	if cw := txn.webhookWatches(); cw != nil {
		if err := w.emitAddressActivity(txn, cw, b); err != nil {
			return err
		}
	}
	if err := txn.lists.flush(txn); err != nil {
		return err
	}
	if skip, err := txn.skipRunningState(); err != nil {
		return err
	} else if !skip { // a back-fill's re-derive counts the block (backfill.go)
		if err := txn.applyMetrics(b, b.Number > max(txn.cursor.FirstHeight, 1)); err != nil {
			return fmt.Errorf("the metric rows: %w", err)
		}
	}
	// C-chain atomic txs go to the primary-network rows (primarytx.go).
	net := w.s.network()
	if err := writeAtomicTxs(txn, net, w.chain, b); err != nil {
		return err
	}
	if txn.downward {
		return nil // the re-derive writes the burns from genesis on (backfillburns.go)
	}
	if err := loadBurns(txn, net, b.Number); err != nil {
		return err
	}
	if err := writeCBurns(txn, net, b, derived.FeesSpent); err != nil {
		return fmt.Errorf("%s burns at block %d: %w", w.chain, b.Number, err)
	}
	return nil
}

func (w *EVMWriter) writeTx(txn *blockTxn, height uint64, tx *evmdata.Tx) error {
	pos := wholeKey(14, tagEVMTx, w.chain).u64(height).u32(tx.Index)
	if err := txn.set(pos, encodeEVMTx(tx)); err != nil {
		return err
	}
	at := pos[2:] // height(8) | index(4); never appended to
	if err := txn.set(wholeKey(34, tagEVMHash, w.chain).hash(tx.Hash), at); err != nil {
		return err
	}
	if !tx.Succeeded() { // the succeeded ones list from the tx rows (LatestEVMTxs)
		if err := txn.set(statusKey(w.chain, tx.Status, height, tx.Index), nil); err != nil {
			return err
		}
	}
	// The native parties (sender, recipient, created contract) have their
	// native activity rows (0x95); the other parties a 0x82 row. AddressTxs
	// merges the two.
	var parties [fewParties]common.Address
	native := nativeParties(tx, parties[:0])
	for _, addr := range involvedAddresses(tx, native)[len(native):] {
		txn.lists.add(txn.lists.listKey(tagEVMAddr, w.chain).addr(addr).u64(height), 4, uint64(tx.Index))
	}
	for _, a := range native {
		k := append(txn.lists.listKey(tagActivity, w.chain).addr(a), activityNative)
		txn.lists.add(key(k).u64(height), 4, uint64(tx.Index))
	}
	for j := range tx.Transfers {
		i := inOrder(txn, j, len(tx.Transfers))
		if err := w.writeTransfer(txn, height, tx, &tx.Transfers[i]); err != nil {
			return err
		}
	}
	for i := range tx.Internal {
		k := newKey(tagEVMITx, w.chain).bytes(at).u32(tx.Internal[i].Index)
		if err := txn.set(k, encodeInternal(&tx.Internal[i])); err != nil {
			return err
		}
		if err := w.writeInternalActivity(txn, height, tx.Index, &tx.Internal[i]); err != nil {
			return err
		}
	}
	if !tx.Succeeded() {
		return nil // a reverted tx deployed nothing
	}
	return w.writeCreations(txn, height, tx)
}

func (w *EVMWriter) writeTransfer(txn *blockTxn, height uint64, tx *evmdata.Tx, t *evmdata.TokenTransfer) error {
	xfer := wholeKey(16, tagEVMXfer, w.chain).u64(height).u32(t.LogIndex).u16(t.BatchIndex)
	if err := txn.set(xfer, encodeTransfer(tx.Index, tx.Hash, t)); err != nil {
		return err
	}
	txn.lists.add(txn.lists.listKey(tagEVMToken, w.chain).addr(t.Token).u64(height), 6, transferRest(t))
	if err := w.writeTransferActivity(txn, height, t); err != nil {
		return err
	}
	if err := w.noteContract(txn, t.Token, t.Kind); err != nil {
		return err
	}
	if skip, err := txn.skipRunningState(); err != nil || skip {
		return err // a back-fill's re-derive writes the NFT moves (backfill.go)
	}
	switch t.Kind {
	case evmdata.Erc721:
		return w.move721(txn, height, t)
	case evmdata.Erc1155:
		return w.move1155(txn, height, t)
	default:
		return nil
	}
}

func (w *EVMWriter) writeCreations(txn *blockTxn, height uint64, tx *evmdata.Tx) error {
	for j := range tx.Creations {
		c := tx.Creations[inOrder(txn, j, len(tx.Creations))]
		d := evmdata.Deployment{
			ContractCreation: c,
			TxHash:           tx.Hash,
			TxPos:            evmdata.TxPos{Block: height, Index: tx.Index},
			Factory:          c.DeployerContract != (common.Address{}),
		}
		if err := setNewest(txn, newKey(tagDeploy, w.chain).addr(c.Address), encodeDeployment(&d)); err != nil {
			return err
		}
		if err := w.writeDeployerRows(txn, height, tx.Index, &c); err != nil {
			return err
		}
		if err := w.noteContract(txn, c.Address, evmdata.ErcUnknown); err != nil {
			return err
		}
	}
	return nil
}

// noteContract records a contract the first time it is seen (and its token
// standard once a transfer reveals it) and queues it for the background task
// that reads its name, symbol and decimals from the chain.
func (w *EVMWriter) noteContract(txn *blockTxn, addr common.Address, kind evmdata.ErcType) error {
	// The transaction remembers the kind each contract row it read or
	// wrote holds: a block's transfers of one token read it once.
	if held, ok := txn.contractKinds[addr]; ok && keepsContractKind(txn, held, kind) {
		return nil
	}
	k := newKey(tagContract, w.chain).addr(addr)
	v, err := txn.get(k)
	if err != nil {
		return err
	}
	c := evmdata.Contract{Address: addr}
	if v != nil {
		if c, err = decodeContract(addr, v); err != nil {
			return err
		}
		if keepsContractKind(txn, c.Kind, kind) {
			txn.noteContractKind(addr, c.Kind)
			return nil
		}
	}
	c.Kind = kind
	txn.noteContractKind(addr, kind)
	if err := txn.set(k, encodeContract(&c)); err != nil {
		return err
	}
	if c.MetadataRead {
		return nil
	}
	return txn.set(newKey(tagMetaQ, w.chain).addr(addr), nil)
}

// nativeParties appends to out a tx's sender, recipient and created
// contract, once each, but the zero address.
func nativeParties(tx *evmdata.Tx, out []common.Address) []common.Address {
	for _, a := range [3]*common.Address{&tx.From, tx.To, tx.ContractAddress} {
		if a != nil && *a != (common.Address{}) && !slices.Contains(out, *a) {
			out = append(out, *a)
		}
	}
	return out
}

// fewParties is how many addresses of a tx a linear scan dedups faster
// than a map, and how many a tx's list of them holds before it allocates:
// most txs involve fewer.
const fewParties = 8

// involvedAddresses appends to out (addresses already listed, once each)
// every address a tx involves that out does not hold, once each: sender,
// recipient, deployed contract, token senders and receivers, internal
// senders and receivers. The zero address (mints, burns) is left out: it
// would index every mint of the chain.
func involvedAddresses(tx *evmdata.Tx, out []common.Address) []common.Address {
	var seen map[common.Address]bool // past a few addresses; a linear scan before
	add := func(a common.Address) {
		if a == (common.Address{}) {
			return
		}
		if seen == nil && len(out) >= fewParties {
			seen = make(map[common.Address]bool, 2*len(out))
			for _, o := range out {
				seen[o] = true
			}
		}
		if seen != nil {
			if seen[a] {
				return
			}
			seen[a] = true
		} else if slices.Contains(out, a) {
			return
		}
		out = append(out, a)
	}
	add(tx.From)
	if tx.To != nil {
		add(*tx.To)
	}
	if tx.ContractAddress != nil {
		add(*tx.ContractAddress)
	}
	for _, t := range tx.Transfers {
		add(t.From)
		add(t.To)
	}
	for _, t := range tx.Internal {
		add(t.From)
		add(t.To)
	}
	return out
}

// inOrder is the j-th of n items (txs, transfers, creations of a block) in
// the order txn writes them: the block's order, reversed when it
// back-fills newest first (backfill.go).
func inOrder(txn *blockTxn, j, n int) int {
	if txn.downward {
		return n - 1 - j
	}
	return j
}

// setNewest writes a row that holds what the newest block says (a
// from-genesis build overwrites it block after block): a back-fill, which
// writes older blocks than those held, writes it only where absent.
func setNewest(txn *blockTxn, k, v []byte) error {
	if txn.downward {
		if held, err := txn.has(k); err != nil || held {
			return err
		}
	}
	return txn.set(k, v)
}

// keepsContractKind says whether a contract row holding kind held stays as
// it is when a transfer (or creation: ErcUnknown) reveals kind seen.
func keepsContractKind(txn *blockTxn, held, seen evmdata.ErcType) bool {
	// The first transfer that reveals the standard says it; a back-fill
	// writes newest first, so its last write is the oldest (backfill.go).
	return seen == evmdata.ErcUnknown || held == seen || (held != evmdata.ErcUnknown && !txn.downward)
}

func (w *blockTxn) noteContractKind(addr common.Address, kind evmdata.ErcType) {
	if w.contractKinds == nil {
		w.contractKinds = map[common.Address]evmdata.ErcType{}
	}
	w.contractKinds[addr] = kind
}
