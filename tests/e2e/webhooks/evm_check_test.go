package webhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// evmEventCheck compares address_activity deliveries with what the node
// says of their txs, reading from the node what the truth package does not
// hold (the block's receipts root, the tx's access list, the tokens' own
// name, symbol and decimals), once each.
type evmEventCheck struct {
	t      *testing.T
	ctx    context.Context
	s      *evmScene
	roots  map[uint64]common.Hash
	tokens map[common.Address]tokenMetadata
}

// tokenMetadata is what a token contract says of itself; "" and 0 where
// its ABI has no such method.
type tokenMetadata struct {
	name, symbol string
	decimals     uint8
}

func newEVMEventCheck(t *testing.T, ctx context.Context, s *evmScene) *evmEventCheck {
	return &evmEventCheck{t: t, ctx: ctx, s: s, roots: map[uint64]common.Hash{}, tokens: map[common.Address]tokenMetadata{}}
}

// delivery checks one delivery of w against x and returns its envelope.
func (c *evmEventCheck) delivery(w *evmWatch, d harness.WebhookDelivery, x *truth.EVMTx) map[string]any {
	t := c.t
	t.Helper()
	what := fmt.Sprintf("%s on %s: delivery of %s", w.name, c.s.chain.Name, x.Hash)
	var envelope map[string]any
	dec := json.NewDecoder(bytes.NewReader(d.Body))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&envelope), what)
	require.Equal(t, w.id, envelope["webhookId"], what)
	require.Equal(t, "address_activity", envelope["eventType"], what)
	require.NotEmpty(t, d.Header.Get("x-signature"), what)
	event := envelope["event"].(map[string]any)
	tx := event["transaction"].(map[string]any)
	require.Equal(t, x.Hash.Hex(), tx["txHash"], "%s: the txs in chain order, each once", what)

	r := x.Receipt
	want := map[string]any{
		"blockHash":                x.Block.Hash.Hex(),
		"blockNumber":              fmt.Sprint(x.Block.Number),
		"from":                     x.From.Hex(),
		"gas":                      fmt.Sprint(x.Gas),
		"gasPrice":                 x.GasPrice.String(),
		"maxFeePerGas":             orBig(x.MaxFee, x.GasPrice).String(),
		"maxPriorityFeePerGas":     orBig(x.MaxTip, x.GasPrice).String(),
		"txStatus":                 fmt.Sprint(r.Status),
		"input":                    hexutil.Encode(x.Input),
		"nonce":                    fmt.Sprint(x.Nonce),
		"to":                       "",
		"transactionIndex":         json.Number(fmt.Sprint(x.Index)),
		"value":                    x.Value.String(),
		"type":                     json.Number(fmt.Sprint(x.Type)),
		"chainId":                  c.s.chainID(),
		"receiptCumulativeGasUsed": fmt.Sprint(r.CumulativeGasUsed),
		"receiptGasUsed":           fmt.Sprint(r.GasUsed),
		"receiptEffectiveGasPrice": r.EffectiveGasPrice.String(),
		"receiptRoot":              c.receiptsRoot(x.Block.Number).Hex(),
		"blockTimestamp":           json.Number(fmt.Sprint(x.Block.Timestamp)),
	}
	if x.To != nil {
		want["to"] = x.To.Hex()
	}
	for k, v := range want {
		require.Contains(t, tx, k, what)
		if s, ok := v.(string); ok && strings.HasPrefix(s, "0x") && len(s) == 42 {
			require.True(t, strings.EqualFold(s, tx[k].(string)), "%s: %s is %v, want %s", what, k, tx[k], s)
			continue
		}
		require.Equal(t, v, tx[k], "%s: %s", what, k)
	}
	if r.Status == 1 && r.ContractAddress != nil {
		require.True(t, strings.EqualFold(r.ContractAddress.Hex(), tx["contractAddress"].(string)), "%s: contractAddress", what)
	} else {
		require.NotContains(t, tx, "contractAddress", what)
	}
	c.transfers(what, tx, x)
	if w.logs {
		c.internals(what, tx, x)
		c.logs(what, event, x)
	} else {
		require.NotContains(t, tx, "internalTransactions", what)
		require.NotContains(t, event, "logs", what)
	}
	c.accessList(what, tx, x)
	token := map[string]any{"tokenDecimals": json.Number("18"), "valueWithDecimals": withDecimals(x.Value, 18)}
	if c.s.chain.EVMChainID == localnet.CChainEVMChainID {
		token["tokenName"], token["tokenSymbol"] = "Avalanche", "AVAX"
	}
	require.Equal(t, token, tx["networkToken"], "%s: networkToken", what)
	return envelope
}

