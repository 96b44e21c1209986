package evmdata

import (
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
)

// Log is one event log of a receipt, as the node gave it. The parser keeps
// the receipt's own decoded logs on the tx (the node's JSON decodes straight
// into this type), so keeping them costs no copy: the webhooks send them
// (includeLogs) and filter by their first topic (eventSignatures).
type Log struct {
	Address common.Address `json:"address"`
	Topics  []common.Hash  `json:"topics"`
	Data    hexutil.Bytes  `json:"data"`
	// LogIndex is block-global, as in receipts.
	LogIndex hexutil.Uint64 `json:"logIndex"`
	Removed  bool           `json:"removed"`
}
