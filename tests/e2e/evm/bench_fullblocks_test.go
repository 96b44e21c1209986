package evm

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/core/types"
	"github.com/ava-labs/libevm/rpc"

	"github.com/avadata/avadata/indexer/evmchain"
	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// The full-block catch-up benchmark's blocks: AVADATA_BENCH_FULL_BLOCKS
// blocks (default 200) of AVADATA_BENCH_BLOCK_TXS transactions each
// (default 150, at least fullBlockMinTxs), each block one round of one of
// fullBlockSenders keys. A round is mostly ERC-20 transfers, with ERC-721
// mints and transfers, ERC-1155 transfers and a few value transfers.
const (
	fullBlockMinTxs  = 100
	fullBlockSenders = 4

	fullBlockERC721Mints     = 5
	fullBlockERC721Transfers = 5
	fullBlockERC1155         = 10
	fullBlockValue           = 5

	// Gas limits per kind, fixed so a round is signed without estimating
	// (a round's later txs depend on its earlier ones); ~2× what each uses.
	// A round of 150 holds ~14M of gas limits (the block's limit is 30M).
	gasERC20Transfer  = 90_000
	gasERC721Mint     = 200_000
	gasERC721Transfer = 120_000
	gasERC1155        = 120_000
	gasValue          = 21_000

	// subnetEVMTargetGasPerSec is the local subnet-evm chain's fee target
	// (localnet.SubnetEVMGenesis: targetGas 150M gas per 10 s window). The
	// base fee grows each block by (window's gas − target) / target / 48:
	// the rounds come, by the gas each block used, at most
	// fullBlockGasRate× the target while the gas price is below
	// fullBlockCalmPrice, and at half the target (the fee falls) above it,
	// so the base fee stays tens of gwei however many blocks are made (the
	// node refuses a tx whose fee cap × gas exceeds 100 coins).
	subnetEVMTargetGasPerSec = 15_000_000
	fullBlockGasRate         = 3
	fullBlockCalmPrice       = 50_000_000_000 // 50 gwei
)

func envUint(name string, def uint64) uint64 {
	if n, err := strconv.ParseUint(os.Getenv(name), 10, 64); err == nil && n > 0 {
		return n
	}
	return def
}

func fullBenchBlocks() uint64 { return envUint("AVADATA_BENCH_FULL_BLOCKS", 200) }

func fullBenchBlockTxs() int {
	return int(max(envUint("AVADATA_BENCH_BLOCK_TXS", 150), fullBlockMinTxs))
}

// fullSender is one key the rounds send from, with its next nonce.
type fullSender struct {
	key   *ecdsa.PrivateKey
	addr  common.Address
	nonce uint64
}

// fullBlockMaker makes full blocks on an EVM chain: each round signs one
// sender's n transactions, hands all but the first to the node (queued
// behind the nonce gap, so no block is built from them), waits for the
// previous round's block, then sends the first: the pool promotes the
// whole round at once and the next block holds all of it.
type fullBlockMaker struct {
	b       *testing.B
	rpc     *rpc.Client
	signer  types.Signer
	chainID *big.Int
	senders []*fullSender

	erc20, erc721, erc1155 common.Address
	minted                 uint64 // ERC-721 ids minted so far (ids 1, 2, ...)
	recipients             uint64 // recipients used so far
	gasUsed                uint64 // by the rounds' blocks so far

	// The previous round: its last tx, when its first was sent.
	lastHash common.Hash
	lastSent time.Time
}

// fullRecipient is the i-th recipient: 10,000 addresses in turn, so later
// rounds send to addresses earlier ones did.
func fullRecipient(i uint64) common.Address {
	return common.BigToAddress(new(big.Int).SetUint64(0x2000000 + i%10_000))
}

