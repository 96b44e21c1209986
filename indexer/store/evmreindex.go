package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// A client may ask for an NFT's URI and metadata to be read again
// (reindexNft). The request puts the token back on the queue the background
// describer reads (0x91), so the node reads it like a newly minted token, at
// the describer's pace and in its batches. Two bounds keep clients from
// making the node fetch without limit: a token is queued again at most once
// per cooldown (0x9A keeps when it last was, so the bound survives a
// restart), and the queue of a chain holds at most a bounded number of
// tokens (a full queue refuses the request rather than grow).

// maxReindexAttempts bounds the retries of a request whose transaction
// conflicted with a concurrent write of the queue.
const maxReindexAttempts = 3

// RequestNFTReindex queues a token's URI and metadata to be read again, as
// of now, within limits.
func (s *Store) RequestNFTReindex(ctx context.Context, chain netinfo.Chain, ref evmdata.TokenRef, now time.Time,
	limits evmdata.ReindexLimits,
) (evmdata.ReindexOutcome, error) {
	var out evmdata.ReindexOutcome
	var err error
	for range maxReindexAttempts {
		if err = ctx.Err(); err != nil {
			break
		}
		err = s.db.Update(func(txn *badger.Txn) error {
			out, err = requestReindex(ctx, txn, chain, ref, now, limits)
			return err
		})
		if !errors.Is(err, badger.ErrConflict) {
			break
		}
	}
	if err != nil {
		return evmdata.ReindexOutcome{}, fmt.Errorf("queueing %s token %s #%s to reindex: %w", chain, ref.Contract, ref.TokenID, err)
	}
	return out, nil
}

func requestReindex(ctx context.Context, txn *badger.Txn, chain netinfo.Chain, ref evmdata.TokenRef, now time.Time,
	limits evmdata.ReindexLimits,
) (evmdata.ReindexOutcome, error) {
	cooldownKey := reindexKey(chain, ref.Contract, ref.TokenID)
	last, err := getValue(txn, cooldownKey)
	if err != nil {
		return evmdata.ReindexOutcome{}, err
	}
	if len(last) == 8 {
		next := time.Unix(0, int64(binary.BigEndian.Uint64(last))).Add(limits.Cooldown)
		if now.Before(next) {
			return evmdata.ReindexOutcome{RetryAfter: next.Sub(now)}, nil
		}
	}
	queueKey := newKey(tagNFTQ, chain).addr(ref.Contract).tokenID(ref.TokenID)
	queued, err := getValue(txn, queueKey)
	if err != nil {
		return evmdata.ReindexOutcome{}, err
	}
	if queued == nil {
		full, err := queueHolds(ctx, txn, chain, limits.MaxQueued)
		if err != nil || full {
			return evmdata.ReindexOutcome{QueueFull: full}, err
		}
		if err := txn.Set(queueKey, []byte{byte(ref.Kind)}); err != nil {
			return evmdata.ReindexOutcome{}, err
		}
	}
	if err := txn.Set(cooldownKey, binary.BigEndian.AppendUint64(nil, uint64(now.UnixNano()))); err != nil {
		return evmdata.ReindexOutcome{}, err
	}
	return evmdata.ReindexOutcome{Queued: true}, nil
}

// queueHolds reports whether the chain's token queue holds at least n
// entries; it reads at most n keys.
func queueHolds(ctx context.Context, txn *badger.Txn, chain netinfo.Chain, n int) (bool, error) {
	prefix := newKey(tagNFTQ, chain)
	count := 0
	err := scanRange(ctx, txn, prefix, prefix, nil, false, func(*badger.Item) (bool, error) {
		count++
		return count < n, nil
	})
	return count >= n, err
}

func reindexKey(chain netinfo.Chain, contract common.Address, id *big.Int) []byte {
	return newKey(tagReindex, chain).addr(contract).tokenID(id)
}
