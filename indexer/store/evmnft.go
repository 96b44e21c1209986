package store

import (
	"encoding/binary"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
)

// Current NFT ownership, kept while writing transfers:
//   - ERC-721: the owner of each token (enftown) and, per owner, the tokens
//     it holds (enftby);
//   - ERC-1155: per holder and token id, its balance (enftby), and per id the
//     supply (e1155);
//   - per contract, how many tokens each holder has (eholder) and the
//     collection's totals (ecoll).

// move721 moves an ERC-721 token. The previous owner comes from the index,
// not from the log's `from`, so a contract that logs nonsense cannot drive a
// count negative.
func (w *EVMWriter) move721(txn *blockTxn, h uint64, t *evmdata.TokenTransfer) error {
	ownKey := newKey(tagNFTOwner, w.chain).addr(t.Token).tokenID(t.TokenID)
	prevBytes, err := txn.get(ownKey)
	if err != nil {
		return err
	}
	var tokensDelta int64
	if prevBytes != nil {
		tokensDelta--
		prev := common.BytesToAddress(prevBytes)
		if err := w.setNFTHolding(txn, h, prev, t, nil); err != nil {
			return err
		}
		if err := w.addHolding(txn, h, t.Token, prev, -1); err != nil {
			return err
		}
	}
	if t.To == (common.Address{}) { // burnt
		if err := txn.delete(ownKey); err != nil {
			return err
		}
		return w.addCollection(txn, h, t.Token, 0, tokensDelta)
	}
	tokensDelta++
	if prevBytes == nil { // minted: its metadata is to be read
		if err := w.queueToken(txn, t); err != nil {
			return err
		}
	}
	if err := txn.set(ownKey, t.To[:]); err != nil {
		return err
	}
	if err := w.setNFTHolding(txn, h, t.To, t, []byte{byte(evmdata.Erc721)}); err != nil {
		return err
	}
	if err := w.addHolding(txn, h, t.Token, t.To, 1); err != nil {
		return err
	}
	return w.addCollection(txn, h, t.Token, 0, tokensDelta)
}

// move1155 moves an amount of an ERC-1155 token id.
func (w *EVMWriter) move1155(txn *blockTxn, h uint64, t *evmdata.TokenTransfer) error {
	if t.Value == nil || t.Value.Sign() <= 0 {
		return nil
	}
	if t.From == (common.Address{}) {
		if err := w.addSupply(txn, h, t, t.Value); err != nil {
			return err
		}
	} else if err := w.addBalance(txn, h, t.From, t, new(big.Int).Neg(t.Value)); err != nil {
		return err
	}
	if t.To == (common.Address{}) {
		return w.addSupply(txn, h, t, new(big.Int).Neg(t.Value))
	}
	return w.addBalance(txn, h, t.To, t, t.Value)
}

// addBalance changes holder's balance of t's token id; a balance never goes
// below zero (a non-conforming contract cannot corrupt the counts).
func (w *EVMWriter) addBalance(txn *blockTxn, h uint64, holder common.Address, t *evmdata.TokenTransfer, delta *big.Int) error {
	k := w.nftByKey(holder, t)
	v, err := txn.get(k)
	if err != nil {
		return err
	}
	before := new(big.Int)
	if len(v) > 1 {
		before.SetBytes(v[1:])
	}
	after := new(big.Int).Add(before, delta)
	if after.Sign() < 0 {
		after.SetInt64(0)
	}
	switch {
	case after.Sign() == 0 && before.Sign() > 0:
		if err := w.setNFTHolding(txn, h, holder, t, nil); err != nil {
			return err
		}
		return w.addHolding(txn, h, t.Token, holder, -1)
	case after.Sign() == 0:
		return nil
	}
	if err := w.setNFTHolding(txn, h, holder, t, append([]byte{byte(evmdata.Erc1155)}, bigBytes(after)...)); err != nil {
		return err
	}
	if before.Sign() == 0 {
		return w.addHolding(txn, h, t.Token, holder, 1)
	}
	return nil
}

