package store

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// address_activity: every transaction of an EVM block that touches an
// address a webhook watches gives that webhook one event (the SDK's
// TransactionEvent), in the block's order. A tx touches the addresses the
// index lists it under (involvedAddresses): its sender, recipient, created
// contract, token senders and receivers (not an ERC-1155 operator, who moves
// tokens it does not hold) and internal senders and receivers, the zero
// address excepted (it would match every mint).

// nativeDecimals are the decimals of every EVM chain's native token: values
// are counted in wei.
const nativeDecimals = 18

// emitAddressActivity puts block b's address_activity events for the
// webhooks of cw into the outbox.
func (w *EVMWriter) emitAddressActivity(txn *blockTxn, cw *webhookdata.ChainWatches, b *evmdata.Block) error {
	if len(cw.EVMAddresses) == 0 {
		return nil
	}
	ev := activityEvents{w: w, txn: txn, b: b}
	var cumulative uint64 // the receipts' cumulativeGasUsed: the block's gas up to and including the tx
	var hooks []*webhookdata.Webhook
	for i := range b.Txs {
		tx := &b.Txs[i]
		cumulative += tx.GasUsed
		if hooks = watchersOf(cw, b.Number, tx, hooks[:0]); len(hooks) == 0 {
			continue
		}
		var base *webhookdata.Transaction // built once, for the first webhook that takes it
		for _, h := range hooks {
			if !hasEventSignature(cw, h, tx) {
				continue
			}
			if base == nil {
				t, err := ev.transaction(tx, cumulative)
				if err != nil {
					return fmt.Errorf("the address_activity event of tx %s: %w", tx.Hash, err)
				}
				base = &t
			}
			event := webhookdata.TransactionEvent{Transaction: *base}
			event.Transaction.ChainID = h.ChainID
			if h.IncludeInternalTxs && b.Traced { // untraced, the internal txs are unknown, not none
				event.Transaction.InternalTransactions = internalTransactions(tx)
			}
			if h.IncludeLogs {
				event.Logs = eventLogs(tx)
			}
			if err := txn.emitWebhookEvent(h, b.Number, event); err != nil {
				return err
			}
		}
	}
	return nil
}

