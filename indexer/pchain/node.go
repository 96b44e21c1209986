package pchain

import (
	"context"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/api"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/ava-labs/avalanchego/vms/platformvm"

	"github.com/avadata/avadata/indexer/blockindex"
)

// Index is what the source reads of the node's index of accepted P blocks;
// *blockindex.Source is one.
type Index interface {
	// Head is the height of the last indexed block (0: only genesis).
	Head(ctx context.Context) (uint64, error)
	// Containers returns the containers of heights from.. (at most max);
	// none when from is past the last indexed block.
	Containers(ctx context.Context, from uint64, max int) ([]blockindex.Container, error)
}

// Platform is what the source asks the P-chain's own API: the state a
// RewardValidatorTx's effects depend on.
type Platform interface {
	// GetTx returns the signed bytes of an accepted tx.
	GetTx(ctx context.Context, txID ids.ID) ([]byte, error)
	// GetRewardUTXOs returns the reward UTXOs (avax.UTXO bytes) paid for
	// the staking tx stakingTxID.
	GetRewardUTXOs(ctx context.Context, stakingTxID ids.ID) ([][]byte, error)
}

// requestTimeout bounds one platform call: avalanchego's clients use
// http.DefaultClient, which has no timeout.
const requestTimeout = 30 * time.Second

// platformClient is Platform over avalanchego's platformvm client.
type platformClient struct{ c *platformvm.Client }

func (p platformClient) GetTx(ctx context.Context, txID ids.ID) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	b, err := p.c.GetTx(ctx, txID)
	if err != nil {
		return nil, fmt.Errorf("platform.getTx(%s): %w", txID, err)
	}
	return b, nil
}

func (p platformClient) GetRewardUTXOs(ctx context.Context, stakingTxID ids.ID) ([][]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	utxos, err := p.c.GetRewardUTXOs(ctx, &api.GetTxArgs{TxID: stakingTxID, Encoding: formatting.Hex})
	if err != nil {
		return nil, fmt.Errorf("platform.getRewardUTXOs(%s): %w", stakingTxID, err)
	}
	return utxos, nil
}

// The node's indexer records an accepted block before the VM commits it, so
// for a moment the index holds a block whose txs the platform API does not
// know yet. Calls that depend on the VM's state retry over that window.
const (
	retryAttempts = 6
	retryFirst    = 100 * time.Millisecond // doubled after each attempt: ~3s in all
)

// retry calls f until it succeeds, retryAttempts times at most, waiting
// first, then twice as long each time, between attempts unless ctx ends.
func retry(ctx context.Context, first time.Duration, f func() error) error {
	wait := first
	var err error
	for attempt := 1; ; attempt++ {
		if err = f(); err == nil || attempt == retryAttempts {
			return err
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return fmt.Errorf("%w (after: %w)", ctx.Err(), err)
		}
		wait *= 2
	}
}