// addSupply changes the minted-minus-burnt supply of an ERC-1155 id; the
// collection counts ids whose supply is positive.
func (w *EVMWriter) addSupply(txn *blockTxn, h uint64, t *evmdata.TokenTransfer, delta *big.Int) error {
	k := newKey(tag1155, w.chain).addr(t.Token).tokenID(t.TokenID)
	v, err := txn.get(k)
	if err != nil {
		return err
	}
	before := bigFrom(v)
	after := new(big.Int).Add(before, delta)
	if after.Sign() < 0 {
		after.SetInt64(0)
	}
	var tokensDelta int64
	switch {
	case before.Sign() == 0 && after.Sign() > 0:
		tokensDelta = 1
		if err := w.queueToken(txn, t); err != nil {
			return err
		}
	case before.Sign() > 0 && after.Sign() == 0:
		tokensDelta = -1
	}
	if after.Sign() == 0 {
		if err := txn.delete(k); err != nil {
			return err
		}
	} else if err := txn.set(k, bigBytes(after)); err != nil {
		return err
	}
	return w.addCollection(txn, h, t.Token, 0, tokensDelta)
}

// queueToken asks the background describer to read a new token's URI and
// metadata, unless it already has.
func (w *EVMWriter) queueToken(txn *blockTxn, t *evmdata.TokenTransfer) error {
	read, err := txn.has(newKey(tagNFTMeta, w.chain).addr(t.Token).tokenID(t.TokenID))
	if err != nil || read {
		return err
	}
	return txn.set(newKey(tagNFTQ, w.chain).addr(t.Token).tokenID(t.TokenID), []byte{byte(t.Kind)})
}

// setNFTHolding sets (value nil: removes) owner's holding row of t's token
// and records the change in its history at block h.
func (w *EVMWriter) setNFTHolding(txn *blockTxn, h uint64, owner common.Address, t *evmdata.TokenTransfer, value []byte) error {
	k := w.nftByKey(owner, t)
	var err error
	if value == nil {
		err = txn.delete(k)
	} else {
		err = txn.set(k, value)
	}
	if err != nil {
		return err
	}
	hist := value
	if hist == nil {
		hist = []byte{byte(evmdata.ErcUnknown)}
	}
	return txn.set(newKey(tagNFTByH, w.chain).addr(owner).addr(t.Token).tokenID(t.TokenID).u64(h), hist)
}

func (w *EVMWriter) nftByKey(owner common.Address, t *evmdata.TokenTransfer) []byte {
	return newKey(tagNFTBy, w.chain).addr(owner).addr(t.Token).tokenID(t.TokenID)
}

// addHolding changes how many tokens (ERC-1155: ids) holder has of token,
// and the collection's holder count when it crosses zero.
func (w *EVMWriter) addHolding(txn *blockTxn, h uint64, token, holder common.Address, delta int64) error {
	k := newKey(tagHolder, w.chain).addr(token).addr(holder)
	v, err := txn.get(k)
	if err != nil {
		return err
	}
	var before uint64
	if len(v) == 8 {
		before = binary.BigEndian.Uint64(v)
	}
	after := addClamped(before, delta)
	var holdersDelta int64
	switch {
	case before == 0 && after > 0:
		holdersDelta = 1
	case before > 0 && after == 0:
		holdersDelta = -1
	}
	if after == 0 {
		if err := txn.delete(k); err != nil {
			return err
		}
	} else if err := txn.set(k, binary.BigEndian.AppendUint64(nil, after)); err != nil {
		return err
	}
	hist := newKey(tagHolderH, w.chain).addr(token).addr(holder).u64(h)
	if err := txn.set(hist, binary.BigEndian.AppendUint64(nil, after)); err != nil {
		return err
	}
	return w.addCollection(txn, h, token, holdersDelta, 0)
}

func (w *EVMWriter) addCollection(txn *blockTxn, h uint64, token common.Address, holders, tokens int64) error {
	if holders == 0 && tokens == 0 {
		return nil
	}
	k := newKey(tagColl, w.chain).addr(token)
	v, err := txn.get(k)
	if err != nil {
		return err
	}
	c := decodeCollection(v)
	c.Holders = addClamped(c.Holders, holders)
	c.Tokens = addClamped(c.Tokens, tokens)
	if err := txn.set(newKey(tagCollH, w.chain).addr(token).u64(h), encodeCollection(c)); err != nil {
		return err
	}
	return txn.set(k, encodeCollection(c))
}

func encodeCollection(c evmdata.Collection) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(nil, c.Holders), c.Tokens)
}

func decodeCollection(v []byte) evmdata.Collection {
	if len(v) != 16 {
		return evmdata.Collection{}
	}
	return evmdata.Collection{Holders: binary.BigEndian.Uint64(v), Tokens: binary.BigEndian.Uint64(v[8:])}
}

func addClamped(v uint64, delta int64) uint64 {
	if delta < 0 && uint64(-delta) > v {
		return 0
	}
	return uint64(int64(v) + delta)
}
