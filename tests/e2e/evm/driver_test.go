package evm

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/crypto"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// startNode brings up a fresh single-node local network of its own, without
// avadata's chain config (the driver needs none), stopped when the test
// ends.
func startNode(t *testing.T, ctx context.Context) *localnet.Network {
	t.Helper()
	avalanchego, pluginDir, err := harness.Binaries()
	require.NoError(t, err)
	// Registered before the network's Stop, so it runs after it (cleanups
	// are last in, first out) and the node is gone when its dir is removed.
	dir := t.TempDir()
	net, err := localnet.Start(ctx, localnet.Config{
		AvalancheGoPath: avalanchego,
		PluginDir:       pluginDir,
		DataDir:         filepath.Join(dir, "node"),
		ExtraFlags:      map[string]string{"proposervm-min-block-delay": "0s"},
	})
	require.NoError(t, err, "starting the local network")
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := net.Stop(stopCtx); err != nil {
			t.Errorf("stopping the local network: %v", err)
		}
	})
	return net
}

// driverFixture holds what the phases of the test share.
type driverFixture struct {
	t           *testing.T
	ctx         context.Context
	ewoq, user  *evmtest.Client
	erc20       *contracts.Artifact
	erc721      *contracts.Artifact
	erc1155     *contracts.Artifact
	factory     *contracts.Artifact
	child       *contracts.Artifact
	forwarder   *contracts.Artifact
	reverter    *contracts.Artifact
	addr        map[string]common.Address // deployed contracts by name
	recipients  [3]common.Address         // fresh EOAs that receive value and tokens
	lastPhaseAt time.Time
}

// burst waits for every hash (sent back to back, so they share few blocks)
// and logs how long the phase took and which blocks it used.
func (f *driverFixture) burst(name string, hashes ...common.Hash) []*evmtest.Receipt {
	f.t.Helper()
	rs, err := f.ewoq.WaitReceipts(f.ctx, hashes...)
	require.NoError(f.t, err, name)
	blocks := map[uint64]int{}
	for _, r := range rs {
		blocks[r.BlockNumber]++
	}
	now := time.Now()
	f.t.Logf("%s: %d txs in blocks %v, %v", name, len(rs), blocks, now.Sub(f.lastPhaseAt).Round(time.Millisecond))
	f.lastPhaseAt = now
	return rs
}

func (f *driverFixture) call(to common.Address, art *contracts.Artifact, method string, args ...any) any {
	f.t.Helper()
	out, err := f.ewoq.Call(f.ctx, to, art, method, args...)
	require.NoError(f.t, err, "%s.%s", art.Name, method)
	require.Len(f.t, out, 1)
	return out[0]
}

func (f *driverFixture) send(c *evmtest.Client, to common.Address, art *contracts.Artifact, method string, value *big.Int, args ...any) common.Hash {
	f.t.Helper()
	h, err := c.SendTransact(f.ctx, to, art, method, value, args...)
	require.NoError(f.t, err)
	return h
}

func (f *driverFixture) balance(addr common.Address) *big.Int {
	f.t.Helper()
	b, err := f.ewoq.Balance(f.ctx, addr)
	require.NoError(f.t, err)
	return b
}

// event decodes the only log of r that art's contract at addr emitted as
// event name.
func (f *driverFixture) event(r *evmtest.Receipt, art *contracts.Artifact, addr common.Address, name string) (evmtest.Log, map[string]any) {
	f.t.Helper()
	logs := r.LogsFrom(addr)
	require.Len(f.t, logs, 1, "%s logs of %s", art.Name, r.TxHash)
	out, err := art.ParseEvent(name, logs[0].Topics, logs[0].Data)
	require.NoError(f.t, err)
	return logs[0], out
}

