//go:build e2e

package adopt

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/crypto"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// evmNode is an EVM chain's eth API on one node: the ground truth.
type evmNode struct{ rpc *rpc.Client }

func dialNode(t *testing.T, ctx context.Context, rpcURL string) *evmNode {
	t.Helper()
	c, err := rpc.DialContext(ctx, rpcURL)
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return &evmNode{rpc: c}
}

// nodeBlock is the part of eth_getBlockByNumber(n, false) the checks use.
type nodeBlock struct {
	Number       hexutil.Uint64 `json:"number"`
	Hash         common.Hash    `json:"hash"`
	Transactions []common.Hash  `json:"transactions"`
}

// block is block h as the node serves it, nil when it does not.
func (n *evmNode) block(t *testing.T, ctx context.Context, h uint64) *nodeBlock {
	t.Helper()
	var b *nodeBlock
	require.NoError(t, n.rpc.CallContext(ctx, &b, "eth_getBlockByNumber", hexutil.Uint64(h), false))
	return b
}

// receipts are block h's receipts, ok false when the node has none for
// it (an error or null: what a node answers depends on its version).
func (n *evmNode) receipts(ctx context.Context, h uint64) (rs []*evmtest.Receipt, ok bool) {
	if err := n.rpc.CallContext(ctx, &rs, "eth_getBlockReceipts", hexutil.Uint64(h)); err != nil || rs == nil {
		return nil, false
	}
	return rs, true
}

// servedWhole reports whether the node serves block h and its receipts.
func (n *evmNode) servedWhole(t *testing.T, ctx context.Context, h uint64) bool {
	t.Helper()
	b := n.block(t, ctx, h)
	if b == nil {
		return false
	}
	rs, ok := n.receipts(ctx, h)
	return ok && len(rs) == len(b.Transactions)
}

