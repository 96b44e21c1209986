package store

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// fullBlocks makes count blocks shaped like the e2e full-block catch-up
// benchmark's (tests/e2e/evm/bench_fullblocks_test.go): 150 txs each from
// one of 4 senders, 5 ERC-721 mints, 5 ERC-721 transfers, 10 ERC-1155
// transfers, 5 value transfers and ERC-20 transfers for the rest, each to
// the next of 10,000 recipients; one block a second.
func fullBlocks(from uint64, count int) []*evmdata.Block {
	const perBlock = 150
	erc20 := common.HexToAddress("0xe20")
	erc721 := common.HexToAddress("0xe721")
	erc1155 := common.HexToAddress("0xe1155")
	input := make([]byte, 68)
	out := make([]*evmdata.Block, count)
	for i := range out {
		n := from + uint64(i)
		sender := common.BigToAddress(big.NewInt(int64(0x5000 + n%4)))
		txs := make([]evmdata.Tx, perBlock)
		log := uint32(0)
		for j := range txs {
			seq := int64(n)*perBlock + int64(j)
			recipient := common.BigToAddress(big.NewInt(0x2000000 + seq%10_000))
			tx := evmdata.Tx{Index: uint32(j), Hash: common.BigToHash(big.NewInt(seq)), Type: 2, From: sender,
				Nonce: uint64(seq), Value: new(big.Int), Gas: 90000, MaxFeePerGas: big.NewInt(75e9),
				MaxPriorityFeePerGas: big.NewInt(1e9), Status: 1, GasUsed: 35000, EffectiveGasPrice: big.NewInt(26e9),
				Input: input}
			var t *evmdata.TokenTransfer
			switch {
			case j < 5:
				tx.To = &erc721
				t = &evmdata.TokenTransfer{Token: erc721, Kind: evmdata.Erc721, To: sender, TokenID: big.NewInt(seq), Value: big.NewInt(1)}
			case j < 10:
				tx.To = &erc721
				t = &evmdata.TokenTransfer{Token: erc721, Kind: evmdata.Erc721, From: sender, To: recipient,
					TokenID: big.NewInt(seq - 5), Value: big.NewInt(1)}
			case j < 20:
				tx.To = &erc1155
				t = &evmdata.TokenTransfer{Token: erc1155, Kind: evmdata.Erc1155, Operator: sender, From: sender, To: recipient,
					TokenID: big.NewInt(1 + seq%3), Value: big.NewInt(1)}
			case j < 25:
				tx.To, tx.Value, tx.Input, tx.GasUsed = &recipient, big.NewInt(1), nil, 21000
			default:
				tx.To = &erc20
				t = &evmdata.TokenTransfer{Token: erc20, Kind: evmdata.Erc20, From: sender, To: recipient, Value: big.NewInt(1e18)}
			}
			if t != nil {
				t.LogIndex = log
				log++
				tx.Transfers = []evmdata.TokenTransfer{*t}
			}
			txs[j] = tx
		}
		out[i] = &evmdata.Block{Number: n, Hash: common.BigToHash(big.NewInt(int64(n))), Timestamp: 1_700_000_000 + n,
			BaseFee: big.NewInt(25e9), GasUsed: 35000 * perBlock, GasLimit: 30e6, Txs: txs, Traced: true}
	}
	return out
}

// BenchmarkEVMWriteFullBlocks measures the EVM writer alone over full
// blocks (fullBlocks), committed in batches of 64 (harness.BenchBatch) as the follower's catch-up
// hands them over, from an empty store: the writer's share of the e2e
// full-block catch-up.
func BenchmarkEVMWriteFullBlocks(b *testing.B) {
	const blocks, batch = 640, 64
	chain := fullBlocks(1, blocks)
	ctx := context.Background()
	for range b.N {
		b.StopTimer()
		s, err := Open(b.TempDir(), logging.NoLog{})
		require.NoError(b, err)
		w := s.EVMWriter(evmChain)
		b.StartTimer()
		for from := 0; from < blocks; from += batch {
			require.NoError(b, w.Apply(ctx, chain[from:min(from+batch, blocks)], time.Now()))
		}
		b.StopTimer()
		require.NoError(b, s.Close())
		b.StartTimer()
	}
	b.ReportMetric(float64(b.N*blocks*150)/b.Elapsed().Seconds(), "tx/s")
}