// TestEVMContractsOnLocalCChain checks the EVM test tools themselves, the
// driver (package evmtest) and the test contracts (package contracts), on a
// real C-chain of a node of its own: every phase of the activity the EVM
// tests make, each receipt, log, balance and trace as the contracts and the
// driver claim.
func TestEVMContractsOnLocalCChain(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	net := startNode(t, ctx)
	t.Logf("node %s up in %v", net.URI(), time.Since(start).Round(time.Millisecond))

	rpcURL := net.URI() + "/ext/bc/C/rpc"
	ewoq, err := evmtest.Dial(ctx, rpcURL, genesis.EWOQKey)
	require.NoError(t, err)
	defer ewoq.Close()
	require.Equal(t, common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"), ewoq.Address())
	require.Equal(t, int64(43112), ewoq.ChainID().Int64())

	f := &driverFixture{
		t: t, ctx: ctx, ewoq: ewoq,
		erc20: contracts.TestERC20(), erc721: contracts.TestERC721(), erc1155: contracts.TestERC1155(),
		factory: contracts.Factory(), child: contracts.Child(), forwarder: contracts.Forwarder(), reverter: contracts.Reverter(),
		addr: map[string]common.Address{}, lastPhaseAt: time.Now(),
	}
	for i := range f.recipients {
		k, err := secp256k1.NewPrivateKey()
		require.NoError(t, err)
		f.recipients[i] = k.EthAddress()
	}
	userKey, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)

	f.deployAndFund(userKey)
	f.user, err = evmtest.Dial(ctx, rpcURL, userKey)
	require.NoError(t, err)
	defer f.user.Close()

	f.mintsAndInternals()
	f.transfers()
	f.operatorTransfer()
	t.Logf("whole test %v", time.Since(start).Round(time.Millisecond))
}

// deployAndFund deploys every contract and sends plain value transfers
// (DynamicFee and legacy) in one burst.
func (f *driverFixture) deployAndFund(userKey *secp256k1.PrivateKey) {
	t, ctx := f.t, f.ctx
	type deploy struct {
		art  *contracts.Artifact
		args []any
	}
	deploys := []deploy{
		{f.erc20, []any{"Test Token", "TT"}},
		{f.erc721, []any{"Test NFT", "TNFT"}},
		{f.erc1155, []any{"https://avadata.invalid/erc1155/{id}.json"}},
		{f.factory, nil},
		{f.forwarder, nil},
		{f.reverter, nil},
	}
	var hashes []common.Hash
	sent := make([]evmtest.Sent, len(deploys))
	for i, d := range deploys {
		s, err := f.ewoq.SendDeploy(ctx, d.art, d.args...)
		require.NoError(t, err)
		sent[i] = s
		hashes = append(hashes, s.Hash)
	}
	fund, err := f.ewoq.SendValue(ctx, userKey.EthAddress(), harness.Ether(10))
	require.NoError(t, err)
	legacy, err := f.ewoq.Send(ctx, evmtest.Tx{To: &f.recipients[0], Value: big.NewInt(1e15), Legacy: true})
	require.NoError(t, err)
	require.Equal(t, sent[len(sent)-1].Nonce+2, legacy.Nonce, "consecutive nonces")
	rs := f.burst("deploy+fund", append(hashes, fund, legacy.Hash)...)

	for i, d := range deploys {
		r := rs[i]
		require.Equal(t, uint64(1), r.Status, d.art.Name)
		require.Equal(t, uint8(2), r.Type, "DynamicFee by default")
		require.NotNil(t, r.ContractAddress, d.art.Name)
		require.Equal(t, sent[i].Contract, *r.ContractAddress, d.art.Name)
		require.Nil(t, r.To)
		require.Positive(t, r.EffectiveGasPrice.Sign())
		code, err := f.ewoq.Code(ctx, sent[i].Contract)
		require.NoError(t, err)
		// None of these has immutables, so the chain holds exactly the
		// compiled runtime code.
		require.Equal(t, d.art.DeployedBytecode, code, "runtime code of %s", d.art.Name)
		f.addr[d.art.Name] = sent[i].Contract
		t.Logf("%s at %s, gas %d", d.art.Name, sent[i].Contract, r.GasUsed)
	}
	fundR, legacyR := rs[len(deploys)], rs[len(deploys)+1]
	require.Equal(t, uint8(2), fundR.Type)
	require.Equal(t, uint8(0), legacyR.Type, "legacy on request")
	for _, r := range []*evmtest.Receipt{fundR, legacyR} {
		require.Equal(t, uint64(1), r.Status)
		require.Equal(t, uint64(21000), r.GasUsed)
		require.Empty(t, r.Logs)
	}
	require.Equal(t, harness.Ether(10), f.balance(userKey.EthAddress()))
	require.Equal(t, big.NewInt(1e15), f.balance(f.recipients[0]))
}

