package evm

import (
	"context"
	"fmt"
	"math/big"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
	"github.com/avadata/avadata/tests/evmtest"
)

// The EVM tests share one round of real activity per EVM chain of the local
// network (the C-chain and the subnet-evm chain), made once by whichever
// EVM test runs first, both chains at the same time. Every test then checks
// avadata's answers about it against the node (package truth).

// evmFixtureTimeout bounds making the activity on both chains and waiting
// for avadata to index it.
const evmFixtureTimeout = 5 * time.Minute

// evmArtifacts are the test contracts.
type evmArtifacts struct {
	erc20, erc721, erc1155, factory, child, forwarder, reverter *contracts.Artifact
}

func loadEVMArtifacts() evmArtifacts {
	return evmArtifacts{
		erc20: contracts.TestERC20(), erc721: contracts.TestERC721(), erc1155: contracts.TestERC1155(),
		factory: contracts.Factory(), child: contracts.Child(), forwarder: contracts.Forwarder(), reverter: contracts.Reverter(),
	}
}

// fixtureTx is one transaction the fixture sent, named for failure messages.
type fixtureTx struct {
	label string
	hash  common.Hash
}

// fixtureChild is a contract a Factory deployed.
type fixtureChild struct {
	addr    common.Address
	factory common.Address
	tx      common.Hash
	typ     string // CREATE or CREATE2
}

// evmFixture is one EVM chain after the shared activity.
type evmFixture struct {
	chain localnet.EVMChain
	base  string // the shared network's avadata
	art   evmArtifacts
	// ewoq is the pre-funded key that sends almost everything; user is a
	// second funded account that spends an allowance and moves an NFT by
	// approval.
	ewoq, user *evmtest.Client
	// recipients are fresh EOAs that only receive.
	recipients [3]common.Address

	// The deployed contracts.
	erc20, erc721, erc1155, factory, forwarder, reverter common.Address
	// deployments maps each top-level deployed contract to its creation tx.
	deployments map[common.Address]common.Hash
	children    []fixtureChild
	// starvedCreateGas is a gas limit for Factory.create too small for its
	// second child.
	starvedCreateGas uint64
	erc721IDs        []*big.Int // minted ids, from the Transfer logs
	erc1155IDs       []*big.Int
	txs              []fixtureTx // every tx sent, in send order
	firstBlock       uint64
	lastBlock        uint64
	truth            *truth.EVMChain

	// onChain is what token contracts say of themselves (token), read
	// once each.
	onChainMu sync.Mutex
	onChain   map[common.Address]onChainToken
}

// name is the chain's name, used for subtests.
func (f *evmFixture) name() string { return f.chain.Name }

// chainID is the {chainId} path segment of the EVM chain id.
func (f *evmFixture) chainID() string { return fmt.Sprint(f.chain.EVMChainID) }

// tokenName and tokenSymbol differ per chain, so an answer about the wrong
// chain cannot pass.
func (f *evmFixture) tokenName(kind string) string {
	return fmt.Sprintf("%s %d", kind, f.chain.EVMChainID)
}

// evmFixtures returns the shared activity of every EVM chain, making it on
// first use.
func evmFixtures(t *testing.T) []*evmFixture {
	t.Helper()
	return env.activity.Get(t, "the EVM activity", func() []*evmFixture { return buildEVMFixtures(t) })
}

// goT lets require run in a goroutine of its own: failures are collected and
// FailNow ends only that goroutine (runtime.Goexit runs its defers).
type goT struct {
	mu   sync.Mutex
	errs []string
}

func (g *goT) Errorf(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.errs = append(g.errs, fmt.Sprintf(format, args...))
}

func (g *goT) FailNow() { runtime.Goexit() }

