package synthetic

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/big"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/crypto"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// The shape of the traffic: busy C-chain-like blocks of PerBlock txs
// between Accounts accounts, every other one an ERC-20 transfer (one log)
// of one of Tokens tokens, and in each of the first Held blocks a mint of
// one more token to the holder, who so holds Held tokens. Tx number s goes
// from account 7s to account 13s (mod Accounts), and the even numbers are
// the token transfers: so an account of odd index sends and receives only
// native transfers, one of even index only token transfers, each in about
// 2 of every 1,000 txs.
const (
	PerBlock = 20
	Accounts = 1000
	Tokens   = 10
	Held     = 100
	// writeRun is the blocks per EVMWriter.Apply, like a follower batch.
	writeRun = 256
)

// EVM is what FillEVM wrote, for a benchmark to ask for.
type EVM struct {
	Accounts   []common.Address // the senders and recipients
	Tokens     []common.Address // the tokens the transfers move
	HeldTokens []common.Address // the tokens minted to Holder
	Holder     common.Address
	Txs        int    // txs written: their hashes are Hash("tx", 1…Txs)
	Top        uint64 // the last block: blocks are 1…Top, hashes Hash("block", n)
}

// Hash is the synthetic hash number n of a kind ("tx", "block", …):
// Keccak outputs, so keys and values compress like real ones.
func Hash(kind string, n uint64) common.Hash {
	return crypto.Keccak256Hash([]byte("avadata-bench-"+kind), binary.BigEndian.AppendUint64(nil, n))
}

// Addresses are n synthetic addresses of a kind.
func Addresses(kind string, n int) []common.Address {
	out := make([]common.Address, n)
	for i := range out {
		out[i] = common.BytesToAddress(Hash(kind, uint64(i)).Bytes()[12:])
	}
	return out
}

// Layout is what FillEVM writes for txs transactions, without writing it:
// a benchmark reopening a filled store reads its addresses from here.
func Layout(txs int) EVM {
	blocks := txs / PerBlock
	return EVM{Accounts: Addresses("account", Accounts), Tokens: Addresses("token", Tokens),
		HeldTokens: Addresses("held", Held), Holder: Addresses("holder", 1)[0],
		Txs: blocks * PerBlock, Top: uint64(blocks)}
}

// FillEVM writes txs synthetic transactions (rounded down to whole blocks)
// into chain's blocks 1… through the store's EVMWriter, as a follower
// would, then the tokens' metadata.
func FillEVM(ctx context.Context, st *store.Store, chain netinfo.Chain, txs int) (EVM, error) {
	f := Layout(txs)
	w := st.EVMWriter(chain)
	blocks := int(f.Top)
	var seq uint64
	for from := 1; from <= blocks; from += writeRun {
		batch := make([]*evmdata.Block, 0, writeRun)
		for n := uint64(from); n < uint64(min(from+writeRun, blocks+1)); n++ {
			batch = append(batch, f.block(n, &seq))
		}
		if err := w.Apply(ctx, batch, time.Now()); err != nil {
			return EVM{}, fmt.Errorf("writing synthetic blocks from %d: %w", from, err)
		}
	}
	for i, token := range append(append([]common.Address{}, f.Tokens...), f.HeldTokens...) {
		c := evmdata.Contract{Address: token, Kind: evmdata.Erc20, Name: fmt.Sprintf("Token %03d", i),
			Symbol: fmt.Sprintf("T%03d", i), Decimals: 18, HasDecimal: true}
		if err := st.SetContractMetadata(ctx, chain, c); err != nil {
			return EVM{}, fmt.Errorf("writing the metadata of token %s: %w", token, err)
		}
	}
	return f, nil
}

// block makes block n; seq numbers the txs across blocks.
func (f EVM) block(n uint64, seq *uint64) *evmdata.Block {
	blk := &evmdata.Block{Number: n, Hash: Hash("block", n), Timestamp: 1_700_000_000 + n,
		BaseFee: big.NewInt(25e9), GasLimit: 15e6, Traced: true, Txs: make([]evmdata.Tx, PerBlock)}
	if n > 1 {
		blk.ParentHash = Hash("block", n-1)
	}
	for j := range blk.Txs {
		*seq++
		s := *seq
		from, to := f.Accounts[s*7%Accounts], f.Accounts[s*13%Accounts]
		tx := evmdata.Tx{Index: uint32(j), Hash: Hash("tx", s), Type: 2, From: from, To: &to,
			Value: big.NewInt(int64(s) * 1e12), Gas: 21000, MaxFeePerGas: big.NewInt(50e9),
			MaxPriorityFeePerGas: big.NewInt(1e9), Status: 1, GasUsed: 21000, EffectiveGasPrice: big.NewInt(26e9)}
		if j%2 == 1 { // a token transfer; its log index is unique in the block, as on a chain
			token := f.Tokens[s%Tokens]
			tx.To, tx.Value, tx.Gas, tx.GasUsed = &token, new(big.Int), 60000, 51000
			tx.Input = append([]byte{0xa9, 0x05, 0x9c, 0xbb}, make([]byte, 64)...)
			tx.Transfers = []evmdata.TokenTransfer{{LogIndex: uint32(j), Token: token, Kind: evmdata.Erc20, From: from, To: to,
				Value: big.NewInt(int64(s))}}
		}
		if n <= Held && j == 0 { // a mint of held token n-1 to the holder
			token := f.HeldTokens[n-1]
			tx.To, tx.Value, tx.Gas, tx.GasUsed = &token, new(big.Int), 60000, 51000
			tx.Transfers = []evmdata.TokenTransfer{{LogIndex: uint32(j), Token: token, Kind: evmdata.Erc20, To: f.Holder,
				Value: big.NewInt(1e18)}}
		}
		blk.GasUsed += tx.GasUsed
		blk.Txs[j] = tx
	}
	return blk
}