// mintsAndInternals mints every token kind and makes the internal
// transactions (creations, value calls, a caught revert) and a failed
// transaction, in one burst.
func (f *driverFixture) mintsAndInternals() {
	t, ctx, me := f.t, f.ctx, f.ewoq.Address()
	erc20, erc721, erc1155 := f.addr[contracts.NameTestERC20], f.addr[contracts.NameTestERC721], f.addr[contracts.NameTestERC1155]
	factory, forwarder, reverter := f.addr[contracts.NameFactory], f.addr[contracts.NameForwarder], f.addr[contracts.NameReverter]
	salt := common.HexToHash("0xa11ce")

	h := []common.Hash{
		f.send(f.ewoq, erc20, f.erc20, "mint", nil, me, harness.Ether(1000)),
		f.send(f.ewoq, erc20, f.erc20, "approve", nil, f.user.Address(), harness.Ether(100)),
		f.send(f.ewoq, erc721, f.erc721, "mint", nil, me),
		f.send(f.ewoq, erc721, f.erc721, "mint", nil, me),
		f.send(f.ewoq, erc721, f.erc721, "mint", nil, me),
		f.send(f.ewoq, erc1155, f.erc1155, "mint", nil, me, big.NewInt(1), big.NewInt(100)),
		f.send(f.ewoq, erc1155, f.erc1155, "mintBatch", nil, me, []*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(20), big.NewInt(30)}),
		f.send(f.ewoq, factory, f.factory, "create", big.NewInt(3e15), salt),
		f.send(f.ewoq, forwarder, f.forwarder, "forward", big.NewInt(2e15), f.recipients[1]),
		f.send(f.ewoq, forwarder, f.forwarder, "split", big.NewInt(5e15), f.recipients[1], f.recipients[2]),
		f.send(f.ewoq, reverter, f.reverter, "tryInner", nil),
	}
	// A failed transaction in the middle of the burst, so its block also
	// holds successful ones. Estimation would fail, hence the gas limit.
	failed, err := f.ewoq.SendWithGas(ctx, reverter, 200_000, f.reverter, "alwaysRevert", nil)
	require.NoError(t, err)
	rs := f.burst("mints+internals", append(h, failed)...)
	for i, r := range rs[:len(h)] {
		require.Equal(t, uint64(1), r.Status, "tx %d of the burst", i)
	}

	// ERC-20: Transfer from zero, 3 topics, value in data.
	l, ev := f.event(rs[0], f.erc20, erc20, "Transfer")
	require.Len(t, l.Topics, 3)
	require.Equal(t, common.Address{}, ev["from"])
	require.Equal(t, me, ev["to"])
	require.Equal(t, harness.Ether(1000), ev["value"])
	require.Equal(t, uint8(18), f.call(erc20, f.erc20, "decimals"))
	require.Equal(t, "TT", f.call(erc20, f.erc20, "symbol"))
	require.Equal(t, harness.Ether(1000), f.call(erc20, f.erc20, "balanceOf", me))
	_, ev = f.event(rs[1], f.erc20, erc20, "Approval")
	require.Equal(t, harness.Ether(100), ev["value"])

	// ERC-721: Transfer with 4 topics, ids 1..3 in nonce order.
	for i, r := range rs[2:5] {
		l, ev := f.event(r, f.erc721, erc721, "Transfer")
		require.Len(t, l.Topics, 4)
		require.Empty(t, l.Data)
		require.Equal(t, big.NewInt(int64(i+1)), ev["tokenId"])
	}
	f.checkTokenURI(erc721)
	require.Equal(t, true, f.call(erc721, f.erc721, "supportsInterface", [4]byte{0x80, 0xac, 0x58, 0xcd}), "ERC-721")
	require.Equal(t, true, f.call(erc721, f.erc721, "supportsInterface", [4]byte{0x5b, 0x5e, 0x13, 0x9f}), "metadata")

	// ERC-1155: TransferSingle and TransferBatch, the {id} URI template.
	_, ev = f.event(rs[5], f.erc1155, erc1155, "TransferSingle")
	require.Equal(t, big.NewInt(100), ev["value"])
	_, ev = f.event(rs[6], f.erc1155, erc1155, "TransferBatch")
	require.Equal(t, []*big.Int{big.NewInt(2), big.NewInt(3)}, ev["ids"])
	require.Equal(t, "https://avadata.invalid/erc1155/{id}.json", f.call(erc1155, f.erc1155, "uri", big.NewInt(1)))

	f.checkFactory(rs[7], factory, salt)
	f.checkForwarder(rs[8], rs[9], forwarder)
	f.checkReverter(rs[10], rs[len(h)], reverter)
}