// waitHead waits until the node has accepted block h.
func (n *evmNode) waitHead(t *testing.T, ctx context.Context, h uint64) {
	t.Helper()
	for n.block(t, ctx, h) == nil {
		select {
		case <-ctx.Done():
			t.Fatalf("the node never accepted block %d", h)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// nodeTx is one transaction of the node's blocks.
type nodeTx struct {
	Hash     common.Hash
	From     common.Address
	To       common.Address // zero for a creation
	Transfer []transfer
}

// transfer is one ERC-20 Transfer log.
type transfer struct {
	TxHash   common.Hash
	LogIndex uint
	Token    common.Address
	From, To common.Address
	Value    string
}

// chainTruth is what the node holds of blocks from..to.
type chainTruth struct {
	blocks    []nodeBlock // newest first
	txs       []nodeTx
	transfers []transfer
}

var transferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// collect reads blocks from..to and their receipts from the node.
func (n *evmNode) collect(t *testing.T, ctx context.Context, from, to uint64, token common.Address) chainTruth {
	t.Helper()
	var out chainTruth
	for h := to; h >= from; h-- {
		b := n.block(t, ctx, h)
		require.NotNil(t, b, "block %d", h)
		out.blocks = append(out.blocks, *b)
		rs, ok := n.receipts(ctx, h)
		require.True(t, ok, "receipts of block %d", h)
		for _, r := range rs {
			tx := nodeTx{Hash: r.TxHash, From: r.From}
			if r.To != nil {
				tx.To = *r.To
			}
			for _, l := range r.Logs {
				if l.Address != token || len(l.Topics) != 3 || l.Topics[0] != transferTopic {
					continue
				}
				tr := transfer{TxHash: r.TxHash, LogIndex: l.LogIndex, Token: l.Address,
					From: common.BytesToAddress(l.Topics[1].Bytes()), To: common.BytesToAddress(l.Topics[2].Bytes()),
					Value: new(big.Int).SetBytes(l.Data).String()}
				tx.Transfer = append(tx.Transfer, tr)
				out.transfers = append(out.transfers, tr)
			}
			out.txs = append(out.txs, tx)
		}
	}
	return out
}

// checkLatestLists checks the lists that need no history against the
// node: every block and transaction from historyFrom on, the address's
// transactions and ERC-20 transfers, the token's transfers.
func checkLatestLists(t *testing.T, ctx context.Context, evmURL string, truth chainTruth, sender, holder, token common.Address) {
	t.Run("listLatestBlocks", func(t *testing.T) {
		var want, got []string
		for _, b := range truth.blocks {
			want = append(want, strconv.FormatUint(uint64(b.Number), 10)+" "+b.Hash.Hex()+" "+strconv.Itoa(len(b.Transactions)))
		}
		for _, raw := range harness.PageThrough(t, ctx, evmURL+"/blocks", "blocks", 100) {
			var b struct {
				BlockNumber string `json:"blockNumber"`
				BlockHash   string `json:"blockHash"`
				TxCount     int    `json:"txCount"`
			}
			require.NoError(t, json.Unmarshal(raw, &b))
			got = append(got, b.BlockNumber+" "+common.HexToHash(b.BlockHash).Hex()+" "+strconv.Itoa(b.TxCount))
		}
		require.Equal(t, want, got, "every block from historyFrom on, newest first")
	})
	t.Run("listLatestTransactions", func(t *testing.T) {
		var want []string
		for _, tx := range truth.txs {
			want = append(want, tx.Hash.Hex())
		}
		require.ElementsMatch(t, want, txHashes(t, harness.PageThrough(t, ctx, evmURL+"/transactions", "transactions", 100), false))
	})
	t.Run("listTransactions", func(t *testing.T) {
		var want []string
		for _, tx := range truth.txs {
			if tx.From == sender || tx.To == sender || involves(tx.Transfer, sender) {
				want = append(want, tx.Hash.Hex())
			}
		}
		require.NotEmpty(t, want)
		got := harness.PageThrough(t, ctx, evmURL+"/addresses/"+sender.Hex()+"/transactions", "transactions", 100)
		require.ElementsMatch(t, want, txHashes(t, got, true))
	})
	t.Run("listErc20Transactions", func(t *testing.T) {
		var want []transfer
		for _, tr := range truth.transfers {
			if tr.From == holder || tr.To == holder {
				want = append(want, tr)
			}
		}
		require.NotEmpty(t, want)
		got := harness.PageThrough(t, ctx, evmURL+"/addresses/"+holder.Hex()+"/transactions:listErc20", "transactions", 100)
		require.ElementsMatch(t, want, transfers(t, got, token))
	})
	t.Run("listTransfers", func(t *testing.T) {
		require.NotEmpty(t, truth.transfers)
		got := harness.PageThrough(t, ctx, evmURL+"/tokens/"+token.Hex()+"/transfers", "transfers", 100)
		require.ElementsMatch(t, truth.transfers, transfers(t, got, token))
	})
}

func involves(trs []transfer, a common.Address) bool {
	for _, tr := range trs {
		if tr.From == a || tr.To == a {
			return true
		}
	}
	return false
}

// txHashes are the txHash of listed transactions: NativeTransaction
// items, or TransactionDetails ones when details is set.
func txHashes(t *testing.T, items []json.RawMessage, details bool) []string {
	t.Helper()
	out := make([]string, 0, len(items))
	for _, raw := range items {
		var tx struct {
			TxHash            string `json:"txHash"`
			NativeTransaction struct {
				TxHash string `json:"txHash"`
			} `json:"nativeTransaction"`
		}
		require.NoError(t, json.Unmarshal(raw, &tx))
		h := tx.TxHash
		if details {
			h = tx.NativeTransaction.TxHash
		}
		out = append(out, common.HexToHash(h).Hex())
	}
	return out
}

// transfers are listed ERC-20 transfers (Erc20Transfer items) of token.
func transfers(t *testing.T, items []json.RawMessage, token common.Address) []transfer {
	t.Helper()
	out := make([]transfer, 0, len(items))
	for _, raw := range items {
		var tr struct {
			TxHash   string `json:"txHash"`
			LogIndex uint   `json:"logIndex"`
			Value    string `json:"value"`
			From     struct {
				Address string `json:"address"`
			} `json:"from"`
			To struct {
				Address string `json:"address"`
			} `json:"to"`
			Erc20Token struct {
				Address string `json:"address"`
			} `json:"erc20Token"`
		}
		require.NoError(t, json.Unmarshal(raw, &tr), "%s", raw)
		require.Equal(t, token, common.HexToAddress(tr.Erc20Token.Address), "%s", raw)
		out = append(out, transfer{TxHash: common.HexToHash(tr.TxHash), LogIndex: tr.LogIndex, Token: token,
			From: common.HexToAddress(tr.From.Address), To: common.HexToAddress(tr.To.Address), Value: tr.Value})
	}
	return out
}

// checkEarlierRanges checks that requests about blocks under historyFrom
// get the 4xx handlers/api/history.go describes, naming historyFrom: 400
// for a parameter naming an earlier range, 404 for a resource that lies
// there.
func checkEarlierRanges(t *testing.T, ctx context.Context, evmURL string, historyFrom uint64, sender common.Address, earlyTx common.Hash, token common.Address) {
	from := strconv.FormatUint(historyFrom, 10)
	for _, c := range []struct {
		name, url string
		status    int
	}{
		{"listTransactions startBlock", query(evmURL+"/addresses/"+sender.Hex()+"/transactions", url.Values{"startBlock": {"1"}}), http.StatusBadRequest},
		{"getBlock", evmURL + "/blocks/1", http.StatusNotFound},
		{"getTransaction", evmURL + "/transactions/" + earlyTx.Hex(), http.StatusNotFound},
		{"getDeploymentTransaction", evmURL + "/contracts/" + token.Hex() + "/transactions:getDeployment", http.StatusNotFound},
	} {
		t.Run(c.name, func(t *testing.T) {
			harness.RequireErrorBody(t, harness.Get(t, ctx, c.url), c.status, from)
		})
	}
	// A listing without a start ends at historyFrom, and its reply says
	// where that is.
	t.Run("X-Avadata-History-From", func(t *testing.T) {
		for _, u := range []string{evmURL + "/blocks", evmURL + "/addresses/" + sender.Hex() + "/transactions"} {
			r := harness.Get(t, ctx, u)
			require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
			require.Equal(t, from, r.Header.Get("X-Avadata-History-From"), "GET %s", u)
		}
	})
}

// checkBalances compares getNativeBalance and listErc20Balances with
// contractAddresses (and without, when without is set) of a with
// eth_getBalance and balanceOf at block h (and the native balance at the
// head, the chain being idle).
func checkBalances(t *testing.T, ctx context.Context, evmURL string, node *evmNode, a, token common.Address, h uint64, without bool) {
	native := nodeBalance(t, ctx, node, a, h)
	at := strconv.FormatUint(h, 10)
	addr := evmURL + "/addresses/" + a.Hex()
	t.Run(a.Hex()+" getNativeBalance", func(t *testing.T) {
		for _, q := range []url.Values{{"blockNumber": {at}}, nil} {
			var got struct {
				NativeTokenBalance struct {
					Balance string `json:"balance"`
				} `json:"nativeTokenBalance"`
			}
			harness.GetOK(t, ctx, query(addr+"/balances:getNative", q), &got)
			require.Equal(t, native.String(), got.NativeTokenBalance.Balance, "getNativeBalance %v", q)
		}
	})
	checkErc20Balances(t, ctx, evmURL, node, a, token, h, true, "")
	if without {
		checkErc20Balances(t, ctx, evmURL, node, a, token, h, false, "")
	}
}

// nodeBalance is a's native balance at block h on the node.
func nodeBalance(t *testing.T, ctx context.Context, node *evmNode, a common.Address, h uint64) *big.Int {
	t.Helper()
	var native hexutil.Big
	require.NoError(t, node.rpc.CallContext(ctx, &native, "eth_getBalance", a, hexutil.Uint64(h)))
	return native.ToInt()
}

// checkErc20Balances compares listErc20Balances at block h, with
// contractAddresses=token or without, with balanceOf and eth_getBalance.
//
// mayOmitFrom, when set, is the chain's historyFrom, and a holds the token
// only from transfers before it: the index cannot know of that holding,
// so the listing may leave the token out, provided the reply says its
// history is partial (X-Avadata-History-From); a balance it does show
// must still be the node's.
func checkErc20Balances(t *testing.T, ctx context.Context, evmURL string, node *evmNode, a, token common.Address, h uint64, named bool, mayOmitFrom string) {
	native := nodeBalance(t, ctx, node, a, h)
	data, err := contracts.TestERC20().Pack("balanceOf", a)
	require.NoError(t, err)
	var out hexutil.Bytes
	require.NoError(t, node.rpc.CallContext(ctx, &out, "eth_call", map[string]any{"to": token, "data": hexutil.Bytes(data)}, hexutil.Uint64(h)))
	held := new(big.Int).SetBytes(out).String()
	name, q := "without contractAddresses", url.Values{"blockNumber": {strconv.FormatUint(h, 10)}, "filterSpamTokens": {"false"}}
	if named {
		name = "with contractAddresses"
		q.Set("contractAddresses", token.Hex())
	}
	u := query(evmURL+"/addresses/"+a.Hex()+"/balances:listErc20", q)
	t.Run(a.Hex()+" listErc20Balances "+name, func(t *testing.T) {
		var got struct {
			Native struct {
				Balance string `json:"balance"`
			} `json:"nativeTokenBalance"`
			Tokens []struct {
				Address string `json:"address"`
				Balance string `json:"balance"`
			} `json:"erc20TokenBalances"`
		}
		// Not GetOK: the spec's Erc20TokenBalance.tokenReputation is
		// nullable, and null is what an unrated token has.
		r := harness.GetWithRetryAfter(t, ctx, u)
		require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
		r.Decode(t, &got)
		require.Equal(t, native.String(), got.Native.Balance, "nativeTokenBalance")
		balance, listed := "", false
		for _, tb := range got.Tokens {
			if common.HexToAddress(tb.Address) == token {
				balance, listed = tb.Balance, true
			}
		}
		if mayOmitFrom != "" {
			require.Equal(t, mayOmitFrom, r.Header.Get("X-Avadata-History-From"), "GET %s: the reply does not say history is partial", u)
			if !listed {
				t.Logf("%s: %s, held since before historyFrom, is left out (X-Avadata-History-From %s)", a.Hex(), token.Hex(), mayOmitFrom)
				return
			}
		}
		require.Equal(t, held, balance, "%s's balanceOf at %d: %+v", token, h, got.Tokens)
	})
}
