package pdata

import (
	"github.com/ava-labs/avalanchego/ids"
)

// UTXOQuery selects the UTXOs a chain holds (in its own UTXO set or its
// atomic memory) for any of some addresses (getUtxosByAddresses).
type UTXOQuery struct {
	Addresses []ids.ShortID
	// Asset, when set, keeps the UTXOs of that asset.
	Asset *ids.ID
	// MinAmount keeps the UTXOs of at least this amount.
	MinAmount uint64
	// IncludeSpent lists consumed UTXOs too; else only unspent ones.
	IncludeSpent bool
	// ByAmount orders by amount; else by creation time. Ties go by UTXO ID.
	ByAmount bool
	Desc     bool
	// After continues a listing after this position (exclusive).
	After *UTXOPos
	Limit int
	// MaxScanned bounds the rows one call reads when filters (Asset,
	// MinAmount on a listing by time) drop most of them; the call then
	// ends early, with a position to go on from (0: no bound).
	MaxScanned int
}

// UTXOPos is a UTXO's place in a listing: its sort key (creation time or
// amount), then its ID.
type UTXOPos struct {
	Key  uint64
	UTXO ids.ID
}

// UTXOPage is one call's part of a UTXO listing. Next, when set, is where
// the listing goes on (more UTXOs may follow); nil at the end.
type UTXOPage struct {
	UTXOs []IndexedUTXO
	Next  *UTXOPos
}

// AddressActivity is the newest tx of a chain that involves an address
// (getLastActivityTimestampByAddresses), with one UTXO of the address that
// the tx created or consumed.
type AddressActivity struct {
	TxID   ids.ID
	Height uint64
	Time   int64
	UTXO   ids.ID
	// Consumed says the tx consumed UTXO (else it created it).
	Consumed bool
}