// checkTokenURI decodes token 1's data: URI offline.
func (f *driverFixture) checkTokenURI(erc721 common.Address) {
	t := f.t
	uri, _ := f.call(erc721, f.erc721, "tokenURI", big.NewInt(1)).(string)
	const prefix = "data:application/json;base64,"
	require.True(t, strings.HasPrefix(uri, prefix), uri)
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(uri, prefix))
	require.NoError(t, err)
	var meta struct{ Name, Description, Image string }
	require.NoError(t, json.Unmarshal(raw, &meta), string(raw))
	require.Equal(t, "Test NFT #1", meta.Name)
	require.NotEmpty(t, meta.Description)
	require.True(t, strings.HasPrefix(meta.Image, "data:image/svg+xml;base64,"), meta.Image)
}

// checkFactory: one tx creates a child with CREATE and one with CREATE2,
// each with value, visible in the trace and the logs.
func (f *driverFixture) checkFactory(r *evmtest.Receipt, factory common.Address, salt common.Hash) {
	t, ctx := f.t, f.ctx
	// A contract's first CREATE uses nonce 1 (EIP-161); serials are 0, 1.
	wantCreate := crypto.CreateAddress(factory, 1)
	wantCreate2, _ := f.call(factory, f.factory, "predict", salt, big.NewInt(1)).(common.Address)
	init, err := f.child.DeployData(big.NewInt(1))
	require.NoError(t, err)
	require.Equal(t, crypto.CreateAddress2(factory, salt, crypto.Keccak256(init)), wantCreate2)

	logs := r.LogsFrom(factory)
	require.Len(t, logs, 2)
	for i, want := range []common.Address{wantCreate, wantCreate2} {
		ev, err := f.factory.ParseEvent("ChildCreated", logs[i].Topics, logs[i].Data)
		require.NoError(t, err)
		require.Equal(t, want, ev["child"])
		require.Equal(t, i == 1, ev["create2"])
	}

	trace, err := f.ewoq.TraceTx(ctx, r.TxHash)
	require.NoError(t, err)
	require.Equal(t, "CALL", trace.Type)
	require.Equal(t, factory, *trace.To)
	require.Equal(t, big.NewInt(3e15), trace.Value)
	for typ, want := range map[string]common.Address{"CREATE": wantCreate, "CREATE2": wantCreate2} {
		frames := trace.Find(typ)
		require.Len(t, frames, 1, typ)
		require.Equal(t, factory, frames[0].From)
		require.Equal(t, want, *frames[0].To, typ)
		require.Equal(t, big.NewInt(15e14), frames[0].Value, typ)
		require.Empty(t, frames[0].Error)
		require.Equal(t, big.NewInt(15e14), f.balance(want))
		require.Equal(t, factory, f.call(want, f.child, "factory"))
	}
}

