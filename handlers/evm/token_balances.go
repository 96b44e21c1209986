package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strconv"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// Token balances (listErc20Balances, listErc1155Balances,
// listCollectibleBalances) are exact at the block they show: the index
// gives the candidates, the node gives the amounts.
//
//   - Candidates: the tokens the address ever sent or received (ERC-20:
//     the index's address-token rows), the ERC-1155 ids it ever held
//     (including ids its Transfer logs say it gave away), the ERC-721
//     tokens the index says it owns.
//   - Amounts: balanceOf(address) / balanceOf(address, id) read with
//     eth_call at the block, batched, cached per (chain, block, token,
//     owner, id) (indexer/evmstate). A token whose balanceOf does not
//     follow its Transfer logs (rebasing, fee-on-transfer, balances minted
//     without an event) is therefore shown with what balanceOf says, never
//     with a log-derived amount. Zero balances, and contracts whose
//     balanceOf reverts or answers no uint256, are left out.
//   - ERC-721 ownership comes from the index (the standard makes Transfer
//     the only way a token changes hands), read as of the shown block.
//
// The block: blockNumber when given (at most the chain's indexed height:
// the candidates come from the index), else the chain's indexed height,
// pinned by the first page for the whole paging (pinned_listing.go). A
// page reads at most maxBalanceCandidates candidates; past that it is
// served short, with a token that resumes after the last one read, so an
// address with many emptied tokens cannot make one request call the node
// without bound. A block whose state the node no longer has (a pruned,
// non-archive node) is a 400 that says so.

// maxBalanceCandidates bounds the candidates one page checks (and so the
// node calls it makes).
const maxBalanceCandidates = 1000

// balanceBlock is the block a balance listing shows.
type balanceBlock struct {
	Asked api.Bound[uint64] // blockNumber
}

// parseBalanceBlock reads blockNumber: a non-negative integer.
func parseBalanceBlock(q url.Values) (balanceBlock, error) {
	raw := q.Get(paramBlockNumber)
	if raw == "" {
		return balanceBlock{}, nil
	}
	v, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return balanceBlock{}, api.BadRequest("invalid %s %q: must be a non-negative integer block number", paramBlockNumber, api.Truncate(raw))
	}
	return balanceBlock{Asked: api.Bound[uint64]{Value: v, Set: true}}, nil
}

// filterValue is blockNumber for a page token's filter hash.
func (b balanceBlock) filterValue() string { return api.FormatBound(b.Asked) }

// heights pins the listing: indexed is the index height the candidates are
// read at (the first page's, carried by the token), at the block whose
// balances are shown. A blockNumber above the indexed height is a 400.
func (s *server) balanceHeights(t evmTarget, page api.Page, block balanceBlock) (indexed, at uint64, err error) {
	indexed = s.PinnedHeight(page, s.EVMChainStream(t.Chain))
	at, err = block.at(t, indexed)
	return indexed, at, err
}

// at is the block whose state is shown: blockNumber, or the indexed
// height when none is asked. A blockNumber above the indexed height is a
// 400.
func (b balanceBlock) at(t evmTarget, indexed uint64) (uint64, error) {
	if !b.Asked.Set {
		return indexed, nil
	}
	if b.Asked.Value > indexed {
		return 0, api.BadRequest("invalid %s %d: above block %d, the highest block avadata has indexed on chain %d ('%s')",
			paramBlockNumber, b.Asked.Value, indexed, t.Chain.EVMChainID, api.ChainLabel(t.Chain))
	}
	return b.Asked.Value, nil
}

// stateError turns a failed read of the node's state at block at into the
// reply: a 400 when the node no longer has that block's state.
func stateError(t evmTarget, block balanceBlock, at uint64, err error) error {
	if !errors.Is(err, evmdata.ErrStateUnavailable) {
		return err
	}
	if block.Asked.Set {
		return api.BadRequest("invalid %s %d: the node no longer has the state of that block on chain %d ('%s') "+
			"(it prunes old state; an archive node keeps it), so its balances cannot be read: ask for a more recent "+
			"block or omit %s", paramBlockNumber, at, t.Chain.EVMChainID, api.ChainLabel(t.Chain), paramBlockNumber)
	}
	return api.NewError(http.StatusServiceUnavailable, "the node no longer has the state of block %d, the block this "+
		"listing was pinned to: start again from the first page", at)
}