// makeFullBlocks deploys the tokens and funds the senders from EWOQ, then
// makes blocks full blocks of txs transactions. It returns the first and
// last of them.
func makeFullBlocks(b *testing.B, ctx context.Context, chain localnet.EVMChain, blocks uint64, txs int) (first, last uint64) {
	ewoq, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	if err != nil {
		b.Fatal(err)
	}
	defer ewoq.Close()
	m := &fullBlockMaker{b: b, rpc: ewoq.RPC(), chainID: ewoq.ChainID()}
	m.signer = types.LatestSignerForChainID(m.chainID)
	deploy := func(art *contracts.Artifact, args ...any) common.Address {
		addr, _, err := ewoq.Deploy(ctx, art, args...)
		if err != nil {
			b.Fatal(err)
		}
		return addr
	}
	m.erc20 = deploy(contracts.TestERC20(), "Full", "FUL")
	m.erc721 = deploy(contracts.TestERC721(), "Full NFT", "FNFT")
	m.erc1155 = deploy(contracts.TestERC1155(), "https://example.invalid/{id}.json")

	var funding []common.Hash
	send := func(h common.Hash, err error) {
		if err != nil {
			b.Fatal(err)
		}
		funding = append(funding, h)
	}
	coins := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))
	tokens := new(big.Int).Mul(big.NewInt(1e12), big.NewInt(1e18))
	for range fullBlockSenders {
		k, err := secp256k1.NewPrivateKey()
		if err != nil {
			b.Fatal(err)
		}
		s := &fullSender{key: k.ToECDSA(), addr: k.EthAddress()}
		m.senders = append(m.senders, s)
		send(ewoq.SendValue(ctx, s.addr, coins))
		send(ewoq.SendTransact(ctx, m.erc20, contracts.TestERC20(), "mint", nil, s.addr, tokens))
		for id := int64(1); id <= 3; id++ {
			send(ewoq.SendTransact(ctx, m.erc1155, contracts.TestERC1155(), "mint", nil, s.addr, big.NewInt(id), big.NewInt(1_000_000)))
		}
	}
	rs, err := ewoq.WaitReceipts(ctx, funding...)
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range rs {
		if r.Status != 1 {
			b.Fatalf("funding tx %s failed", r.TxHash)
		}
	}

	head, err := ewoq.BlockNumber(ctx)
	if err != nil {
		b.Fatal(err)
	}
	began := time.Now()
	for r := range blocks {
		m.round(ctx, m.senders[r%fullBlockSenders], txs)
	}
	last, used := m.waitPrevious(ctx)
	m.gasUsed += used
	price, _ := m.fees(ctx)
	b.Logf("made blocks %d..%d (%d rounds of %d txs, %.1fM gas a block) in %s; gas price now %s gwei",
		head+1, last, blocks, txs, float64(m.gasUsed)/float64(blocks)/1e6,
		time.Since(began).Round(time.Millisecond), new(big.Int).Div(price, big.NewInt(1e9)))
	return head + 1, last
}

// fees is the node's gas price (base fee plus tip) and tip.
func (m *fullBlockMaker) fees(ctx context.Context) (price, tip *big.Int) {
	var p, t hexutil.Big
	if err := m.rpc.CallContext(ctx, &p, "eth_gasPrice"); err != nil {
		m.b.Fatal(err)
	}
	if err := m.rpc.CallContext(ctx, &t, "eth_maxPriorityFeePerGas"); err != nil {
		m.b.Fatal(err)
	}
	return p.ToInt(), t.ToInt()
}

