package store

import (
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The rows behind an address's typed histories and token balances, and the
// lookups by deployer and block hash (keys.go 0x95-0x98). Each is written
// with the block it comes from, so the readers find exactly the rows of the
// blocks the cursor covers.

// activityPrefix is the 0x95 prefix of addr's rows of one kind.
func activityPrefix(chain netinfo.Chain, addr common.Address, kind byte) key {
	return newKey(tagActivity, chain).addr(addr).bytes([]byte{kind})
}

// transferRest is a transfer position's part after the height: log(4) |
// batch(2).
func transferRest(t *evmdata.TokenTransfer) uint64 {
	return uint64(t.LogIndex)<<16 | uint64(t.BatchIndex)
}

// activityRestWidth is the width of a 0x95 position's part after the
// height for kind: a tx index, a log | batch, or a tx index | frame.
func activityRestWidth(kind byte) int {
	switch kind {
	case activityNative:
		return 4
	case activityInternal:
		return 8
	default:
		return 6
	}
}

// activityKind is the 0x95 kind of a token standard's transfers.
func activityKind(e evmdata.ErcType) (byte, bool) {
	switch e {
	case evmdata.Erc20:
		return activityErc20, true
	case evmdata.Erc721:
		return activityErc721, true
	case evmdata.Erc1155:
		return activityErc1155, true
	default:
		return 0, false
	}
}

// addrTokenPrefix is the 0x96 prefix of the tokens addr has transfers of.
func addrTokenPrefix(chain netinfo.Chain, addr common.Address) key {
	return newKey(tagAddrTok, chain).addr(addr)
}

// tokenPartyPrefix is the 0x9F prefix of the addresses with transfers of token.
func tokenPartyPrefix(chain netinfo.Chain, token common.Address) key {
	return newKey(tagTokAddr, chain).addr(token)
}

// deployerPrefix is the 0x97 prefix of the contracts deployer made.
func deployerPrefix(chain netinfo.Chain, deployer common.Address) key {
	return newKey(tagDeployBy, chain).addr(deployer)
}

func blockHashKey(chain netinfo.Chain, hash common.Hash) []byte {
	return newKey(tagEVMBHash, chain).hash(hash)
}

// writeTransferActivity writes the rows of a token transfer for its sender
// and receiver (the zero address of a mint or burn has none): the typed
// history row and the address-token row and its reverse.
func (w *EVMWriter) writeTransferActivity(txn *blockTxn, height uint64, t *evmdata.TokenTransfer) error {
	kind, ok := activityKind(t.Kind)
	if !ok {
		return nil
	}
	for i, a := range [2]common.Address{t.From, t.To} {
		if a == (common.Address{}) || (i == 1 && a == t.From) { // a transfer to oneself is one row
			continue
		}
		k := append(txn.lists.listKey(tagActivity, w.chain).addr(a), kind)
		txn.lists.add(key(k).u64(height), 6, transferRest(t))
		if txn.addrTokenWritten(a, t.Token, byte(t.Kind)) {
			continue // the same row (a sender's transfers of one token)
		}
		if err := setNewest(txn, wholeKey(42, tagAddrTok, w.chain).addr(a).addr(t.Token), []byte{byte(t.Kind)}); err != nil {
			return err
		}
		if err := setNewest(txn, wholeKey(42, tagTokAddr, w.chain).addr(t.Token).addr(a), []byte{byte(t.Kind)}); err != nil {
			return err
		}
	}
	return nil
}

// writeInternalActivity writes the rows of an internal tx for its sender
// and receiver.
func (w *EVMWriter) writeInternalActivity(txn *blockTxn, height uint64, txIndex uint32, t *evmdata.InternalTx) error {
	for i, a := range [2]common.Address{t.From, t.To} {
		if a == (common.Address{}) || (i == 1 && a == t.From) {
			continue
		}
		k := append(txn.lists.listKey(tagActivity, w.chain).addr(a), activityInternal)
		txn.lists.add(key(k).u64(height), 8, uint64(txIndex)<<32|uint64(t.Index))
	}
	return nil
}

// writeDeployerRows writes the 0x97 rows of a creation: under the tx's
// sender, and for a contract-made one under the creating contract too.
func (w *EVMWriter) writeDeployerRows(txn *blockTxn, height uint64, txIndex uint32, c *evmdata.ContractCreation) error {
	for _, d := range [2]common.Address{c.Deployer, c.DeployerContract} {
		if d == (common.Address{}) {
			continue
		}
		if err := txn.set(deployerPrefix(w.chain, d).u64(height).u32(txIndex).addr(c.Address), nil); err != nil {
			return err
		}
	}
	return nil
}

// addrTokenWritten says whether the transaction already wrote addr's 0x96
// row of token with kind, the value it would write now (writing it again
// changes nothing), and notes that it writes it otherwise.
func (w *blockTxn) addrTokenWritten(addr, token common.Address, kind byte) bool {
	var k [2 * common.AddressLength]byte
	copy(k[:], addr[:])
	copy(k[common.AddressLength:], token[:])
	if held, ok := w.addrTokens[k]; ok && held == kind {
		return true
	}
	if w.addrTokens == nil {
		w.addrTokens = map[[2 * common.AddressLength]byte]byte{}
	}
	w.addrTokens[k] = kind
	return false
}

// Activity kinds in the 0x95 keys: which typed history a row belongs to.
const (
	activityNative   byte = 0
	activityErc20    byte = 1
	activityErc721   byte = 2
	activityErc1155  byte = 3
	activityInternal byte = 4
)