// watchersOf appends to out the webhooks of cw that watch a party of tx
// and take events of block height, each once, in a fixed order (the
// parties', then the watch sets').
func watchersOf(cw *webhookdata.ChainWatches, height uint64, tx *evmdata.Tx, out []*webhookdata.Webhook) []*webhookdata.Webhook {
	var parties [fewParties]common.Address
	for _, a := range involvedAddresses(tx, parties[:0]) {
		for _, h := range cw.EVMAddresses[a] {
			if height >= h.FromHeight && !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// hasEventSignature reports whether tx has a log whose first topic is one
// of h's eventSignatures (parsed in cw); true when h sets none.
func hasEventSignature(cw *webhookdata.ChainWatches, h *webhookdata.Webhook, tx *evmdata.Tx) bool {
	sigs, ok := cw.EventSignatures[h.ID]
	if !ok {
		return true
	}
	for i := range tx.Logs {
		if t := tx.Logs[i].Topics; len(t) > 0 {
			if _, ok := sigs[t[0]]; ok {
				return true
			}
		}
	}
	return false
}

// activityEvents builds the events of one block, reading each token's
// metadata once.
type activityEvents struct {
	w      *EVMWriter
	txn    *blockTxn
	b      *evmdata.Block
	tokens map[common.Address]*evmdata.Contract // nil: metadata not read yet
}

// transaction is tx as the SDK's Transaction, without its chain ID and
// internal transactions (the webhook's).
func (e *activityEvents) transaction(tx *evmdata.Tx, cumulativeGas uint64) (webhookdata.Transaction, error) {
	b := e.b
	gasPrice := cmpBig(tx.GasPrice, tx.EffectiveGasPrice)
	t := webhookdata.Transaction{
		BlockHash:   b.Hash.Hex(),
		BlockNumber: strconv.FormatUint(b.Number, 10),
		From:        tx.From.Hex(),
		Gas:         strconv.FormatUint(tx.Gas, 10),
		GasPrice:    decimal(gasPrice),
		// A legacy tx's fee cap and tip are its gas price (as the EVM reads
		// them); a dynamic-fee tx has its own.
		MaxFeePerGas:             decimal(cmpBig(tx.MaxFeePerGas, tx.GasPrice)),
		MaxPriorityFeePerGas:     decimal(cmpBig(tx.MaxPriorityFeePerGas, tx.GasPrice)),
		TxHash:                   tx.Hash.Hex(),
		TxStatus:                 strconv.FormatUint(uint64(tx.Status), 10),
		Input:                    hexutil.Encode(tx.Input),
		Nonce:                    strconv.FormatUint(tx.Nonce, 10),
		TransactionIndex:         tx.Index,
		Value:                    decimal(tx.Value),
		Type:                     tx.Type,
		ReceiptCumulativeGasUsed: strconv.FormatUint(cumulativeGas, 10),
		ReceiptGasUsed:           strconv.FormatUint(tx.GasUsed, 10),
		ReceiptEffectiveGasPrice: decimal(cmpBig(tx.EffectiveGasPrice, gasPrice)),
		ReceiptRoot:              b.ReceiptsRoot.Hex(),
		BlockTimestamp:           b.Timestamp,
		ERC20Transfers:           []webhookdata.ERCTransfer{},
		ERC721Transfers:          []webhookdata.ERCTransfer{},
		ERC1155Transfers:         []webhookdata.ERCTransfer{},
		NetworkToken: &webhookdata.NetworkTokenInfo{
			TokenDecimals: nativeDecimals, ValueWithDecimals: evmdata.ValueWithDecimals(tx.Value, nativeDecimals)},
	}
	if tx.To != nil {
		t.To = tx.To.Hex()
	}
	if tx.ContractAddress != nil {
		t.ContractAddress = tx.ContractAddress.Hex()
	}
	if e.w.chain == netinfo.C {
		t.NetworkToken.TokenName, t.NetworkToken.TokenSymbol = "Avalanche", "AVAX"
	}
	for i := range tx.Transfers {
		x, err := e.transfer(tx, &tx.Transfers[i])
		if err != nil {
			return webhookdata.Transaction{}, err
		}
		switch tx.Transfers[i].Kind {
		case evmdata.Erc721:
			t.ERC721Transfers = append(t.ERC721Transfers, x)
		case evmdata.Erc1155:
			t.ERC1155Transfers = append(t.ERC1155Transfers, x)
		default:
			t.ERC20Transfers = append(t.ERC20Transfers, x)
		}
	}
	if tx.AccessList != nil {
		t.AccessList = make([]webhookdata.AccessListEntry, len(tx.AccessList))
		for i, a := range tx.AccessList {
			keys := make([]string, len(a.StorageKeys))
			for j, k := range a.StorageKeys {
				keys[j] = k.Hex()
			}
			t.AccessList[i] = webhookdata.AccessListEntry{AccessAddresses: a.Address.Hex(), StorageKeys: keys}
		}
	}
	return t, nil
}

// transfer is one token transfer as the SDK's ERCTransfer, with the
// token's metadata when the index has read it.
func (e *activityEvents) transfer(tx *evmdata.Tx, x *evmdata.TokenTransfer) (webhookdata.ERCTransfer, error) {
	out := webhookdata.ERCTransfer{
		TransactionHash: tx.Hash.Hex(),
		From:            x.From.Hex(),
		To:              x.To.Hex(),
		Value:           decimal(x.Value),
		BlockTimestamp:  e.b.Timestamp,
		LogIndex:        x.LogIndex,
	}
	if x.TokenID != nil {
		out.TokenID = x.TokenID.String()
	}
	c, err := e.token(x.Token)
	if err != nil {
		return webhookdata.ERCTransfer{}, err
	}
	var token *webhookdata.ERCToken
	if c.MetadataRead {
		decimals := uint8(0)
		if c.HasDecimal {
			decimals = c.Decimals
		}
		token = &webhookdata.ERCToken{Address: x.Token.Hex(), Name: c.Name, Symbol: c.Symbol, Decimals: decimals,
			ValueWithDecimals: evmdata.ValueWithDecimals(x.Value, decimals)}
	}
	switch x.Kind {
	case evmdata.Erc721:
		out.Type, out.ERC721Token = "ERC721", token
	case evmdata.Erc1155:
		out.Type, out.ERC1155Token = "ERC1155", token
	default:
		out.Type, out.ERC20Token = "ERC20", token
	}
	return out, nil
}

// token reads what the index holds of a token contract, once per block:
// the chain's own contract row, as this transaction has it (a token first
// seen in this block has no metadata yet).
func (e *activityEvents) token(addr common.Address) (*evmdata.Contract, error) {
	if c, ok := e.tokens[addr]; ok {
		return c, nil
	}
	c := &evmdata.Contract{Address: addr}
	v, err := e.txn.get(newKey(tagContract, e.w.chain).addr(addr))
	if err != nil {
		return nil, fmt.Errorf("reading token %s: %w", addr, err)
	}
	if v != nil {
		decoded, err := decodeContract(addr, v)
		if err != nil {
			return nil, err
		}
		c = &decoded
	}
	if e.tokens == nil {
		e.tokens = map[common.Address]*evmdata.Contract{}
	}
	e.tokens[addr] = c
	return c, nil
}

// internalTransactions are tx's internal transactions as the SDK's
// WebhookInternalTransaction; never nil.
func internalTransactions(tx *evmdata.Tx) []webhookdata.InternalTransaction {
	out := make([]webhookdata.InternalTransaction, len(tx.Internal))
	for i, it := range tx.Internal {
		out[i] = webhookdata.InternalTransaction{
			From: it.From.Hex(), To: it.To.Hex(), InternalTxType: it.Type.String(), Value: decimal(it.Value),
			GasUsed: strconv.FormatUint(it.GasUsed, 10), GasLimit: strconv.FormatUint(it.Gas, 10),
			TransactionHash: tx.Hash.Hex(),
		}
	}
	return out
}

// eventLogs are tx's logs as the SDK's Log; never nil.
func eventLogs(tx *evmdata.Tx) []webhookdata.Log {
	out := make([]webhookdata.Log, len(tx.Logs))
	for i := range tx.Logs {
		l := &tx.Logs[i]
		var topics [4]string
		for j := 0; j < len(l.Topics) && j < len(topics); j++ {
			topics[j] = l.Topics[j].Hex()
		}
		out[i] = webhookdata.Log{Address: l.Address.Hex(), Topic0: topics[0], Topic1: topics[1], Topic2: topics[2],
			Topic3: topics[3], Data: hexutil.Encode(l.Data), TransactionIndex: tx.Index, LogIndex: uint32(l.LogIndex),
			Removed: l.Removed}
	}
	return out
}

// cmpBig is the first non-nil of a and b.
func cmpBig(a, b *big.Int) *big.Int {
	if a != nil {
		return a
	}
	return b
}

// decimal writes n in decimal; nil is "0".
func decimal(n *big.Int) string {
	if n == nil {
		return "0"
	}
	return n.String()
}
