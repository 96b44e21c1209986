package store

import (
	"fmt"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Row codecs of primary-network txs (0x10), blocks (0x40) and assets (0x13).
// A tx row keeps the signed bytes and only what the bytes cannot tell: where
// the tx sits and which UTXOs it consumed, produced and unstaked (a proposal
// tx's effects depend on its option, a reward tx's on node state). The
// reader re-decodes the bytes for everything else.

// ptxRecord is a stored primary-network tx.
type ptxRecord struct {
	Chain    netinfo.Chain
	Pos      pdata.TxPos
	BlockID  ids.ID
	Time     int64
	Outcome  pdata.Outcome
	Type     string
	Bytes    []byte
	Consumed []ids.ID
	Produced []ids.ID
	Unstaked []ids.ID
}

func encodePTx(r *ptxRecord) []byte {
	w := rowWriter{buf: make([]byte, 0, 64+len(r.Bytes)+32*(len(r.Consumed)+len(r.Produced)+len(r.Unstaked)))}
	w.byte(rowVersion1)
	w.byte(byte(r.Chain))
	w.uint(r.Pos.Height)
	w.uint(uint64(r.Pos.Index))
	w.id(r.BlockID)
	w.int(r.Time)
	w.byte(byte(r.Outcome))
	w.string(r.Type)
	w.bytes(r.Bytes)
	for _, list := range [][]ids.ID{r.Consumed, r.Produced, r.Unstaked} {
		writeIDs(&w, list)
	}
	return w.buf
}

func decodePTx(v []byte) (ptxRecord, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return ptxRecord{}, fmt.Errorf("primary tx row version %d", ver)
	}
	var t ptxRecord
	t.Chain = netinfo.Chain(r.byte())
	t.Pos.Height = r.uint()
	t.Pos.Index = uint32(r.uint())
	t.BlockID = r.id()
	t.Time = r.int()
	t.Outcome = pdata.Outcome(r.byte())
	t.Type = r.string()
	t.Bytes = r.bytes()
	t.Consumed = readIDs(&r)
	t.Produced = readIDs(&r)
	t.Unstaked = readIDs(&r)
	return t, r.done()
}

// blockRecord is a stored P/X block: the Data API's block fields (with the
// P-chain supply and L1 validator fee state after it), and the chain time after it (Apricot blocks
// that follow take it).
type blockRecord struct {
	pdata.IndexedBlock
	NextChainTime int64
	TxCount       int
}

// Proposer flags: most proposer fields repeat the block's own (the outer
// block is the block), so they are stored only when they differ.
const (
	propPresent byte = 1 << iota
	propOwnID
	propOwnParent
)

func encodeBlock(b *pdata.Block, time int64, supply *uint64, l1 *pdata.L1FeeState) []byte {
	w := rowWriter{buf: make([]byte, 0, 128)}
	w.byte(rowVersion1)
	w.id(b.ID)
	w.id(b.ParentID)
	w.int(time)
	w.int(b.NextChainTime)
	w.string(b.Type)
	w.uint(uint64(b.Size))
	w.uint(uint64(len(b.Txs)))
	w.bool(supply != nil)
	if supply != nil {
		w.uint(*supply)
	}
	w.bool(l1 != nil)
	if l1 != nil {
		w.uint(l1.AccruedFees)
		w.uint(l1.Excess)
		w.uint(l1.ActiveL1Validators)
	}
	p := b.Proposer
	if p == nil {
		w.byte(0)
		return w.buf
	}
	flags := propPresent
	if p.ID != b.ID {
		flags |= propOwnID
	}
	if p.ParentID != b.ParentID {
		flags |= propOwnParent
	}
	w.byte(flags)
	if flags&propOwnID != 0 {
		w.id(p.ID)
	}
	if flags&propOwnParent != 0 {
		w.id(p.ParentID)
	}
	w.raw(p.NodeID.Bytes())
	w.uint(p.PChainHeight)
	w.int(p.Timestamp)
	return w.buf
}

func decodeBlock(chain netinfo.Chain, height uint64, v []byte) (blockRecord, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return blockRecord{}, fmt.Errorf("block row version %d", ver)
	}
	b := blockRecord{IndexedBlock: pdata.IndexedBlock{Chain: chain, Number: height}}
	b.ID = r.id()
	b.ParentID = r.id()
	b.Time = r.int()
	b.NextChainTime = r.int()
	b.Type = r.string()
	b.Size = int(r.uint())
	b.TxCount = int(r.uint())
	if r.bool() {
		supply := r.uint()
		b.CurrentSupply = &supply
	}
	if r.bool() {
		b.L1Fees = &pdata.L1FeeState{AccruedFees: r.uint(), Excess: r.uint(), ActiveL1Validators: r.uint()}
	}
	flags := r.byte()
	if flags&propPresent != 0 {
		p := &pdata.Proposer{ID: b.ID, ParentID: b.ParentID}
		if flags&propOwnID != 0 {
			p.ID = r.id()
		}
		if flags&propOwnParent != 0 {
			p.ParentID = r.id()
		}
		p.NodeID = ids.NodeID(r.shortID())
		p.PChainHeight = r.uint()
		p.Timestamp = r.int()
		b.Proposer = p
	}
	return b, r.done()
}

func encodeAsset(a *pdata.Asset) []byte {
	w := rowWriter{buf: make([]byte, 0, 48)}
	w.byte(rowVersion1)
	w.string(a.Name)
	w.string(a.Symbol)
	w.byte(a.Denomination)
	w.string(a.Type)
	return w.buf
}

func decodeAsset(id ids.ID, v []byte) (pdata.Asset, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return pdata.Asset{}, fmt.Errorf("asset row version %d", ver)
	}
	a := pdata.Asset{ID: id, Name: r.string(), Symbol: r.string(), Denomination: r.byte(), Type: r.string()}
	return a, r.done()
}
