package store

import (
	"fmt"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Row codecs of UTXOs: creation (0x20), consumption (0x21) and the balance
// rows of their owners (0x22). A UTXO's creation and consumption may be
// written by different chains' writers in either order, so they are separate
// rows; a balance row is derived from the two (balanceOf) and rewritten
// whenever either changes.

// utxoRow is a UTXO's creation.
type utxoRow struct {
	pdata.UTXO
	CreatedOn  netinfo.Chain
	CreatingTx ids.ID
	Height     uint64
	Time       int64
	// Hold is the chain whose balances hold the UTXO (noChain: none
	// followed); Atomic says it sits in Hold's atomic memory, exported from
	// the chain Source.
	Hold   netinfo.Chain
	Atomic bool
	Source ids.ID
	// Unstaked says a stake UTXO's staking period ended at UnstakedTime.
	Unstaked     bool
	UnstakedTime int64
}

func encodeUTXO(u *utxoRow) []byte {
	w := rowWriter{buf: make([]byte, 0, 160+len(u.Bytes)+len(u.Payload)+20*len(u.Owners.Addrs))}
	w.byte(rowVersion1)
	w.byte(byte(u.CreatedOn))
	w.id(u.CreatingTx)
	w.uint(u.Height)
	w.int(u.Time)
	w.byte(byte(u.Hold))
	w.bool(u.Atomic)
	if u.Atomic {
		w.id(u.Source)
	}
	w.bool(u.Unstaked)
	w.int(u.UnstakedTime)
	// The UTXO ID's tx is the creating tx but for rewards and returned
	// stake: store it only then.
	w.bool(u.TxID != u.CreatingTx)
	if u.TxID != u.CreatingTx {
		w.id(u.TxID)
	}
	w.uint(uint64(u.OutputIndex))
	w.id(u.Asset)
	w.uint(u.Amount)
	w.uint(uint64(u.Owners.Threshold))
	w.uint(u.Owners.Locktime)
	writeShortIDs(&w, u.Owners.Addrs)
	w.uint(u.StakeableLocktime)
	w.bytes(u.Bytes)
	w.string(u.OutputType)
	w.byte(byte(u.Kind))
	w.string(u.RewardType)
	w.int(u.StakeStart)
	w.int(u.StakeEnd)
	w.bool(u.Exported)
	w.id(u.DestinationChain)
	w.bytes(u.Payload)
	w.uint(uint64(u.GroupID))
	return w.buf
}

func decodeUTXO(id ids.ID, v []byte) (utxoRow, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return utxoRow{}, fmt.Errorf("utxo row version %d", ver)
	}
	u := utxoRow{UTXO: pdata.UTXO{ID: id}}
	u.CreatedOn = netinfo.Chain(r.byte())
	u.CreatingTx = r.id()
	u.Height = r.uint()
	u.Time = r.int()
	u.Hold = netinfo.Chain(r.byte())
	if u.Atomic = r.bool(); u.Atomic {
		u.Source = r.id()
	}
	u.Unstaked = r.bool()
	u.UnstakedTime = r.int()
	u.TxID = u.CreatingTx
	if r.bool() {
		u.TxID = r.id()
	}
	u.OutputIndex = uint32(r.uint())
	u.Asset = r.id()
	u.Amount = r.uint()
	u.Owners.Threshold = uint32(r.uint())
	u.Owners.Locktime = r.uint()
	u.Owners.Addrs = readShortIDs(&r)
	u.StakeableLocktime = r.uint()
	u.Bytes = r.bytes()
	u.OutputType = r.string()
	u.Kind = pdata.UTXOKind(r.byte())
	u.RewardType = r.string()
	u.StakeStart = r.int()
	u.StakeEnd = r.int()
	u.Exported = r.bool()
	u.DestinationChain = r.id()
	u.Payload = r.bytes()
	u.GroupID = uint32(r.uint())
	return u, r.done()
}

