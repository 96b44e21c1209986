package store

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

// The describer reads a queued contract, calls the node, and stores what it
// read some time later. A block indexed in between that reveals the
// contract's standard (its first transfer) must not be undone by that
// write: the standard seen in the logs stands.
func TestSetContractMetadataKeepsWhatBlocksWroteMeanwhile(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	var c chainBuilder
	made := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	applyEVM(t, s, c.block(evmdata.Tx{From: alice, Status: 1, ContractAddress: &made,
		Creations: []evmdata.ContractCreation{{Address: made, Deployer: alice}}}))

	pending, err := s.PendingContracts(ctx, evmChain, 10)
	require.NoError(err)
	require.Len(pending, 1)
	require.Equal(evmdata.ErcUnknown, pending[0].Kind)

	// While the describer calls the node, the contract's first transfer
	// is indexed: it is an ERC-20.
	applyEVM(t, s, c.block(transferTx(alice, made, evmdata.TokenTransfer{Token: made, Kind: evmdata.Erc20,
		From: alice, To: bob, Value: common.Big1})))

	described := pending[0]
	described.Name, described.Symbol, described.Decimals, described.HasDecimal = "Made", "MADE", 18, true
	require.NoError(s.SetContractMetadata(ctx, evmChain, described))

	got, found, err := s.Contract(ctx, evmChain, made)
	require.NoError(err)
	require.True(found)
	require.Equal(evmdata.Erc20, got.Kind, "the transfer's standard stands")
	require.Equal("Made", got.Name)
	require.True(got.MetadataRead)
	require.NotNil(got.Deployment)
	left, err := s.PendingContracts(ctx, evmChain, 10)
	require.NoError(err)
	require.Empty(left, "described: off the queue")
}

// The follower, the describer and readers at once, as on a node indexing a
// burst of new tokens (run with -race): every block commit succeeds (a
// describer's write never makes one conflict and set the follower back),
// no reader ever sees a described contract without its deployment or
// standard, and in the end every token is an ERC-20 with its metadata and
// deployment, and every lookup of it answers so.
func TestContractsUnderFollowerDescriberAndReaders(t *testing.T) {
	s := openTest(t, t.TempDir())
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const tokens = 150
	addr := func(i int) common.Address { return common.BigToAddress(big.NewInt(int64(0xc0000 + i))) }

	var written atomic.Int64 // tokens whose blocks are committed
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	fail := func(err error) {
		select {
		case errs <- err:
		default:
		}
		cancel()
	}
	done := make(chan struct{})

	// The follower: each token is deployed in one block, and moved in the
	// next one (its standard revealed a block after it was queued) and in
	// a few later ones, so that block commits keep reading its row.
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(done)
		var c chainBuilder
		w := s.EVMWriter(evmChain)
		for i := range tokens {
			a := addr(i)
			txs := []evmdata.Tx{{From: alice, Status: 1, ContractAddress: &a,
				Creations: []evmdata.ContractCreation{{Address: a, Deployer: alice}}}}
			for j := max(0, i-3); j < i; j++ {
				txs = append(txs, transferTx(alice, addr(j), evmdata.TokenTransfer{Token: addr(j), Kind: evmdata.Erc20,
					From: alice, To: bob, Value: common.Big1, LogIndex: uint32(j)}))
			}
			if err := w.Apply(ctx, []*evmdata.Block{c.block(txs...)}, time.Now()); err != nil {
				fail(fmt.Errorf("block of token %d: %w", i, err))
				return
			}
			written.Store(int64(i))
		}
		last := addr(tokens - 1)
		if err := w.Apply(ctx, []*evmdata.Block{c.block(transferTx(alice, last, evmdata.TokenTransfer{Token: last,
			Kind: evmdata.Erc20, From: alice, To: bob, Value: common.Big1}))}, time.Now()); err != nil {
			fail(fmt.Errorf("last transfer: %w", err))
		}
		written.Store(tokens)
	}()

	// The describer: reads what is queued, "calls the node", stores it.
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			pending, err := s.PendingContracts(ctx, evmChain, 5)
			if err != nil {
				fail(err)
				return
			}
			if len(pending) == 0 {
				select {
				case <-done:
					return
				case <-ctx.Done():
					return
				case <-time.After(time.Millisecond):
				}
				continue
			}
			time.Sleep(200 * time.Microsecond) // the node's answer takes a while
			for _, c := range pending {
				c.Name, c.Symbol, c.Decimals, c.HasDecimal = "T"+c.Address.Hex()[36:], "T", 18, true
				if err := s.SetContractMetadata(ctx, evmChain, c); err != nil {
					fail(err)
					return
				}
			}
		}
	}()

	// Readers: a contract that is found always has its deployment (they
	// are written by one commit), and one with its metadata read is an
	// ERC-20 once its first transfer is indexed.
	for r := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				case <-ctx.Done():
					return
				default:
				}
				w := int(written.Load())
				if w < 2 {
					continue
				}
				i := (n*7 + r) % (w - 1) // a token moved in a committed block
				got, found, err := s.Contract(ctx, evmChain, addr(i))
				if err != nil {
					fail(err)
					return
				}
				if !found || got.Deployment == nil || got.Kind != evmdata.Erc20 {
					fail(fmt.Errorf("token %d after its transfer was committed: found %v, kind %s, deployment %v",
						i, found, got.Kind, got.Deployment))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	// Let the describer finish what the last blocks queued.
	for {
		pending, err := s.PendingContracts(context.Background(), evmChain, tokens)
		require.NoError(t, err)
		if len(pending) == 0 {
			break
		}
		for _, c := range pending {
			c.Name, c.Symbol, c.Decimals, c.HasDecimal = "T"+c.Address.Hex()[36:], "T", 18, true
			require.NoError(t, s.SetContractMetadata(context.Background(), evmChain, c))
		}
	}
	for i := range tokens {
		got, found, err := s.Contract(context.Background(), evmChain, addr(i))
		require.NoError(t, err)
		require.True(t, found, "token %d", i)
		require.Equal(t, evmdata.Erc20, got.Kind, "token %d: the standard its transfers showed", i)
		require.True(t, got.MetadataRead, "token %d", i)
		require.Equal(t, "T"+addr(i).Hex()[36:], got.Name, "token %d", i)
		require.NotNil(t, got.Deployment, "token %d", i)
	}
}