// round makes one block of n transactions from s.
func (m *fullBlockMaker) round(ctx context.Context, s *fullSender, n int) {
	b := m.b
	price, tip := m.fees(ctx)
	// 3× the price: the base fee rises a few percent a block, and the
	// round is signed one block ahead.
	feeCap := new(big.Int).Add(new(big.Int).Mul(price, big.NewInt(3)), tip)
	raws := make([]hexutil.Bytes, 0, n)
	var lastHash common.Hash
	add := func(to common.Address, value *big.Int, data []byte, limit uint64) {
		if value == nil {
			value = new(big.Int)
		}
		tx, err := types.SignTx(types.NewTx(&types.DynamicFeeTx{
			ChainID: m.chainID, Nonce: s.nonce, GasTipCap: tip, GasFeeCap: feeCap,
			Gas: limit, To: &to, Value: value, Data: data,
		}), m.signer, s.key)
		if err != nil {
			b.Fatal(err)
		}
		raw, err := tx.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		s.nonce++
		raws = append(raws, raw)
		lastHash = tx.Hash()
	}
	pack := func(art *contracts.Artifact, method string, args ...any) []byte {
		data, err := art.Pack(method, args...)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	next := func() common.Address {
		m.recipients++
		return fullRecipient(m.recipients)
	}
	erc20, erc721, erc1155 := contracts.TestERC20(), contracts.TestERC721(), contracts.TestERC1155()
	ids := make([]uint64, 0, fullBlockERC721Mints)
	for range fullBlockERC721Mints {
		m.minted++
		ids = append(ids, m.minted)
		add(m.erc721, nil, pack(erc721, "mint", s.addr), gasERC721Mint)
	}
	for _, id := range ids[:fullBlockERC721Transfers] {
		add(m.erc721, nil, pack(erc721, "transferFrom", s.addr, next(), new(big.Int).SetUint64(id)), gasERC721Transfer)
	}
	for i := range fullBlockERC1155 {
		add(m.erc1155, nil, pack(erc1155, "safeTransferFrom", s.addr, next(), big.NewInt(int64(1+i%3)), big.NewInt(1), []byte{}), gasERC1155)
	}
	for range fullBlockValue {
		add(next(), big.NewInt(1), nil, gasValue)
	}
	for len(raws) < n {
		add(m.erc20, nil, pack(erc20, "transfer", next(), big.NewInt(1e18)), gasERC20Transfer)
	}

	// All but the first, queued behind its nonce.
	batch := make([]rpc.BatchElem, 0, n-1)
	for _, raw := range raws[1:] {
		batch = append(batch, rpc.BatchElem{Method: "eth_sendRawTransaction", Args: []any{raw}, Result: new(common.Hash)})
	}
	if err := m.rpc.BatchCallContext(ctx, batch); err != nil {
		b.Fatal(err)
	}
	for i, e := range batch {
		if e.Error != nil {
			b.Fatalf("round tx %d: %v", i+1, e.Error)
		}
	}
	// Paced by the gas the previous round's block used.
	_, used := m.waitPrevious(ctx)
	m.gasUsed += used
	rate := float64(fullBlockGasRate * subnetEVMTargetGasPerSec)
	if price.Cmp(big.NewInt(fullBlockCalmPrice)) > 0 {
		rate = subnetEVMTargetGasPerSec / 2
	}
	if !m.lastSent.IsZero() {
		time.Sleep(time.Until(m.lastSent.Add(time.Duration(float64(used) / rate * float64(time.Second)))))
	}
	m.lastSent = time.Now()
	if err := m.rpc.CallContext(ctx, nil, "eth_sendRawTransaction", raws[0]); err != nil {
		b.Fatalf("round's first tx: %v", err)
	}
	m.lastHash = lastHash
}

// waitPrevious waits until the previous round's last tx is in a block and
// returns that block's height and the gas the block used up to it (0s when
// there was none).
func (m *fullBlockMaker) waitPrevious(ctx context.Context) (height, gasUsed uint64) {
	if m.lastHash == (common.Hash{}) {
		return 0, 0
	}
	for {
		var r *struct {
			BlockNumber       hexutil.Uint64 `json:"blockNumber"`
			CumulativeGasUsed hexutil.Uint64 `json:"cumulativeGasUsed"`
		}
		if err := m.rpc.CallContext(ctx, &r, "eth_getTransactionReceipt", m.lastHash); err != nil {
			m.b.Fatal(err)
		}
		if r != nil {
			return uint64(r.BlockNumber), uint64(r.CumulativeGasUsed)
		}
		select {
		case <-ctx.Done():
			m.b.Fatal(ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// rangeStats is what blocks from..last hold.
type rangeStats struct {
	txs, transfers, failed uint64
	minTxs, maxTxs         int
}

func (s rangeStats) String() string {
	return fmt.Sprintf("%d txs (%d-%d a block), %d token transfers, %d failed", s.txs, s.minTxs, s.maxTxs, s.transfers, s.failed)
}

func statsOf(b *testing.B, ctx context.Context, src *evmchain.Source, from, last uint64) rangeStats {
	s := rangeStats{minTxs: -1}
	for h := from; h <= last; h += harness.BenchBatch {
		blocks, err := src.Fetch(ctx, h, int(min(harness.BenchBatch, last-h+1)))
		if err != nil {
			b.Fatal(err)
		}
		for _, blk := range blocks {
			n := len(blk.Txs)
			s.txs += uint64(n)
			if s.minTxs < 0 || n < s.minTxs {
				s.minTxs = n
			}
			s.maxTxs = max(s.maxTxs, n)
			for i := range blk.Txs {
				s.transfers += uint64(len(blk.Txs[i].Transfers))
				if !blk.Txs[i].Succeeded() {
					s.failed++
				}
			}
		}
	}
	return s
}