func buildEVMFixtures(t *testing.T) []*evmFixture {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), evmFixtureTimeout)
	defer cancel()
	chains := env.Net(t).EVMChains()
	require.GreaterOrEqual(t, len(chains), 2, "the local network should have the C-chain and a subnet-evm chain: %+v", chains)
	userKey, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)

	start := time.Now()
	fixtures := make([]*evmFixture, len(chains))
	failures := make([]*goT, len(chains))
	var wg sync.WaitGroup
	for i, chain := range chains {
		fixtures[i] = &evmFixture{chain: chain, base: env.Base(t), art: loadEVMArtifacts(), deployments: map[common.Address]common.Hash{}}
		failures[i] = &goT{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			fixtures[i].makeActivity(ctx, failures[i], t, userKey)
		}()
	}
	wg.Wait()
	for i, g := range failures {
		if len(g.errs) > 0 {
			t.Fatalf("making activity on %s: %s", chains[i].Name, strings.Join(g.errs, "\n"))
		}
	}
	t.Logf("EVM activity on %d chains in %v", len(chains), time.Since(start).Round(time.Millisecond))

	for _, f := range fixtures {
		waitEVMIndexed(t, ctx, f.chain.BlockchainID.String(), f.lastBlock)
		f.truth = truth.NewEVMChain(f.ewoq.RPC())
		require.NoError(t, f.truth.ScanTo(ctx, f.lastBlock), "reading %s from the node", f.name())
		for _, tx := range f.txs {
			_, ok := f.truth.Tx(tx.hash)
			require.True(t, ok, "%s: %s (%s) not found scanning blocks up to %d", f.name(), tx.label, tx.hash, f.lastBlock)
		}
	}
	t.Logf("EVM activity indexed and read back after %v", time.Since(start).Round(time.Millisecond))
	return fixtures
}

// waitEVMIndexed waits until the follower of the chain with blockchainID
// has indexed height.
func waitEVMIndexed(t *testing.T, ctx context.Context, blockchainID string, height uint64) {
	t.Helper()
	harness.WaitEVMIndexed(t, ctx, env.Base(t), blockchainID, height)
}

// activity is the state of making one chain's activity.
type activity struct {
	*evmFixture
	ctx context.Context
	t   require.TestingT
	log func(format string, args ...any)
}

// makeActivity deploys the contracts and makes every kind of transaction
// the EVM endpoints show, in four bursts of consecutive nonces (back-to-back
// blocks are ~2 s apart, so waiting per tx would take minutes).
func (f *evmFixture) makeActivity(ctx context.Context, g require.TestingT, t *testing.T, userKey *secp256k1.PrivateKey) {
	var err error
	f.ewoq, err = evmtest.Dial(ctx, f.chain.RPCURL, genesis.EWOQKey)
	require.NoError(g, err, "dialing %s", f.chain.RPCURL)
	require.Equal(g, f.chain.EVMChainID, f.ewoq.ChainID().Uint64(), "eth_chainId of %s", f.chain.RPCURL)
	f.user, err = evmtest.Dial(ctx, f.chain.RPCURL, userKey)
	require.NoError(g, err)
	for i := range f.recipients {
		k, err := secp256k1.NewPrivateKey()
		require.NoError(g, err)
		f.recipients[i] = k.EthAddress()
	}
	a := &activity{evmFixture: f, ctx: ctx, t: g, log: func(format string, args ...any) {
		t.Logf("%s: "+format, append([]any{f.name()}, args...)...)
	}}
	a.deployAndFund()
	a.mintsAndInternals()
	a.transfers()
	a.operatorAndFactory()
}

// record notes a transaction the fixture sent (failing on a send error).
func (a *activity) record(label string, h common.Hash, err error) common.Hash {
	require.NoError(a.t, err, "%s: sending %s", a.name(), label)
	a.txs = append(a.txs, fixtureTx{label: label, hash: h})
	return h
}

