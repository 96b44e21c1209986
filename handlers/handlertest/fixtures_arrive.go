package handlertest

import (
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Arrive indexes a new transaction of Alice's at height and moves the
// C-chain follower there.
func Arrive(backend *Fakes, height uint64) {
	tx := evmdata.Tx{Hash: TxHashN(1000 + height), From: Alice, To: AddrPtr(Bob), Value: Avax(1), Status: 1}
	backend.EVM.AddTx(netinfo.C, evmdata.IndexedTx{Block: BlockRef(height), Tx: tx, Traced: true})
	backend.SetIndexedHeight(netinfo.C, height)
}
