package metrics

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
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
	"github.com/avadata/avadata/tests/evmtest"
)

// chainActivity is what makeChainActivity did on one EVM chain.
type chainActivity struct {
	chain     localnet.EVMChain
	rpc       *evmtest.Client // EWOQ's client, also the node's JSON-RPC for the truth
	lastBlock uint64          // the newest block the activity made
	txs       int
}

// goT lets require run in a goroutine of its own: failures are collected
// and FailNow ends only that goroutine.
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

// makeActivity makes every kind of activity the chain metrics count on
// every EVM chain of net at the same time, and waits until avadata at base
// has indexed it.
func makeActivity(t *testing.T, ctx context.Context, net *localnet.Network, base string) []*chainActivity {
	t.Helper()
	chains := net.EVMChains()
	require.GreaterOrEqual(t, len(chains), 2, "the local network should have the C-chain and a subnet-evm chain: %+v", chains)
	start := time.Now()
	out := make([]*chainActivity, len(chains))
	fails := make([]*goT, len(chains))
	var wg sync.WaitGroup
	for i, chain := range chains {
		out[i], fails[i] = &chainActivity{chain: chain}, &goT{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i].make(ctx, fails[i], t)
		}()
	}
	wg.Wait()
	for i, g := range fails {
		if len(g.errs) > 0 {
			t.Fatalf("making activity on %s: %s", chains[i].Name, strings.Join(g.errs, "\n"))
		}
	}
	for _, a := range out {
		waitIndexed(t, ctx, base, a.chain.BlockchainID.String(), a.lastBlock)
		t.Logf("%s: %d txs up to block %d", a.chain.Name, a.txs, a.lastBlock)
	}
	t.Logf("activity on %d chains made and indexed in %v", len(chains), time.Since(start).Round(time.Millisecond))
	return out
}