// call sends a contract call from c, estimating its gas.
func (a *activity) call(c *evmtest.Client, label string, to common.Address, art *contracts.Artifact, method string, value *big.Int, args ...any) common.Hash {
	h, err := c.SendTransact(a.ctx, to, art, method, value, args...)
	return a.record(label, h, err)
}

// failing sends a call meant to revert, with an explicit gas limit
// (estimation of a failing call fails).
func (a *activity) failing(label string, to common.Address, gas uint64, art *contracts.Artifact, method string, value *big.Int, args ...any) common.Hash {
	h, err := a.ewoq.SendWithGas(a.ctx, to, gas, art, method, value, args...)
	return a.record(label, h, err)
}

// wait waits for the receipts of hashes and checks their status: 0 for
// those in failed, 1 for the others.
func (a *activity) wait(phase string, hashes []common.Hash, failed ...common.Hash) []*evmtest.Receipt {
	start := time.Now()
	rs, err := a.ewoq.WaitReceipts(a.ctx, hashes...)
	require.NoError(a.t, err, "%s: %s", a.name(), phase)
	blocks := map[uint64]int{}
	for i, r := range rs {
		want := uint64(1)
		for _, h := range failed {
			if h == hashes[i] {
				want = 0
			}
		}
		require.Equal(a.t, want, r.Status, "%s: %s: status of tx %d (%s)", a.name(), phase, i, hashes[i])
		blocks[r.BlockNumber]++
		if a.firstBlock == 0 || r.BlockNumber < a.firstBlock {
			a.firstBlock = r.BlockNumber
		}
		a.lastBlock = max(a.lastBlock, r.BlockNumber)
	}
	a.log("%s: %d txs in blocks %v, %v", phase, len(rs), blocks, time.Since(start).Round(time.Millisecond))
	return rs
}

func (a *activity) deployAndFund() {
	type deploy struct {
		art  *contracts.Artifact
		args []any
		addr *common.Address
	}
	deploys := []deploy{
		{a.art.erc20, []any{a.tokenName("Token"), "T20"}, &a.erc20},
		{a.art.erc721, []any{a.tokenName("NFT"), "T721"}, &a.erc721},
		{a.art.erc1155, []any{"https://avadata.invalid/erc1155/{id}.json"}, &a.erc1155},
		{a.art.factory, nil, &a.factory},
		{a.art.forwarder, nil, &a.forwarder},
		{a.art.reverter, nil, &a.reverter},
	}
	var hashes []common.Hash
	for _, d := range deploys {
		s, err := a.ewoq.SendDeploy(a.ctx, d.art, d.args...)
		hashes = append(hashes, a.record("deploy "+d.art.Name, s.Hash, err))
		*d.addr = s.Contract
		a.deployments[s.Contract] = s.Hash
	}
	h, err := a.ewoq.SendValue(a.ctx, a.user.Address(), harness.Ether(10))
	hashes = append(hashes, a.record("fund user (EIP-1559)", h, err))
	legacy, err := a.ewoq.Send(a.ctx, evmtest.Tx{To: &a.recipients[0], Value: big.NewInt(1e15), Legacy: true})
	hashes = append(hashes, a.record("legacy value to recipient 0", legacy.Hash, err))
	h, err = a.ewoq.SendValue(a.ctx, a.recipients[1], big.NewInt(2e15))
	hashes = append(hashes, a.record("EIP-1559 value to recipient 1", h, err))
	rs := a.wait("deploy+fund", hashes)
	for i, d := range deploys {
		require.NotNil(a.t, rs[i].ContractAddress, d.art.Name)
		require.Equal(a.t, *d.addr, *rs[i].ContractAddress, d.art.Name)
	}
	require.Equal(a.t, uint8(0), rs[len(rs)-2].Type, "legacy tx type")
	require.Equal(a.t, uint8(2), rs[len(rs)-1].Type, "dynamic fee tx type")
}

// salts of the factory's CREATE2 children.
var (
	salt1 = common.HexToHash("0xa11ce")
	salt2 = common.HexToHash("0xb0b")
	salt3 = common.HexToHash("0xca11")
)

