package store

import (
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// A block whose events alone are more than one Badger transaction holds is
// still indexed, its events all in the outbox in order; so is the block
// after it in the same batch, which commits in a transaction of its own.
func TestWebhookEventsOfOneBlockBeyondATransaction(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	const webhooks, perBlock = 30, 2000
	var hooks []webhookdata.Webhook
	for i := range webhooks {
		hooks = append(hooks, evmHook(t, s, byte(i+1), []common.Address{alice}, nil))
	}
	require.Greater(webhooks*perBlock, int(s.db.MaxBatchCount()), "one block gives more events than a transaction takes")
	var c chainBuilder
	var chain []*evmdata.Block
	for range 2 {
		txs := make([]evmdata.Tx, perBlock)
		for i := range txs {
			txs[i] = transferTx(alice, bob)
		}
		chain = append(chain, c.block(txs...))
	}
	applyEVM(t, s, chain...)
	for _, h := range []webhookdata.Webhook{hooks[0], hooks[webhooks-1]} {
		got := evmEvents(t, s, h.ID)
		require.Len(got, 2*perBlock)
		require.Equal(chain[0].Txs[0].Hash.Hex(), got[0].Event.Transaction.TxHash)
		require.Equal(chain[1].Txs[perBlock-1].Hash.Hex(), got[len(got)-1].Event.Transaction.TxHash)
	}
}

// Events written apart from a transaction that then loses a conflict are
// removed: the block is written again and gives the events it gives then.
func TestWebhookEventsApartGoWhenTheCommitConflicts(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	h := evmHook(t, s, 1, []common.Address{alice}, nil)
	var c chainBuilder
	b := c.block(transferTx(alice, bob))
	probe := []byte{tagMeta, 'p', 'r', 'o', 'b', 'e'}
	events := int(s.db.MaxBatchCount())
	write := func(w *blockTxn, b *evmdata.Block) error {
		if _, err := w.get(probe); err != nil { // read: another writer's change of it conflicts
			return err
		}
		if err := s.db.Update(func(txn *badgerTxn) error { return txn.Set(probe, []byte{1}) }); err != nil {
			return err
		}
		for i := range events {
			if err := w.emitWebhookEvent(&h, b.Height(), map[string]int{"n": i}); err != nil {
				return err
			}
		}
		return nil
	}
	_, err := commitPrefix(s, evmChain, StreamBlocks, []*evmdata.Block{b}, time.Now(), write)
	require.ErrorIs(err, badger.ErrConflict)
	left, err := s.Outbox(t.Context(), h.ID, 10)
	require.NoError(err)
	require.Empty(left, "no event of the uncommitted block is left")
}