// waitIndexed waits until the follower of blockchainID has indexed height.
func waitIndexed(t *testing.T, ctx context.Context, base, blockchainID string, height uint64) {
	t.Helper()
	for {
		if indexedHeight(t, ctx, base, blockchainID) >= height {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("avadata did not index block %d of %s", height, blockchainID)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// indexedHeight is the height avadata's follower of blockchainID has
// indexed (GET /v1/status).
func indexedHeight(t *testing.T, ctx context.Context, base, blockchainID string) uint64 {
	t.Helper()
	r := harness.GetWithRetryAfter(t, ctx, base+"/v1/status")
	require.Equal(t, http.StatusOK, r.Status, "status: %s", r.Body)
	var body struct {
		Chains []struct {
			BlockchainID  string `json:"blockchainId"`
			IndexedHeight uint64 `json:"indexedHeight"`
		} `json:"chains"`
	}
	r.Decode(t, &body)
	for _, c := range body.Chains {
		if c.BlockchainID == blockchainID {
			return c.IndexedHeight
		}
	}
	t.Fatalf("/v1/status has no chain %s: %s", blockchainID, r.Body)
	return 0
}

// actor sends the activity of one chain.
type actor struct {
	*chainActivity
	ctx context.Context
	t   require.TestingT
}

func (a *actor) sent(h common.Hash, err error) common.Hash {
	require.NoError(a.t, err)
	a.txs++
	return h
}

// wait waits for hashes; those in failed must have status 0, the others 1.
func (a *actor) wait(hashes []common.Hash, failed ...common.Hash) []*evmtest.Receipt {
	rs, err := a.rpc.WaitReceipts(a.ctx, hashes...)
	require.NoError(a.t, err)
	for i, r := range rs {
		want := uint64(1)
		for _, f := range failed {
			if f == hashes[i] {
				want = 0
			}
		}
		require.Equal(a.t, want, r.Status, "status of %s", hashes[i])
		a.lastBlock = max(a.lastBlock, r.BlockNumber)
	}
	return rs
}

// make sends, in bursts: contracts deployed by two senders, value
// transfers from three, ERC-20, ERC-721 and ERC-1155 mints and transfers
// (batch ones too), factory-made contracts (CREATE and CREATE2, two
// callers), a reverted call, and a reverted tx whose trace holds a
// creation the revert undid; then a run of single-tx blocks a second or
// more apart (the TPS figures).
func (c *chainActivity) make(ctx context.Context, g require.TestingT, t *testing.T) {
	var err error
	c.rpc, err = evmtest.Dial(ctx, c.chain.RPCURL, genesis.EWOQKey)
	require.NoError(g, err, "dialing %s", c.chain.RPCURL)
	a := &actor{chainActivity: c, ctx: ctx, t: g}
	keys := make([]*secp256k1.PrivateKey, 5)
	for i := range keys {
		keys[i], err = secp256k1.NewPrivateKey()
		require.NoError(g, err)
	}
	user1, err := evmtest.Dial(ctx, c.chain.RPCURL, keys[0])
	require.NoError(g, err)
	user2, err := evmtest.Dial(ctx, c.chain.RPCURL, keys[1])
	require.NoError(g, err)
	r0, r1, r2 := keys[2].EthAddress(), keys[3].EthAddress(), keys[4].EthAddress()
	me := c.rpc.Address()
	erc20, erc721, erc1155, factory, reverter := contracts.TestERC20(), contracts.TestERC721(), contracts.TestERC1155(), contracts.Factory(), contracts.Reverter()

	// Burst 1: deployments and funding.
	var addrs [5]common.Address
	var hashes []common.Hash
	for i, d := range []struct {
		art  *contracts.Artifact
		args []any
	}{{erc20, []any{"Metric", "MET"}}, {erc721, []any{"MetricNFT", "MNF"}}, {erc1155, []any{"https://avadata.invalid/{id}.json"}}, {factory, nil}, {reverter, nil}} {
		s, err := c.rpc.SendDeploy(ctx, d.art, d.args...)
		hashes = append(hashes, a.sent(s.Hash, err))
		addrs[i] = s.Contract
	}
	hashes = append(hashes,
		a.sent(c.rpc.SendValue(ctx, user1.Address(), harness.Ether(10))),
		a.sent(c.rpc.SendValue(ctx, user2.Address(), harness.Ether(10))),
	)
	legacy, err := c.rpc.Send(ctx, evmtest.Tx{To: &r0, Value: big.NewInt(1e15), Legacy: true})
	hashes = append(hashes, a.sent(legacy.Hash, err))
	a.wait(hashes)
	tok, nft, multi, fac, rev := addrs[0], addrs[1], addrs[2], addrs[3], addrs[4]
	t.Logf("%s: deployed and funded up to block %d", c.chain.Name, c.lastBlock)

	// Burst 2: mints, transfers, factory children, a second deployer, a
	// reverted call; three senders.
	hashes = []common.Hash{
		a.sent(c.rpc.SendTransact(ctx, tok, erc20, "mint", nil, me, harness.Ether(1000))),
		a.sent(c.rpc.SendTransact(ctx, nft, erc721, "mint", nil, me)),
		a.sent(c.rpc.SendTransact(ctx, nft, erc721, "mint", nil, user1.Address())),
		a.sent(c.rpc.SendTransact(ctx, multi, erc1155, "mint", nil, me, big.NewInt(1), big.NewInt(100))),
		a.sent(c.rpc.SendTransact(ctx, multi, erc1155, "mintBatch", nil, me,
			[]*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(20), big.NewInt(30)})),
		a.sent(c.rpc.SendTransact(ctx, fac, factory, "create", big.NewInt(2e15), common.HexToHash("0x1"))),
		a.sent(user1.SendValue(ctx, r1, big.NewInt(3e15))),
		a.sent(user2.SendTransact(ctx, fac, factory, "create", nil, common.HexToHash("0x2"))),
	}
	s, err := user1.SendDeploy(ctx, erc20, "User", "USR")
	hashes = append(hashes, a.sent(s.Hash, err))
	reverted := a.sent(c.rpc.SendWithGas(ctx, rev, 200_000, reverter, "alwaysRevert", nil))
	rs := a.wait(append(hashes, reverted), reverted)
	nftID := a.mintedID(rs[1], nft)

	// Burst 3: token transfers, and a Factory.create with gas for its
	// CREATE child but not its CREATE2 one: status 0, with a creation in
	// its trace that did not last.
	trace, err := c.rpc.TraceTx(ctx, rs[5].TxHash)
	require.NoError(g, err)
	create2 := trace.Find("CREATE2")
	require.Len(g, create2, 1)
	starved := rs[5].GasUsed - (32_000+create2[0].GasUsed)/2
	hashes = []common.Hash{
		a.sent(c.rpc.SendTransact(ctx, tok, erc20, "transfer", nil, r0, harness.Ether(10))),
		a.sent(c.rpc.SendTransact(ctx, tok, erc20, "transfer", nil, user2.Address(), harness.Ether(5))),
		a.sent(c.rpc.SendTransact(ctx, nft, erc721, "transferFrom", nil, me, r1, nftID)),
		a.sent(c.rpc.SendTransact(ctx, multi, erc1155, "safeTransferFrom", nil, me, r2, big.NewInt(1), big.NewInt(10), []byte{})),
		a.sent(c.rpc.SendTransact(ctx, multi, erc1155, "safeBatchTransferFrom", nil, me, r0,
			[]*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(5), big.NewInt(6)}, []byte{})),
	}
	failedCreate := a.sent(c.rpc.SendWithGas(ctx, fac, starved, factory, "create", big.NewInt(1e15), common.HexToHash("0x3")))
	a.wait(append(hashes, failedCreate), failedCreate)
	hashes = []common.Hash{a.sent(user2.SendTransact(ctx, tok, erc20, "transfer", nil, r2, harness.Ether(1)))}
	a.wait(hashes)

	// Single-tx blocks at least a second apart, so the blocks' rates differ.
	for i := range 4 {
		time.Sleep(time.Duration(1000+400*i) * time.Millisecond)
		a.wait([]common.Hash{a.sent(c.rpc.SendValue(ctx, r1, big.NewInt(int64(i+1))))})
	}
}

// mintedID is the token id an ERC-721 mint's Transfer log names.
func (a *actor) mintedID(r *evmtest.Receipt, nft common.Address) *big.Int {
	logs := r.LogsFrom(nft)
	require.Len(a.t, logs, 1, "logs of %s", r.TxHash)
	ev, err := contracts.TestERC721().ParseEvent("Transfer", logs[0].Topics, logs[0].Data)
	require.NoError(a.t, err)
	return ev["tokenId"].(*big.Int)
}