// transfers checks the three transfer lists against the receipt's logs.
func (c *evmEventCheck) transfers(what string, tx map[string]any, x *truth.EVMTx) {
	t := c.t
	t.Helper()
	lists := map[string]string{"ERC-20": "erc20Transfers", "ERC-721": "erc721Transfers", "ERC-1155": "erc1155Transfers"}
	seen := map[string]int{}
	for _, member := range lists {
		require.IsType(t, []any{}, tx[member], "%s: %s is always a list", what, member)
	}
	for _, tr := range x.Transfers {
		member := lists[tr.Kind]
		list := tx[member].([]any)
		require.Greater(t, len(list), seen[member], "%s: %s has the transfer at log %d", what, member, tr.LogIndex)
		got := list[seen[member]].(map[string]any)
		seen[member]++
		value := big.NewInt(1) // an ERC-721 transfer moves one token
		if tr.Value != nil {
			value = tr.Value
		}
		typ := strings.ReplaceAll(tr.Kind, "-", "")
		want := map[string]any{"transactionHash": x.Hash.Hex(), "type": typ, "value": value.String(),
			"blockTimestamp": json.Number(fmt.Sprint(x.Block.Timestamp)), "logIndex": json.Number(fmt.Sprint(tr.LogIndex))}
		if tr.TokenID != nil {
			want["tokenId"] = tr.TokenID.String()
		}
		for k, v := range want {
			require.Equal(t, v, got[k], "%s: %s %s", what, member, k)
		}
		require.True(t, strings.EqualFold(tr.From.Hex(), got["from"].(string)), "%s: %s from", what, member)
		require.True(t, strings.EqualFold(tr.To.Hex(), got["to"].(string)), "%s: %s to", what, member)
		// The token's metadata is there once the index has read it from the
		// contract (a background task); then it is what the contract says.
		tokenMember := map[string]string{"ERC20": "erc20Token", "ERC721": "erc721Token", "ERC1155": "erc1155Token"}[typ]
		for k := range got {
			if strings.HasSuffix(k, "Token") {
				require.Equal(t, tokenMember, k, "%s: the token under its standard's member", what)
			}
		}
		token, ok := got[tokenMember].(map[string]any)
		require.True(t, ok || !c.s.described[x.Hash] || typ == "ERC1155", "%s: %s of a token avadata has described", what, tokenMember)
		if ok {
			m := c.token(tr.Token)
			require.True(t, strings.EqualFold(tr.Token.Hex(), token["address"].(string)), what)
			require.Equal(t, m.name, token["name"], what)
			require.Equal(t, m.symbol, token["symbol"], what)
			require.Equal(t, json.Number(fmt.Sprint(m.decimals)), token["decimals"], what)
			require.Equal(t, withDecimals(value, m.decimals), token["valueWithDecimals"], what)
		}
	}
	for _, member := range lists {
		require.Len(t, tx[member], seen[member], "%s: %s", what, member)
	}
}

// internals checks internalTransactions against the callTracer trace: the
// frames that move value or create a contract.
func (c *evmEventCheck) internals(what string, tx map[string]any, x *truth.EVMTx) {
	t := c.t
	t.Helper()
	list, ok := tx["internalTransactions"].([]any)
	require.True(t, ok, "%s: internalTransactions asked for", what)
	require.Len(t, list, len(x.Internal), what)
	for i, in := range x.Internal {
		got := list[i].(map[string]any)
		require.Equal(t, in.Type, got["internalTxType"], what)
		require.True(t, strings.EqualFold(in.From.Hex(), got["from"].(string)), what)
		require.True(t, strings.EqualFold(in.To.Hex(), got["to"].(string)), what)
		require.Equal(t, in.Value.String(), got["value"], what)
		require.Equal(t, fmt.Sprint(in.GasUsed), got["gasUsed"], what)
		require.Equal(t, fmt.Sprint(in.Gas), got["gasLimit"], what)
		require.Equal(t, x.Hash.Hex(), got["transactionHash"], what)
	}
}

