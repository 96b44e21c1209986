package pchain

import (
	"context"
	"fmt"
	"strings"
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
	// L1Refund finds the UTXO utxoID (avax.UTXO bytes) among those of the
	// remaining-balance owner of the L1 validation; found is false when the
	// node's UTXO set does not hold it (spent, or never made). knownOwners,
	// when set, are that owner's addresses as the index recorded them: they
	// stand in once the node no longer holds the validation (removed).
	L1Refund(ctx context.Context, validationID, utxoID ids.ID, knownOwners []ids.ShortID) (b []byte, found bool, err error)
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

// getUTXOsLimit is the page size of platform.getUTXOs (its maximum).
const getUTXOsLimit = 1024

func (p platformClient) L1Refund(ctx context.Context, validationID, utxoID ids.ID, knownOwners []ids.ShortID) ([]byte, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	addrs := knownOwners
	v, _, err := p.c.GetL1Validator(ctx, validationID)
	switch {
	case isL1ValidatorNotFound(err):
		// A SetL1ValidatorWeightTx of weight 0 removed the validation with
		// its owners: only the index's record says who the refund went to.
		// Without it the refund is left out like one already spent
		// (refund.go): waiting for an answer that cannot come would stop
		// the P-chain follower.
	case err != nil:
		return nil, false, fmt.Errorf("platform.getL1Validator(%s): %w", validationID, err)
	case v.RemainingBalanceOwner != nil:
		addrs = v.RemainingBalanceOwner.Addrs
	}
	if len(addrs) == 0 {
		return nil, false, nil
	}
	return findUTXO(ctx, func(ctx context.Context, startAddr ids.ShortID, startUTXO ids.ID) ([][]byte, ids.ShortID, ids.ID, error) {
		utxos, nextAddr, nextUTXO, err := p.c.GetUTXOs(ctx, addrs, getUTXOsLimit, startAddr, startUTXO)
		if err != nil {
			return nil, ids.ShortID{}, ids.ID{}, fmt.Errorf("platform.getUTXOs: %w", err)
		}
		return utxos, nextAddr, nextUTXO, nil
	}, utxoID)
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

// isL1ValidatorNotFound reports whether platform.getL1Validator answered
// that the P-chain holds no such validation ("fetching L1 validator ...
// failed: not found").
func isL1ValidatorNotFound(err error) bool {
	return err != nil && strings.Contains(err.Error(), "failed: not found")
}
