package explorer

import (
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/crypto"
)

// The events whose topic0 the tx page names: the token standards' and the
// warp precompile's. Anything else shows its topics only: avadata keeps no
// signature database. ERC-20 and ERC-721 share Transfer's and Approval's
// signature (they differ only in which arguments are indexed), so one name
// serves both.

// wellKnownEvents are the event signatures the tx page names.
func wellKnownEvents() []string {
	return []string{
		"Transfer(address,address,uint256)",
		"Approval(address,address,uint256)",
		"ApprovalForAll(address,address,bool)",
		"TransferSingle(address,address,address,uint256,uint256)",
		"TransferBatch(address,address,address,uint256[],uint256[])",
		// The warp precompile's, on every chain that sends warp messages.
		"SendWarpMessage(address,bytes32,bytes)",
	}
}

// eventTable maps topic0 to its event's signature. It is built once per
// server and only read afterwards.
type eventTable map[common.Hash]string

func newEventTable() eventTable {
	table := make(eventTable, len(wellKnownEvents()))
	for _, sig := range wellKnownEvents() {
		table[crypto.Keccak256Hash([]byte(sig))] = sig
	}
	return table
}