// logs checks logs against the receipt's.
func (c *evmEventCheck) logs(what string, event map[string]any, x *truth.EVMTx) {
	t := c.t
	t.Helper()
	list, ok := event["logs"].([]any)
	require.True(t, ok, "%s: logs asked for", what)
	require.Len(t, list, len(x.Receipt.Logs), what)
	for i, l := range x.Receipt.Logs {
		want := map[string]any{"data": hexutil.Encode(l.Data), "transactionIndex": json.Number(fmt.Sprint(l.TxIndex)),
			"logIndex": json.Number(fmt.Sprint(l.LogIndex)), "removed": false}
		for j, topic := range l.Topics {
			want[fmt.Sprintf("topic%d", j)] = topic.Hex()
		}
		got := list[i].(map[string]any)
		require.True(t, strings.EqualFold(l.Address.Hex(), got["address"].(string)), what)
		delete(got, "address")
		require.Equal(t, want, got, "%s: log %d (absent topics absent)", what, i)
	}
}

// accessList checks accessList against eth_getTransactionByHash's.
func (c *evmEventCheck) accessList(what string, tx map[string]any, x *truth.EVMTx) {
	t := c.t
	t.Helper()
	var raw struct {
		AccessList *[]struct {
			Address     common.Address `json:"address"`
			StorageKeys []common.Hash  `json:"storageKeys"`
		} `json:"accessList"`
	}
	require.NoError(t, c.s.ewoq.RPC().CallContext(c.ctx, &raw, "eth_getTransactionByHash", x.Hash))
	if raw.AccessList == nil {
		require.NotContains(t, tx, "accessList", "%s: the node gives none", what)
		return
	}
	list, ok := tx["accessList"].([]any)
	require.True(t, ok, "%s: accessList", what)
	require.Len(t, list, len(*raw.AccessList), what)
	for i, a := range *raw.AccessList {
		got := list[i].(map[string]any)
		require.True(t, strings.EqualFold(a.Address.Hex(), got["accessAddresses"].(string)), what)
		keys := []any{}
		for _, k := range a.StorageKeys {
			keys = append(keys, k.Hex())
		}
		require.Equal(t, keys, got["storageKeys"], what)
	}
}

// receiptsRoot is block n's receiptsRoot (eth_getBlockByNumber).
func (c *evmEventCheck) receiptsRoot(n uint64) common.Hash {
	if root, ok := c.roots[n]; ok {
		return root
	}
	var b struct {
		ReceiptsRoot common.Hash `json:"receiptsRoot"`
	}
	require.NoError(c.t, c.s.ewoq.RPC().CallContext(c.ctx, &b, "eth_getBlockByNumber", hexutil.Uint64(n), false))
	c.roots[n] = b.ReceiptsRoot
	return b.ReceiptsRoot
}

// token reads what a token contract says of itself.
func (c *evmEventCheck) token(addr common.Address) tokenMetadata {
	if m, ok := c.tokens[addr]; ok {
		return m
	}
	art := map[common.Address]*contracts.Artifact{c.s.erc20: c.s.art.erc20, c.s.erc721: c.s.art.erc721, c.s.erc1155: c.s.art.erc1155}[addr]
	require.NotNil(c.t, art, "a transfer of %s, which the test did not deploy", addr)
	var m tokenMetadata
	read := func(method string) any {
		if _, ok := art.ABI.Methods[method]; !ok {
			return nil
		}
		out, err := c.s.ewoq.Call(c.ctx, addr, art, method)
		require.NoError(c.t, err)
		return out[0]
	}
	m.name, _ = read("name").(string)
	m.symbol, _ = read("symbol").(string)
	m.decimals, _ = read("decimals").(uint8)
	c.tokens[addr] = m
	return m
}

// withDecimals writes v / 10^decimals without trailing fractional zeros.
func withDecimals(v *big.Int, decimals uint8) string {
	s := new(big.Rat).SetFrac(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)).FloatString(int(decimals))
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}

func orBig(a, b *big.Int) *big.Int {
	if a != nil {
		return a
	}
	return b
}
