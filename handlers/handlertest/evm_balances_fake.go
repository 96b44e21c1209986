package handlertest

import (
	"bytes"
	"context"
	"maps"
	"math/big"
	"slices"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// TokenState is the fake's token balances: which tokens an address moved
// (the index's address-token rows) and what balanceOf answers at a block
// (the node's state). Set its fields before serving.
type TokenState struct {
	// Moved lists, per owner, the tokens it sent or received and their
	// standard.
	Moved map[common.Address]map[common.Address]evmdata.ErcType
	// BalanceAt answers balanceOf at a height; nil: no balance (the call
	// reverted). Nil BalanceAt answers nil to every call.
	BalanceAt func(height uint64, c evmdata.BalanceCall) *big.Int
	// NativeAt answers eth_getBalance at a height; nil: zero.
	NativeAt func(height uint64, addr common.Address) *big.Int
	// Err is returned by every state read when set (e.g. wrapping
	// evmdata.ErrStateUnavailable).
	Err error

	// Heights records the height of every state read, Calls counts the
	// balance calls.
	Heights []uint64
	Calls   int
}

func (f *EVM) TokensOf(ctx context.Context, _ netinfo.Chain, addr common.Address, kind evmdata.ErcType,
	after *common.Address, limit int,
) ([]common.Address, error) {
	f.mu.Lock()
	moved := maps.Clone(f.TokenState.Moved[addr])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	tokens := slices.SortedFunc(maps.Keys(moved), func(a, b common.Address) int { return bytes.Compare(a[:], b[:]) })
	var out []common.Address
	for _, t := range tokens {
		if moved[t] != kind || (after != nil && bytes.Compare(t[:], after[:]) <= 0) {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, t)
	}
	return out, nil
}

// NFTCandidates answers from Nfts, whatever the height: an ERC-1155 entry
// with a zero Balance stands for an id given away.
func (f *EVM) NFTCandidates(ctx context.Context, chain netinfo.Chain, owner common.Address, contract *common.Address,
	kind evmdata.ErcType, after *evmdata.NFTPos, limit int, pinned uint64,
) ([]evmdata.NFT, error) {
	f.mu.Lock()
	f.PinnedSeen = append(f.PinnedSeen, pinned)
	all := slices.Clone(f.Nfts[chain])
	f.mu.Unlock()
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b evmdata.NFT) int { return cmpNFT(a.Contract, a.TokenID, b.Contract, b.TokenID) })
	var out []evmdata.NFT
	for _, nft := range all {
		switch {
		case nft.Owner != owner, contract != nil && nft.Contract != *contract, kind != evmdata.ErcUnknown && nft.Kind != kind,
			after != nil && cmpNFT(nft.Contract, nft.TokenID, after.Contract, after.TokenID) <= 0:
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, nft)
	}
	return out, nil
}

func (f *EVM) TokenBalancesAt(ctx context.Context, _ netinfo.Chain, height uint64, calls []evmdata.BalanceCall) ([]*big.Int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := &f.TokenState
	st.Heights = append(st.Heights, height)
	st.Calls += len(calls)
	if st.Err != nil {
		return nil, st.Err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]*big.Int, len(calls))
	for i, c := range calls {
		if st.BalanceAt != nil {
			out[i] = st.BalanceAt(height, c)
		}
	}
	return out, nil
}

func (f *EVM) NativeBalanceAt(ctx context.Context, _ netinfo.Chain, addr common.Address, height uint64) (*big.Int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := &f.TokenState
	st.Heights = append(st.Heights, height)
	if st.Err != nil {
		return nil, st.Err
	}
	if st.NativeAt == nil {
		return new(big.Int), ctx.Err()
	}
	return st.NativeAt(height, addr), ctx.Err()
}