// spentRow is a UTXO's consumption.
type spentRow struct {
	Chain  netinfo.Chain
	Tx     ids.ID
	Height uint64
	Time   int64
}

func encodeSpent(s *spentRow) []byte {
	w := rowWriter{buf: make([]byte, 0, 48)}
	w.byte(rowVersion1)
	w.byte(byte(s.Chain))
	w.id(s.Tx)
	w.uint(s.Height)
	w.int(s.Time)
	return w.buf
}

func decodeSpent(v []byte) (spentRow, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return spentRow{}, fmt.Errorf("spent row version %d", ver)
	}
	s := spentRow{Chain: netinfo.Chain(r.byte()), Tx: r.id(), Height: r.uint(), Time: r.int()}
	return s, r.done()
}

// balanceRow is what classifying a UTXO into a balance category at any time
// needs, kept under each owner so that a balance reads one key range.
type balanceRow struct {
	Asset             ids.ID
	Amount            uint64
	Created           int64
	Consumed          bool
	ConsumedTime      int64
	PlatformLocktime  uint64
	StakeableLocktime uint64
	Stake             bool // a staking tx's stake output
	StakeStart        int64
	StakeEnd          int64
	Unstaked          bool
	UnstakedTime      int64
	Atomic            bool // in the holding chain's atomic memory
	Source            ids.ID
}

// balanceOf derives the balance row of u, consumed as spent says (nil: not
// consumed).
func balanceOf(u *utxoRow, spent *spentRow) balanceRow {
	b := balanceRow{
		Asset: u.Asset, Amount: u.Amount, Created: u.Time,
		PlatformLocktime: u.Owners.Locktime, StakeableLocktime: u.StakeableLocktime,
		Stake: u.Kind == pdata.KindStake, StakeStart: u.StakeStart, StakeEnd: u.StakeEnd,
		Unstaked: u.Unstaked, UnstakedTime: u.UnstakedTime,
		Atomic: u.Atomic, Source: u.Source,
	}
	if spent != nil {
		b.Consumed, b.ConsumedTime = true, spent.Time
	}
	return b
}

// Flags of a balance row.
const (
	balConsumed byte = 1 << iota
	balStake
	balUnstaked
	balAtomic
)

func encodeBalance(b *balanceRow) []byte {
	w := rowWriter{buf: make([]byte, 0, 96)}
	w.byte(rowVersion1)
	w.byte(flag(b.Consumed, balConsumed) | flag(b.Stake, balStake) | flag(b.Unstaked, balUnstaked) | flag(b.Atomic, balAtomic))
	w.id(b.Asset)
	w.uint(b.Amount)
	w.int(b.Created)
	w.uint(b.PlatformLocktime)
	w.uint(b.StakeableLocktime)
	if b.Consumed {
		w.int(b.ConsumedTime)
	}
	if b.Stake {
		w.int(b.StakeStart)
		w.int(b.StakeEnd)
	}
	if b.Unstaked {
		w.int(b.UnstakedTime)
	}
	if b.Atomic {
		w.id(b.Source)
	}
	return w.buf
}

func decodeBalance(v []byte) (balanceRow, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return balanceRow{}, fmt.Errorf("balance row version %d", ver)
	}
	flags := r.byte()
	b := balanceRow{
		Consumed: flags&balConsumed != 0, Stake: flags&balStake != 0,
		Unstaked: flags&balUnstaked != 0, Atomic: flags&balAtomic != 0,
	}
	b.Asset = r.id()
	b.Amount = r.uint()
	b.Created = r.int()
	b.PlatformLocktime = r.uint()
	b.StakeableLocktime = r.uint()
	if b.Consumed {
		b.ConsumedTime = r.int()
	}
	if b.Stake {
		b.StakeStart = r.int()
		b.StakeEnd = r.int()
	}
	if b.Unstaked {
		b.UnstakedTime = r.int()
	}
	if b.Atomic {
		b.Source = r.id()
	}
	return b, r.done()
}

func flag(on bool, bit byte) byte {
	if on {
		return bit
	}
	return 0
}