// checkForwarder: value moves on through internal CALLs with value.
func (f *driverFixture) checkForwarder(forward, split *evmtest.Receipt, forwarder common.Address) {
	t, ctx := f.t, f.ctx
	trace, err := f.ewoq.TraceTx(ctx, forward.TxHash)
	require.NoError(t, err)
	inner := trace.Internal()
	require.Len(t, inner, 1)
	require.Equal(t, "CALL", inner[0].Type)
	require.Equal(t, forwarder, inner[0].From)
	require.Equal(t, f.recipients[1], *inner[0].To)
	require.Equal(t, big.NewInt(2e15), inner[0].Value)

	trace, err = f.ewoq.TraceTx(ctx, split.TxHash)
	require.NoError(t, err)
	calls := trace.Find("CALL")[1:] // [0] is the transaction itself
	require.Len(t, calls, 2)
	require.Equal(t, f.recipients[1], *calls[0].To)
	require.Equal(t, big.NewInt(25e14), calls[0].Value)
	require.Equal(t, f.recipients[2], *calls[1].To)
	require.Equal(t, big.NewInt(25e14), calls[1].Value)
	require.Len(t, split.LogsFrom(forwarder), 2)

	require.Equal(t, big.NewInt(45e14), f.balance(f.recipients[1]))
	require.Equal(t, big.NewInt(25e14), f.balance(f.recipients[2]))
	require.Zero(t, f.balance(forwarder).Sign(), "the forwarder keeps nothing")
}

// checkReverter: a caught inner revert in a successful tx, and a failed tx.
func (f *driverFixture) checkReverter(caught, failed *evmtest.Receipt, reverter common.Address) {
	t, ctx := f.t, f.ctx
	_, ev := f.event(caught, f.reverter, reverter, "Caught")
	require.Equal(t, contracts.RevertReason, ev["reason"])
	trace, err := f.ewoq.TraceTx(ctx, caught.TxHash)
	require.NoError(t, err)
	require.Empty(t, trace.Error)
	inner := trace.Internal()
	require.Len(t, inner, 1)
	require.Equal(t, "CALL", inner[0].Type)
	require.Equal(t, reverter, inner[0].From)
	require.Equal(t, "execution reverted", inner[0].Error)
	require.Equal(t, contracts.RevertReason, inner[0].RevertReason)

	require.Equal(t, uint64(0), failed.Status)
	require.Empty(t, failed.Logs)
	require.Less(t, failed.GasUsed, uint64(200_000))
	t.Logf("failed tx %s in block %d at index %d", failed.TxHash, failed.BlockNumber, failed.TransactionIndex)
	trace, err = f.ewoq.TraceTx(ctx, failed.TxHash)
	require.NoError(t, err)
	require.Equal(t, "execution reverted", trace.Error)
	require.Equal(t, contracts.RevertReason, trace.RevertReason)
	require.Equal(t, contracts.RevertReason, f.call(reverter, f.reverter, "REASON"))

	// eth_call of the same function fails with the reason in the error.
	_, err = f.ewoq.Call(ctx, reverter, f.reverter, "alwaysRevert")
	require.ErrorContains(t, err, contracts.RevertReason)
	// So does a waiting send; TransactReverting is how to make one on purpose.
	r, err := f.ewoq.TransactReverting(ctx, reverter, 100_000, f.reverter, "alwaysRevert")
	require.NoError(t, err)
	require.Equal(t, uint64(0), r.Status)
}

