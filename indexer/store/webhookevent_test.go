package store

import (
	"testing"

	"github.com/ava-labs/libevm/common"
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