func (a *activity) mintsAndInternals() {
	me, user, r := a.ewoq.Address(), a.user.Address(), a.recipients
	art := a.art
	hashes := []common.Hash{
		a.call(a.ewoq, "ERC-20 mint", a.erc20, art.erc20, "mint", nil, me, harness.Ether(1000)),
		a.call(a.ewoq, "ERC-20 approve user", a.erc20, art.erc20, "approve", nil, user, harness.Ether(100)),
		a.call(a.ewoq, "ERC-721 mint 1", a.erc721, art.erc721, "mint", nil, me),
		a.call(a.ewoq, "ERC-721 mint 2", a.erc721, art.erc721, "mint", nil, me),
		a.call(a.ewoq, "ERC-721 mint 3", a.erc721, art.erc721, "mint", nil, me),
		a.call(a.ewoq, "ERC-721 mint 4 to user", a.erc721, art.erc721, "mint", nil, user),
		a.call(a.ewoq, "ERC-721 mint 5", a.erc721, art.erc721, "mint", nil, me),
		a.call(a.ewoq, "ERC-1155 mint", a.erc1155, art.erc1155, "mint", nil, me, big.NewInt(1), big.NewInt(100)),
		a.call(a.ewoq, "ERC-1155 mintBatch", a.erc1155, art.erc1155, "mintBatch", nil, me,
			[]*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(20), big.NewInt(30)}),
		a.call(a.ewoq, "ERC-1155 mint to user", a.erc1155, art.erc1155, "mint", nil, user, big.NewInt(4), big.NewInt(7)),
		a.call(a.ewoq, "Factory.create", a.factory, art.factory, "create", big.NewInt(3e15), salt1),
		a.call(a.ewoq, "Forwarder.forward", a.forwarder, art.forwarder, "forward", big.NewInt(2e15), r[1]),
		a.call(a.ewoq, "Forwarder.split", a.forwarder, art.forwarder, "split", big.NewInt(5e15), r[1], user),
		a.call(a.ewoq, "Reverter.tryInner (caught inner revert)", a.reverter, art.reverter, "tryInner", nil),
	}
	// Two failed transactions in the middle of the burst: one without
	// internal frames, one whose value call to a contract without receive
	// reverts (a reverted internal transaction with value).
	failed := []common.Hash{
		a.failing("Reverter.alwaysRevert (status 0)", a.reverter, 200_000, art.reverter, "alwaysRevert", nil),
		a.failing("Forwarder.forward to Reverter (status 0)", a.forwarder, 200_000, art.forwarder, "forward", big.NewInt(1e15), a.reverter),
	}
	rs := a.wait("mints+internals", append(hashes, failed...), failed...)
	a.erc721IDs = a.mintedIDs(rs[2:7])
	a.erc1155IDs = []*big.Int{big.NewInt(1), big.NewInt(2), big.NewInt(3), big.NewInt(4)}
	trace := a.noteChildren(hashes[10])
	// A gas limit that pays for the first child but not the second: the
	// CREATE2 runs out of gas after the CREATE succeeded (see
	// operatorAndFactory). Half of the second creation's cost (the 32000 of
	// the opcode plus what its frame used) is missing.
	create2 := trace.Find("CREATE2")[0]
	a.starvedCreateGas = rs[10].GasUsed - (32_000+create2.GasUsed)/2
}

// mintedIDs decodes the token id of each ERC-721 mint receipt's Transfer.
func (a *activity) mintedIDs(rs []*evmtest.Receipt) []*big.Int {
	var ids []*big.Int
	for _, r := range rs {
		logs := r.LogsFrom(a.erc721)
		require.Len(a.t, logs, 1, "logs of %s", r.TxHash)
		ev, err := a.art.erc721.ParseEvent("Transfer", logs[0].Topics, logs[0].Data)
		require.NoError(a.t, err)
		ids = append(ids, ev["tokenId"].(*big.Int))
	}
	return ids
}