// transfers moves each token kind from EWOQ (and ERC-20 by allowance from
// the second account), in one burst.
func (f *driverFixture) transfers() {
	t, me := f.t, f.ewoq.Address()
	erc20, erc721, erc1155 := f.addr[contracts.NameTestERC20], f.addr[contracts.NameTestERC721], f.addr[contracts.NameTestERC1155]
	to, user := f.recipients[0], f.user.Address()
	safe721, err := f.erc721.MethodName("safeTransferFrom(address,address,uint256)")
	require.NoError(t, err)

	h := []common.Hash{
		f.send(f.ewoq, erc20, f.erc20, "transfer", nil, to, harness.Ether(10)),
		f.send(f.user, erc20, f.erc20, "transferFrom", nil, me, user, harness.Ether(5)),
		f.send(f.ewoq, erc721, f.erc721, "transferFrom", nil, me, to, big.NewInt(1)),
		f.send(f.ewoq, erc721, f.erc721, safe721, nil, me, to, big.NewInt(2)),
		f.send(f.ewoq, erc721, f.erc721, "approve", nil, user, big.NewInt(3)),
		f.send(f.ewoq, erc721, f.erc721, "setApprovalForAll", nil, user, true),
		f.send(f.ewoq, erc1155, f.erc1155, "safeTransferFrom", nil, me, to, big.NewInt(1), big.NewInt(10), []byte{}),
		f.send(f.ewoq, erc1155, f.erc1155, "safeBatchTransferFrom", nil, me, to,
			[]*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(5), big.NewInt(6)}, []byte{}),
	}
	rs := f.burst("transfers", h...)
	for i, r := range rs {
		require.Equal(t, uint64(1), r.Status, "tx %d of the burst", i)
	}
	// transferFrom spends the allowance: OZ 4.9 emits Approval (the new
	// allowance) and then Transfer.
	logs := rs[1].LogsFrom(erc20)
	require.Len(t, logs, 2)
	_, err = f.erc20.ParseEvent("Approval", logs[0].Topics, logs[0].Data)
	require.NoError(t, err)
	ev, err := f.erc20.ParseEvent("Transfer", logs[1].Topics, logs[1].Data)
	require.NoError(t, err)
	require.Equal(t, user, ev["to"])
	require.Equal(t, user, rs[1].From)
	for _, r := range rs[2:4] {
		l, ev := f.event(r, f.erc721, erc721, "Transfer")
		require.Len(t, l.Topics, 4)
		require.Equal(t, to, ev["to"])
	}
	_, ev = f.event(rs[5], f.erc721, erc721, "ApprovalForAll")
	require.Equal(t, true, ev["approved"])
	_, ev = f.event(rs[7], f.erc1155, erc1155, "TransferBatch")
	require.Equal(t, []*big.Int{big.NewInt(5), big.NewInt(6)}, ev["values"])

	require.Equal(t, harness.Ether(985), f.call(erc20, f.erc20, "balanceOf", me))
	require.Equal(t, harness.Ether(10), f.call(erc20, f.erc20, "balanceOf", to))
	require.Equal(t, harness.Ether(5), f.call(erc20, f.erc20, "balanceOf", user))
	require.Equal(t, to, f.call(erc721, f.erc721, "ownerOf", big.NewInt(2)))
	require.Equal(t, big.NewInt(90), f.call(erc1155, f.erc1155, "balanceOf", me, big.NewInt(1)))
	require.Equal(t, big.NewInt(6), f.call(erc1155, f.erc1155, "balanceOf", to, big.NewInt(3)))
}

// operatorTransfer: the approved second account moves EWOQ's ERC-721
// while EWOQ deploys another token with the waiting Deploy, concurrently so
// both land in the same block.
func (f *driverFixture) operatorTransfer() {
	t, me, user := f.t, f.ewoq.Address(), f.user.Address()
	erc721 := f.addr[contracts.NameTestERC721]
	type deployed struct {
		addr common.Address
		r    *evmtest.Receipt
		err  error
	}
	done := make(chan deployed, 1)
	go func() {
		addr, r, err := f.ewoq.Deploy(f.ctx, f.erc20, "Second", "TWO")
		done <- deployed{addr, r, err}
	}()
	r, err := f.user.Transact(f.ctx, erc721, f.erc721, "transferFrom", nil, me, user, big.NewInt(3))
	require.NoError(t, err)
	d := <-done
	require.NoError(t, d.err)
	require.Equal(t, d.addr, *d.r.ContractAddress)
	require.Equal(t, "TWO", f.call(d.addr, f.erc20, "symbol"))
	l, ev := f.event(r, f.erc721, erc721, "Transfer")
	require.Len(t, l.Topics, 4)
	require.Equal(t, me, ev["from"])
	require.Equal(t, user, f.call(erc721, f.erc721, "ownerOf", big.NewInt(3)))
}
