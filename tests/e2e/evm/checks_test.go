package evm

import (
	"context"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/crypto"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// Comparisons of avadata's EVM answers with the node's ground truth, shared
// by the EVM tests.

// evmTestTimeout bounds each EVM test after the shared fixture exists.
const evmTestTimeout = 3 * time.Minute

// forEachChain runs check on every EVM chain's fixture, the chains in
// parallel, each with a context bounded by evmTestTimeout.
func forEachChain(t *testing.T, check func(t *testing.T, ctx context.Context, f *evmFixture)) {
	t.Helper()
	for _, f := range evmFixtures(t) {
		t.Run(f.name(), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), evmTestTimeout)
			defer cancel()
			check(t, ctx, f)
		})
	}
}

// sync waits until avadata has indexed the chain's current head, reads the
// node's blocks up to it into the ground truth, and returns the head.
func (f *evmFixture) sync(t *testing.T, ctx context.Context) uint64 {
	t.Helper()
	head, err := f.ewoq.BlockNumber(ctx)
	require.NoError(t, err)
	waitEVMIndexed(t, ctx, f.chain.BlockchainID.String(), head)
	require.NoError(t, f.truth.ScanTo(ctx, head), "%s: reading blocks up to %d", f.name(), head)
	return head
}

// onChainToken is what a token contract says of itself via eth_call.
type onChainToken struct {
	name, symbol string
	decimals     int // ERC-20 only
}

// token reads a token contract's name, symbol and (ERC-20) decimals from
// the node, once per fixture and token. Transfers of tokens other tests
// made show up in the chain-wide checks too, so every token is read by its
// own address (the ERC-20 and ERC-721 artifacts' ABIs fit any such token).
func (f *evmFixture) token(t *testing.T, ctx context.Context, addr common.Address, kind string) onChainToken {
	t.Helper()
	f.onChainMu.Lock()
	defer f.onChainMu.Unlock()
	if tok, ok := f.onChain[addr]; ok {
		return tok
	}
	art := f.art.erc721
	if kind == "ERC-20" {
		art = f.art.erc20
	}
	tok := onChainToken{
		name:   f.callOne(t, ctx, addr, art, "name").(string),
		symbol: f.callOne(t, ctx, addr, art, "symbol").(string),
	}
	if kind == "ERC-20" {
		tok.decimals = int(f.callOne(t, ctx, addr, art, "decimals").(uint8))
	}
	if f.onChain == nil {
		f.onChain = map[common.Address]onChainToken{}
	}
	f.onChain[addr] = tok
	return tok
}

// onChainTokens is what the fixture's ERC-20 and ERC-721 say of themselves.
type onChainTokens struct {
	erc20Name, erc20Symbol   string
	erc20Decimals            int
	erc721Name, erc721Symbol string
}

// tokens reads the fixture's ERC-20 and ERC-721 from the node (token).
func (f *evmFixture) tokens(t *testing.T, ctx context.Context) onChainTokens {
	t.Helper()
	erc20, erc721 := f.token(t, ctx, f.erc20, "ERC-20"), f.token(t, ctx, f.erc721, "ERC-721")
	return onChainTokens{erc20Name: erc20.name, erc20Symbol: erc20.symbol, erc20Decimals: erc20.decimals,
		erc721Name: erc721.name, erc721Symbol: erc721.symbol}
}

// callOne runs a one-result view method with eth_call.
func (f *evmFixture) callOne(t *testing.T, ctx context.Context, to common.Address, art *contracts.Artifact, method string, args ...any) any {
	t.Helper()
	out, err := f.ewoq.Call(ctx, to, art, method, args...)
	require.NoError(t, err, "%s: eth_call %s.%s", f.name(), art.Name, method)
	require.Len(t, out, 1)
	return out[0]
}

// metadataWait bounds waiting for the background read of contract metadata.
const metadataWait = time.Minute