// noteChildren records the contracts a successful Factory.create deployed,
// from its trace, and returns the trace.
func (a *activity) noteChildren(h common.Hash) *evmtest.CallFrame {
	trace, err := a.ewoq.TraceTx(a.ctx, h)
	require.NoError(a.t, err)
	for _, typ := range []string{"CREATE", "CREATE2"} {
		frames := trace.Find(typ)
		require.Len(a.t, frames, 1, "%s frames of %s", typ, h)
		require.NotNil(a.t, frames[0].To)
		a.children = append(a.children, fixtureChild{addr: *frames[0].To, factory: frames[0].From, tx: h, typ: typ})
	}
	return trace
}

func (a *activity) transfers() {
	me, user, to := a.ewoq.Address(), a.user.Address(), a.recipients[0]
	art := a.art
	safe721, err := art.erc721.MethodName("safeTransferFrom(address,address,uint256)")
	require.NoError(a.t, err)
	hashes := []common.Hash{
		a.call(a.ewoq, "ERC-20 transfer", a.erc20, art.erc20, "transfer", nil, to, harness.Ether(10)),
		a.call(a.user, "ERC-20 transferFrom by user", a.erc20, art.erc20, "transferFrom", nil, me, user, harness.Ether(5)),
		a.call(a.ewoq, "ERC-721 transferFrom", a.erc721, art.erc721, "transferFrom", nil, me, to, a.erc721IDs[0]),
		a.call(a.ewoq, "ERC-721 safeTransferFrom", a.erc721, art.erc721, safe721, nil, me, to, a.erc721IDs[1]),
		a.call(a.ewoq, "ERC-721 approve user", a.erc721, art.erc721, "approve", nil, user, a.erc721IDs[2]),
		a.call(a.ewoq, "ERC-721 setApprovalForAll user", a.erc721, art.erc721, "setApprovalForAll", nil, user, true),
		a.call(a.ewoq, "ERC-1155 safeTransferFrom", a.erc1155, art.erc1155, "safeTransferFrom", nil, me, to, big.NewInt(1), big.NewInt(10), []byte{}),
		a.call(a.ewoq, "ERC-1155 safeBatchTransferFrom", a.erc1155, art.erc1155, "safeBatchTransferFrom", nil, me, to,
			[]*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(5), big.NewInt(6)}, []byte{}),
	}
	a.wait("transfers", hashes)
}

func (a *activity) operatorAndFactory() {
	me, user := a.ewoq.Address(), a.user.Address()
	art := a.art
	hashes := []common.Hash{
		a.call(a.user, "ERC-721 transferFrom by approved user", a.erc721, art.erc721, "transferFrom", nil, me, user, a.erc721IDs[2]),
		a.call(a.user, "ERC-1155 safeTransferFrom by user", a.erc1155, art.erc1155, "safeTransferFrom", nil, user, a.recipients[2],
			big.NewInt(4), big.NewInt(2), []byte{}),
		a.call(a.ewoq, "Factory.create salt 2", a.factory, art.factory, "create", big.NewInt(4e15), salt2),
	}
	legacy, err := a.ewoq.Send(a.ctx, evmtest.Tx{To: &user, Value: big.NewInt(3e15), Legacy: true})
	hashes = append(hashes, a.record("legacy value to user", legacy.Hash, err))
	// Too little gas makes the CREATE2 fail after the CREATE succeeded: a
	// failed transaction whose trace holds a creation that the revert
	// undid (an internal transaction with isReverted, and no contract).
	failed := a.failing("Factory.create short of gas (status 0)", a.factory, a.starvedCreateGas, art.factory, "create", big.NewInt(1e15), salt3)
	a.wait("operator+factory", append(hashes, failed), failed)
	a.noteChildren(hashes[2])
}
