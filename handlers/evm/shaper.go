package evm

import (
	"context"
	"encoding/hex"
	"fmt"
	"math/big"
	"net/http"
	"strconv"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// shaper turns evmdata values into the response shapes of reply_types.go for
// one request on one chain. It caches what a page needs more than once (the
// contracts behind addresses, prices), so shaping a page costs one lookup per
// distinct address.
//
// Shaping reads the store (contract lookups); the first failure is kept
// and every later lookup is skipped, so callers shape a whole page and check
// err once before replying.
type shaper struct {
	ctx       context.Context
	s         *server
	chain     netinfo.ChainInfo
	currency  string
	contracts map[common.Address]contractLookup
	prices    map[priceKey]*price
	nftMeta   map[nftKey]*evmdata.NFTMetadata // nft_shape.go
	// hexes are the checksummed forms of the addresses shown (EIP-55 hashes
	// each one; a page shows its address in every entry).
	hexes map[common.Address]string
	err   error
	// historyFrom is the chain's first indexed block, read once per
	// reply (partialHistory); 0 until read.
	historyFrom uint64
	// runningStateRead says runningWhole holds countsFromGenesis's answer.
	runningStateRead, runningWhole bool
}

// contractLookup is one cached Reader.Contract answer.
type contractLookup struct {
	contract evmdata.Contract
	found    bool
}

// newShaper starts shaping for one request; currency prices the response.
func (s *server) newShaper(ctx context.Context, chain netinfo.ChainInfo, currency string) *shaper {
	return &shaper{
		ctx:       ctx,
		s:         s,
		chain:     chain,
		currency:  currency,
		contracts: make(map[common.Address]contractLookup),
		prices:    make(map[priceKey]*price),
		hexes:     make(map[common.Address]string),
	}
}

// write writes resp, unless shaping it met an error (a read of the index
// failed), which it returns instead: a reply is never written half-shaped.
func (v *shaper) write(w http.ResponseWriter, resp any) error {
	if v.err != nil {
		return v.err
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// fail keeps the first error of the request.
func (v *shaper) fail(err error) {
	if v.err == nil {
		v.err = err
	}
}

// contract returns what the index knows of addr (cached per request).
func (v *shaper) contract(addr common.Address) (evmdata.Contract, bool) {
	if hit, ok := v.contracts[addr]; ok {
		return hit.contract, hit.found
	}
	if v.err != nil {
		return evmdata.Contract{Address: addr}, false
	}
	c, found, err := v.s.reader.Contract(v.ctx, v.chain.Chain, addr)
	if err != nil {
		v.fail(fmt.Errorf("reading contract %s: %w", addr, err))
		return evmdata.Contract{Address: addr}, false
	}
	v.contracts[addr] = contractLookup{contract: c, found: found}
	return c, found
}

// knownContract reads the contract at addr for an endpoint about it, and
// keeps it for shaping. An address the index does not know as a contract is
// a 404 that says so.
func (v *shaper) knownContract(addr common.Address) (evmdata.Contract, error) {
	c, found := v.contract(addr)
	if v.err != nil {
		return c, v.err
	}
	if !found && v.partialHistory() {
		if v.err != nil {
			return c, v.err
		}
		return c, unknownContract(v.history(), addr)
	}
	if !found {
		return c, api.NotFound("%s is not a contract known to the index of chain %d ('%s'): no deployment or token "+
			"transfer of it was seen in the blocks avadata has indexed", addr.Hex(), v.chain.EVMChainID, api.ChainLabel(v.chain))
	}
	return c, nil
}

// evmChainID is the chain's EVM chain id, as responses show it.
func (v *shaper) evmChainID() string { return strconv.FormatUint(v.chain.EVMChainID, 10) }

// logoURI is the curated logo of a contract, "" when none.
func (v *shaper) logoURI(addr common.Address) string {
	return v.s.cfg.CuratedContracts.logoURI(v.chain.EVMChainID, addr)
}

// hex is addr checksummed (Address.Hex), once per request.
func (v *shaper) hex(addr common.Address) string {
	s, ok := v.hexes[addr]
	if !ok {
		s = addr.Hex()
		v.hexes[addr] = s
	}
	return s
}

// richAddress shows an address; a token contract also gets its name,
// symbol and decimals, and any curated logo.
func (v *shaper) richAddress(addr common.Address) richAddress {
	out := richAddress{Address: v.hex(addr)}
	if addr == (common.Address{}) {
		return out // mint and burn counterpart: never a contract
	}
	out.LogoURI = v.logoURI(addr)
	c, found := v.contract(addr)
	if !found || c.Kind == evmdata.ErcUnknown {
		return out
	}
	out.Name, out.Symbol = c.Name, c.Symbol
	if c.HasDecimal {
		decimals := c.Decimals
		out.Decimals = &decimals
	}
	return out
}

// nativeTransaction shapes the top-level part of a transaction.
func (v *shaper) nativeTransaction(itx *evmdata.IndexedTx) nativeTransaction {
	tx := &itx.Tx
	return nativeTransaction{
		BlockNumber:    api.FormatUint(itx.Block.Number),
		BlockTimestamp: itx.Block.Timestamp,
		BlockHash:      itx.Block.Hash.Hex(),
		ChainID:        v.evmChainID(),
		BlockIndex:     tx.Index,
		TxHash:         tx.Hash.Hex(),
		TxStatus:       txStatus(tx),
		TxType:         tx.Type,
		GasLimit:       api.FormatUint(tx.Gas),
		GasUsed:        api.FormatUint(tx.GasUsed),
		GasPrice:       api.Decimal(paidGasPrice(tx)),
		Nonce:          api.FormatUint(tx.Nonce),
		From:           v.richAddress(tx.From),
		To:             v.richAddress(recipient(tx)),
		Method:         v.s.methods.method(tx),
		Value:          api.Decimal(tx.Value),
	}
}

// fullNativeTransaction adds the input and fee fields.
func (v *shaper) fullNativeTransaction(itx *evmdata.IndexedTx) fullNativeTransaction {
	tx := &itx.Tx
	out := fullNativeTransaction{
		nativeTransaction: v.nativeTransaction(itx),
		Input:             "0x" + hex.EncodeToString(tx.Input),
		BaseFeePerGas:     api.Decimal(itx.Block.BaseFee),
	}
	if tx.MaxFeePerGas != nil {
		out.MaxFeePerGas = tx.MaxFeePerGas.String()
	}
	if tx.MaxPriorityFeePerGas != nil {
		out.MaxPriorityFeePerGas = tx.MaxPriorityFeePerGas.String()
	}
	return out
}

// transactionResponse shapes a whole transaction: the body of the
// transaction and deployment endpoints.
func (v *shaper) transactionResponse(itx *evmdata.IndexedTx) getTransactionResponse {
	return getTransactionResponse{
		NativeTransaction:   v.fullNativeTransaction(itx),
		NetworkTokenDetails: v.networkTokenDetails(itx.Block.Timestamp),
		txLists:             v.txLists(itx),
	}
}

// txStatus is the OpenAPI's "1" (success) or "0" (failure).
func txStatus(tx *evmdata.Tx) string {
	if tx.Succeeded() {
		return "1"
	}
	return "0"
}

// paidGasPrice is the price per gas the sender paid: the receipt's effective
// price, or the legacy price when the receipt has none.
func paidGasPrice(tx *evmdata.Tx) *big.Int {
	if tx.EffectiveGasPrice != nil {
		return tx.EffectiveGasPrice
	}
	return tx.GasPrice
}

// recipient is the tx's to; for a creation, the contract it deployed (the
// zero address when the creation failed).
func recipient(tx *evmdata.Tx) common.Address {
	switch {
	case tx.To != nil:
		return *tx.To
	case tx.ContractAddress != nil:
		return *tx.ContractAddress
	default:
		return common.Address{}
	}
}

// txLists sorts a transaction's token transfers by standard and shapes its
// internal transactions.
func (v *shaper) txLists(itx *evmdata.IndexedTx) txLists {
	var lists txLists
	for i := range itx.Tx.Transfers {
		t := &itx.Tx.Transfers[i]
		switch t.Kind {
		case evmdata.Erc721:
			lists.Erc721Transfers = append(lists.Erc721Transfers, v.erc721Transfer(t, nil))
		case evmdata.Erc1155:
			lists.Erc1155Transfers = append(lists.Erc1155Transfers, v.erc1155Transfer(t, nil))
		default:
			lists.Erc20Transfers = append(lists.Erc20Transfers, v.erc20Transfer(t, nil))
		}
	}
	if itx.Traced || len(itx.Tx.Internal) > 0 {
		internals := make([]internalTransaction, len(itx.Tx.Internal))
		for i := range itx.Tx.Internal {
			internals[i] = v.internalTransaction(&itx.Tx.Internal[i])
		}
		lists.InternalTransactions = &internals
	}
	return lists
}

// tokenTransfer shapes one transfer of the token transfers list by its
// standard: an Erc20Transfer, Erc721Transfer or Erc1155Transfer. A transfer
// of unknown standard carried an amount, so it is shown as ERC-20.
func (v *shaper) tokenTransfer(t *evmdata.IndexedTransfer) any {
	blk := txBlock(t.Block, t.TxHash)
	switch t.Kind {
	case evmdata.Erc721:
		return v.erc721Transfer(&t.TokenTransfer, blk)
	case evmdata.Erc1155:
		return v.erc1155Transfer(&t.TokenTransfer, blk)
	default:
		return v.erc20Transfer(&t.TokenTransfer, blk)
	}
}

// transferBase shows who moved a token; blk is nil outside the token
// transfers list.
func (v *shaper) transferBase(t *evmdata.TokenTransfer, blk *transferBlock) transferBase {
	return transferBase{transferBlock: blk, From: v.richAddress(t.From), To: v.richAddress(t.To), LogIndex: t.LogIndex}
}

func (v *shaper) erc20Transfer(t *evmdata.TokenTransfer, blk *transferBlock) erc20Transfer {
	return erc20Transfer{transferBase: v.transferBase(t, blk), Value: api.Decimal(t.Value), Erc20Token: v.erc20Token(t.Token)}
}

func (v *shaper) erc721Transfer(t *evmdata.TokenTransfer, blk *transferBlock) erc721Transfer {
	return erc721Transfer{transferBase: v.transferBase(t, blk),
		Erc721Token: v.erc721Token(t.Token, t.TokenID, v.nftMetadata(t.Token, t.TokenID))}
}

func (v *shaper) erc1155Transfer(t *evmdata.TokenTransfer, blk *transferBlock) erc1155Transfer {
	return erc1155Transfer{
		transferBase: v.transferBase(t, blk),
		Value:        api.Decimal(t.Value),
		Erc1155Token: v.erc1155Token(t.Token, t.TokenID, v.nftMetadata(t.Token, t.TokenID)),
	}
}

// erc20Token describes an ERC-20 contract; name, symbol and decimals are
// required, so a contract whose metadata is not read yet shows "" and 0.
func (v *shaper) erc20Token(addr common.Address) erc20Token {
	c, _ := v.contract(addr)
	return erc20Token{
		Address:  addr.Hex(),
		Name:     c.Name,
		Symbol:   c.Symbol,
		Decimals: c.Decimals,
		LogoURI:  v.logoURI(addr),
		ErcType:  evmdata.Erc20.String(),
		Price:    v.tokenPrice(addr, 0),
	}
}

// erc721Token describes an ERC-721 token; meta is nil when its metadata was
// not read.
func (v *shaper) erc721Token(addr common.Address, id *big.Int, meta *evmdata.NFTMetadata) erc721Token {
	c, _ := v.contract(addr)
	uri, md := nftMetadataOf(evmdata.Erc721, meta)
	return erc721Token{
		Address:  addr.Hex(),
		Name:     c.Name,
		Symbol:   c.Symbol,
		ErcType:  evmdata.Erc721.String(),
		TokenID:  api.Decimal(id),
		TokenURI: uri,
		Metadata: md,
	}
}

// erc1155Token describes an ERC-1155 token id.
func (v *shaper) erc1155Token(addr common.Address, id *big.Int, meta *evmdata.NFTMetadata) erc1155Token {
	uri, md := nftMetadataOf(evmdata.Erc1155, meta)
	return erc1155Token{
		Address:  addr.Hex(),
		ErcType:  evmdata.Erc1155.String(),
		TokenID:  api.Decimal(id),
		TokenURI: uri,
		Metadata: md,
	}
}

// nftMetadataOf shapes a token's metadata: "unindexed" until it is read.
// ERC-721 documents carry attributes, ERC-1155 ones properties and decimals.
func nftMetadataOf(kind evmdata.ErcType, m *evmdata.NFTMetadata) (tokenURI string, md nftMetadata) {
	if m == nil {
		return "", nftMetadata{IndexStatus: string(evmdata.IndexStatusUnindexed)}
	}
	md = nftMetadata{
		IndexStatus:                  string(m.Status),
		MetadataLastUpdatedTimestamp: m.UpdatedAt,
		Name:                         m.Name,
		ImageURI:                     m.ImageURI,
		Description:                  m.Description,
		AnimationURI:                 m.AnimationURI,
		ExternalURL:                  m.ExternalURL,
		Background:                   m.Background,
	}
	if md.IndexStatus == "" {
		md.IndexStatus = string(evmdata.IndexStatusUnindexed)
	}
	if kind == evmdata.Erc1155 {
		md.Properties, md.Decimals = m.Attributes, m.Decimals
	} else {
		md.Attributes = m.Attributes
	}
	return m.TokenURI, md
}

func (v *shaper) internalTransaction(t *evmdata.InternalTx) internalTransaction {
	return internalTransaction{
		From:           v.richAddress(t.From),
		To:             v.richAddress(t.To),
		InternalTxType: internalTxType(t.Type),
		Value:          api.Decimal(t.Value),
		IsReverted:     t.Reverted,
		GasUsed:        api.FormatUint(t.GasUsed),
		GasLimit:       api.FormatUint(t.Gas),
	}
}

// internalTxType is the OpenAPI's InternalTransactionOpCall. Its closed enum
// has no SELFDESTRUCT, so such frames show as UNKNOWN rather than as a value
// clients would reject.
func internalTxType(c evmdata.CallType) string {
	if c == evmdata.SelfDestruct {
		return evmdata.CallUnknown.String()
	}
	return c.String()
}