// waitContractMetadata polls the contract metadata endpoint until each token
// contract's metadata has been read (contract metadata is read in the
// background after indexing), the fixture's and every other ERC-20 and
// ERC-721 the ground truth has seen, and returns the fixture tokens' last
// answers.
func (f *evmFixture) waitContractMetadata(t *testing.T, ctx context.Context) map[common.Address]dataapi.Contract {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, metadataWait)
	defer cancel()
	want := map[common.Address]string{f.erc20: "ERC-20", f.erc721: "ERC-721", f.erc1155: "ERC-1155"}
	out := map[common.Address]dataapi.Contract{}
	// The chain-wide checks also meet tokens other tests made: wait for
	// every ERC-20 and ERC-721 the ground truth has seen so far.
	for _, x := range f.truth.All() {
		for _, tr := range x.Transfers {
			if _, ok := want[tr.Token]; !ok && tr.Kind != "ERC-1155" {
				want[tr.Token] = tr.Kind
			}
		}
	}
	for addr, kind := range want {
		c := f.waitTokenMetadata(t, ctx, addr, kind)
		if addr == f.erc20 || addr == f.erc721 || addr == f.erc1155 {
			out[addr] = c
		}
	}
	return out
}

// waitTokenMetadata polls the contract metadata endpoint until avadata has
// read the token's metadata, within ctx.
func (f *evmFixture) waitTokenMetadata(t *testing.T, ctx context.Context, addr common.Address, kind string) dataapi.Contract {
	t.Helper()
	u := f.evmURL("/addresses/"+addr.Hex(), nil)
	for {
		r := harness.GetWithRetryAfter(t, ctx, u)
		var c dataapi.Contract
		if r.Status == http.StatusOK {
			r.Decode(t, &c)
			if c.ErcType == kind && (kind == "ERC-1155" || c.Name != nil) {
				return c
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: metadata of %s never became %s: last %d %s", f.name(), addr, kind, r.Status, r.Body)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// methodSigs maps each selector of the test contracts to its signature.
var methodSigs = sync.OnceValue(func() map[[4]byte]string {
	out := map[[4]byte]string{}
	a := loadEVMArtifacts()
	for _, art := range []*contracts.Artifact{a.erc20, a.erc721, a.erc1155, a.factory, a.forwarder, a.reverter} {
		for _, m := range art.ABI.Methods {
			out[[4]byte(m.ID)] = m.Sig
		}
	}
	return out
})

// checkNativeTx compares a nativeTransaction with the node's transaction,
// receipt and block; full is set for the endpoints that add input and fees.
func (f *evmFixture) checkNativeTx(t *testing.T, ctx context.Context, x *truth.EVMTx, got dataapi.NativeTx, full bool) {
	t.Helper()
	what := fmt.Sprintf("%s tx %s", f.name(), x.Hash)
	harness.RequireUintString(t, x.Block.Number, got.BlockNumber, what+" blockNumber")
	require.Equal(t, int64(x.Block.Timestamp), got.BlockTimestamp, what+" blockTimestamp")
	require.Equal(t, x.Block.Hash, common.HexToHash(got.BlockHash), what+" blockHash")
	require.Len(t, got.BlockHash, 66, what+" blockHash")
	require.Equal(t, f.chainID(), got.ChainID, what+" chainId")
	require.Equal(t, int(x.Index), got.BlockIndex, what+" blockIndex")
	require.Equal(t, x.Hash, common.HexToHash(got.TxHash), what+" txHash")
	require.Equal(t, fmt.Sprint(x.Receipt.Status), got.TxStatus, what+" txStatus")
	require.Equal(t, int(x.Type), got.TxType, what+" txType")
	harness.RequireUintString(t, x.Gas, got.GasLimit, what+" gasLimit")
	harness.RequireUintString(t, x.Receipt.GasUsed, got.GasUsed, what+" gasUsed")
	require.NotNil(t, x.Receipt.EffectiveGasPrice, what)
	harness.RequireDecimal(t, x.Receipt.EffectiveGasPrice, got.GasPrice, what+" gasPrice (the effective price)")
	if x.Type == 0 {
		harness.RequireDecimal(t, x.GasPrice, got.GasPrice, what+" gasPrice of a legacy tx")
	}
	harness.RequireUintString(t, x.Nonce, got.Nonce, what+" nonce")
	requireAddress(t, x.From, got.From.Address, what+" from")
	switch {
	case x.To != nil:
		requireAddress(t, *x.To, got.To.Address, what+" to")
	case x.Receipt.ContractAddress != nil:
		requireAddress(t, *x.Receipt.ContractAddress, got.To.Address, what+" to of a creation")
	}
	harness.RequireDecimal(t, x.Value, got.Value, what+" value")
	f.checkParty(t, ctx, got.From, what+" from")
	f.checkParty(t, ctx, got.To, what+" to")
	f.checkMethod(t, x, got.Method, what)

	if !full {
		require.Nil(t, got.Input, what+": input belongs only to the deployment and transaction endpoints")
		require.Nil(t, got.BaseFeePerGas, what+": baseFeePerGas belongs only to the deployment and transaction endpoints")
		return
	}
	require.NotNil(t, got.Input, what+" input")
	require.Equal(t, "0x"+hex.EncodeToString(x.Input), *got.Input, what+" input")
	require.NotNil(t, got.BaseFeePerGas, what+" baseFeePerGas")
	require.NotNil(t, x.Block.BaseFee, what+": the node's block has no base fee")
	harness.RequireDecimal(t, x.Block.BaseFee, *got.BaseFeePerGas, what+" baseFeePerGas")
	if x.MaxFee == nil {
		require.Nil(t, got.MaxFeePerGas, what+": a legacy tx has no maxFeePerGas")
		require.Nil(t, got.MaxPriorityFeePerGas, what+": a legacy tx has no maxPriorityFeePerGas")
	} else {
		require.NotNil(t, got.MaxFeePerGas, what+" maxFeePerGas")
		require.NotNil(t, got.MaxPriorityFeePerGas, what+" maxPriorityFeePerGas")
		harness.RequireDecimal(t, x.MaxFee, *got.MaxFeePerGas, what+" maxFeePerGas")
		harness.RequireDecimal(t, x.MaxTip, *got.MaxPriorityFeePerGas, what+" maxPriorityFeePerGas")
	}
}

// checkMethod: the call type follows from to and input, the method hash is
// the input's selector, and a method name, when given, is the signature of
// that selector in the called contract's ABI.
func (f *evmFixture) checkMethod(t *testing.T, x *truth.EVMTx, got *dataapi.Method, what string) {
	t.Helper()
	require.NotNil(t, got, what+" method")
	switch {
	case x.To == nil:
		require.Equal(t, "CONTRACT_CREATION", got.CallType, what)
	case len(x.Input) == 0:
		require.Equal(t, "NATIVE_TRANSFER", got.CallType, what)
		require.Contains(t, []string{"", "0x"}, got.MethodHash, what+": a transfer has no selector")
	default:
		require.Equal(t, "CONTRACT_CALL", got.CallType, what)
		require.GreaterOrEqual(t, len(x.Input), 4, what)
		require.Equal(t, "0x"+hex.EncodeToString(x.Input[:4]), got.MethodHash, what+" methodHash")
		if got.MethodName != nil {
			require.Equal(t, got.MethodHash, "0x"+hex.EncodeToString(crypto.Keccak256([]byte(*got.MethodName))[:4]),
				what+": methodName %q is not the selector's signature", *got.MethodName)
			sig, ok := methodSigs()[[4]byte(x.Input[:4])]
			require.True(t, ok, what)
			require.Equal(t, sig, *got.MethodName, what+" methodName")
		}
	}
}

// checkParty: a party naming a token contract must name it as the
// contract does.
func (f *evmFixture) checkParty(t *testing.T, ctx context.Context, p dataapi.Party, what string) {
	t.Helper()
	require.True(t, common.IsHexAddress(p.Address), "%s: address %q", what, p.Address)
	addr := common.HexToAddress(p.Address)
	if addr != f.erc20 && addr != f.erc721 {
		return
	}
	tok := f.tokens(t, ctx)
	name, symbol := tok.erc20Name, tok.erc20Symbol
	if addr == f.erc721 {
		name, symbol = tok.erc721Name, tok.erc721Symbol
	}
	if p.Name != nil {
		require.Equal(t, name, *p.Name, what+" name")
	}
	if p.Symbol != nil {
		require.Equal(t, symbol, *p.Symbol, what+" symbol")
	}
	if p.Decimals != nil {
		require.Equal(t, addr, f.erc20, what+": decimals on a non-ERC-20")
		require.Equal(t, tok.erc20Decimals, *p.Decimals, what+" decimals")
	}
}

// transfersOf splits x's transfers by standard, keeping those for which
// keep is true.
func transfersOf(x *truth.EVMTx, keep func(truth.EVMTransfer) bool) (erc20, erc721, erc1155 []truth.EVMTransfer) {
	for _, tr := range x.Transfers {
		if !keep(tr) {
			continue
		}
		switch tr.Kind {
		case "ERC-20":
			erc20 = append(erc20, tr)
		case "ERC-721":
			erc721 = append(erc721, tr)
		default:
			erc1155 = append(erc1155, tr)
		}
	}
	return erc20, erc721, erc1155
}

// checkLists compares the transfer and internal transaction lists of an
// entry with x's logs and trace, restricted to the entries involving addr
// (the zero address: all of them).
func (f *evmFixture) checkLists(t *testing.T, ctx context.Context, x *truth.EVMTx, got dataapi.TxDetails, addr common.Address) {
	t.Helper()
	what := fmt.Sprintf("%s tx %s", f.name(), x.Hash)
	if addr != (common.Address{}) {
		what += " listed for " + addr.Hex()
	}
	keep := func(tr truth.EVMTransfer) bool {
		return addr == (common.Address{}) || tr.From == addr || tr.To == addr
	}
	want20, want721, want1155 := transfersOf(x, keep)
	require.Len(t, got.Erc20Transfers, len(want20), "%s erc20Transfers: %+v", what, got.Erc20Transfers)
	require.Len(t, got.Erc721Transfers, len(want721), "%s erc721Transfers: %+v", what, got.Erc721Transfers)
	require.Len(t, got.Erc1155Transfers, len(want1155), "%s erc1155Transfers: %+v", what, got.Erc1155Transfers)
	for i, w := range want20 {
		f.checkTransfer(t, ctx, w, got.Erc20Transfers[i], fmt.Sprintf("%s erc20Transfers[%d]", what, i))
	}
	for i, w := range want721 {
		f.checkTransfer(t, ctx, w, got.Erc721Transfers[i], fmt.Sprintf("%s erc721Transfers[%d]", what, i))
	}
	for i, w := range want1155 {
		f.checkTransfer(t, ctx, w, got.Erc1155Transfers[i], fmt.Sprintf("%s erc1155Transfers[%d]", what, i))
	}

	var wantInternal []truth.EVMInternal
	for _, in := range x.Internal {
		if addr == (common.Address{}) || in.From == addr || in.To == addr {
			wantInternal = append(wantInternal, in)
		}
	}
	// Both chains trace every block, so the list is known: the transaction
	// endpoints show it even when empty; an address's entries omit it then,
	// as they omit every empty list.
	var gotInternal []dataapi.InternalTx
	if addr == (common.Address{}) {
		require.NotNil(t, got.InternalTransactions, what+": internalTransactions missing on a traced chain")
	}
	if got.InternalTransactions != nil {
		gotInternal = *got.InternalTransactions
		if addr != (common.Address{}) {
			require.NotEmpty(t, gotInternal, what+": an address's entry omits an empty internalTransactions")
		}
	}
	require.Len(t, gotInternal, len(wantInternal), "%s internalTransactions: %+v", what, gotInternal)
	for i, w := range wantInternal {
		g := gotInternal[i]
		iw := fmt.Sprintf("%s internalTransactions[%d]", what, i)
		requireAddress(t, w.From, g.From.Address, iw+" from")
		requireAddress(t, w.To, g.To.Address, iw+" to")
		require.Equal(t, w.Type, g.InternalTxType, iw+" internalTxType")
		harness.RequireDecimal(t, w.Value, g.Value, iw+" value")
		require.Equal(t, w.Reverted, g.IsReverted, iw+" isReverted")
		harness.RequireUintString(t, w.GasUsed, g.GasUsed, iw+" gasUsed")
		harness.RequireUintString(t, w.Gas, g.GasLimit, iw+" gasLimit")
	}
}

// checkTransfer compares one transfer with its decoded log; the token's
// name, symbol and decimals with what the contract says via eth_call.
func (f *evmFixture) checkTransfer(t *testing.T, ctx context.Context, w truth.EVMTransfer, g dataapi.Transfer, what string) {
	t.Helper()
	requireAddress(t, w.From, g.From.Address, what+" from")
	requireAddress(t, w.To, g.To.Address, what+" to")
	require.Equal(t, int(w.LogIndex), g.LogIndex, what+" logIndex")
	var tok *dataapi.Token
	switch w.Kind {
	case "ERC-20":
		require.Nil(t, g.Erc721Token, what)
		require.Nil(t, g.Erc1155Token, what)
		require.NotNil(t, g.Erc20Token, what+" erc20Token")
		tok = g.Erc20Token
		require.NotNil(t, g.Value, what+" value")
		harness.RequireDecimal(t, w.Value, *g.Value, what+" value")
	case "ERC-721":
		require.Nil(t, g.Erc20Token, what)
		require.Nil(t, g.Erc1155Token, what)
		require.NotNil(t, g.Erc721Token, what+" erc721Token")
		tok = g.Erc721Token
	case "ERC-1155":
		require.Nil(t, g.Erc20Token, what)
		require.Nil(t, g.Erc721Token, what)
		require.NotNil(t, g.Erc1155Token, what+" erc1155Token")
		tok = g.Erc1155Token
		require.NotNil(t, g.Value, what+" value")
		harness.RequireDecimal(t, w.Value, *g.Value, what+" value")
	}
	requireAddress(t, w.Token, tok.Address, what+" token address")
	require.Equal(t, w.Kind, tok.ErcType, what+" ercType")
	if w.TokenID != nil {
		require.NotNil(t, tok.TokenID, what+" tokenId")
		harness.RequireDecimal(t, w.TokenID, *tok.TokenID, what+" tokenId")
		require.NotNil(t, tok.TokenURI, what+" tokenUri is required")
		require.NotNil(t, tok.Metadata, what+" metadata is required")
	}
	if w.Kind != "ERC-20" && w.Kind != "ERC-721" {
		return
	}
	require.NotNil(t, tok.Name, what+" token name (waitContractMetadata waits until it is read)")
	onChain := f.token(t, ctx, w.Token, w.Kind)
	require.Equal(t, onChain.name, *tok.Name, what+" token name")
	require.NotNil(t, tok.Symbol, what+" token symbol")
	require.Equal(t, onChain.symbol, *tok.Symbol, what+" token symbol")
	if w.Kind == "ERC-20" {
		require.NotNil(t, tok.Decimals, what+" erc20Token.decimals")
		require.Equal(t, onChain.decimals, *tok.Decimals, what+" erc20Token.decimals")
	}
}