// nativeTokenBalanceAt reads addr's native balance at block at.
func (v *shaper) nativeTokenBalanceAt(addr common.Address, at uint64) nativeTokenBalance {
	return v.readNativeTokenBalance(addr, func() (*big.Int, error) {
		return v.s.state.NativeBalanceAt(v.ctx, v.chain.Chain, addr, at)
	})
}

// balanceCandidates is how one balance listing finds and checks its
// candidates (C), positioned by P.
type balanceCandidates[C, P any] struct {
	// next reads up to limit candidates after the position (nil: the
	// first).
	next func(ctx context.Context, after *P, limit int) ([]C, error)
	// skip leaves a candidate out without reading its balance (spam).
	skip func(C) bool
	// call is the balance to read of a candidate; false: none to read, the
	// index's word stands (an ERC-721 it owns).
	call  func(C) (evmdata.BalanceCall, bool)
	posOf func(C) P
}

// heldToken is a candidate kept for the page, with the balance read (nil
// when none was read).
type heldToken[C any] struct {
	Candidate C
	Balance   *big.Int
}

// readBalancePage reads one page of a balance listing: candidates after
// the position, their balances at block at, the held ones kept. next is
// where the following page starts; nil when there is none.
func readBalancePage[C, P any](ctx context.Context, s *server, t evmTarget, at uint64, size int, after *P,
	cands balanceCandidates[C, P],
) (items []heldToken[C], next *P, err error) {
	pos := after
	for budget := maxBalanceCandidates; ; {
		// One more than the page holds tells whether another page exists.
		want := min(size+1-len(items), budget)
		if want <= 0 {
			return items, pos, nil // out of budget: a short page
		}
		batch, err := cands.next(ctx, pos, want)
		if err != nil {
			return nil, nil, err
		}
		budget -= len(batch)
		held, err := heldCandidates(ctx, s, t, at, batch, cands)
		if err != nil {
			return nil, nil, err
		}
		for i, c := range batch {
			p := cands.posOf(c)
			pos = &p
			if held[i] == nil {
				continue
			}
			if len(items) == size { // a held one beyond the page: another page exists
				last := cands.posOf(items[size-1].Candidate)
				return items, &last, nil
			}
			items = append(items, *held[i])
		}
		if len(batch) < want { // the index has no more
			return items, nil, nil
		}
	}
}

// heldCandidates reads the balances of batch at block at, in one batched
// read, and returns the held ones in place (nil: skipped, or no balance).
func heldCandidates[C, P any](ctx context.Context, s *server, t evmTarget, at uint64, batch []C,
	cands balanceCandidates[C, P],
) ([]*heldToken[C], error) {
	held := make([]*heldToken[C], len(batch))
	var calls []evmdata.BalanceCall
	var called []int
	for i, c := range batch {
		if cands.skip != nil && cands.skip(c) {
			continue
		}
		call, read := cands.call(c)
		if !read {
			held[i] = &heldToken[C]{Candidate: c}
			continue
		}
		calls = append(calls, call)
		called = append(called, i)
	}
	if len(calls) == 0 {
		return held, nil
	}
	if s.state == nil {
		return nil, api.NewError(http.StatusServiceUnavailable, "token balances are not available: this node gives avadata no access to EVM state")
	}
	balances, err := s.state.TokenBalancesAt(ctx, t.Chain.Chain, at, calls)
	if err != nil {
		return nil, fmt.Errorf("reading %d token balances of %s at block %d: %w", len(calls), t.Address, at, err)
	}
	for j, i := range called {
		if b := balances[j]; b != nil && b.Sign() > 0 {
			held[i] = &heldToken[C]{Candidate: batch[i], Balance: b}
		}
	}
	return held, nil
}
