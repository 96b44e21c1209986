package handlertest

import (
	"bytes"
	"context"
	"math/big"
	"slices"
	"time"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The EVM fake's collections, deployments and activity, derived from its
// NFTs (Nfts) and transactions (Txs) the way the store keeps them.

// collection is every token of contract the fake's holdings show: an
// ERC-721 token with its owner, an ERC-1155 id with the sum of its
// balances as supply; by token id.
func (f *EVM) collection(chain netinfo.Chain, contract common.Address) []evmdata.CollectionToken {
	f.mu.Lock()
	defer f.mu.Unlock()
	byID := map[string]*evmdata.CollectionToken{}
	var out []*evmdata.CollectionToken
	for _, nft := range f.Nfts[chain] {
		if nft.Contract != contract {
			continue
		}
		t, ok := byID[nft.TokenID.String()]
		if !ok {
			t = &evmdata.CollectionToken{Kind: nft.Kind, TokenID: nft.TokenID, Metadata: nft.Metadata}
			if nft.Kind == evmdata.Erc1155 {
				t.Supply = new(big.Int)
			}
			byID[nft.TokenID.String()] = t
			out = append(out, t)
		}
		if nft.Kind == evmdata.Erc1155 {
			t.Supply.Add(t.Supply, nft.Balance)
		} else {
			t.Owner = nft.Owner
		}
	}
	slices.SortFunc(out, func(a, b *evmdata.CollectionToken) int { return a.TokenID.Cmp(b.TokenID) })
	tokens := make([]evmdata.CollectionToken, len(out))
	for i, t := range out {
		tokens[i] = *t
	}
	return tokens
}

func (f *EVM) CollectionTokens(ctx context.Context, chain netinfo.Chain, contract common.Address, kind evmdata.ErcType,
	after *big.Int, limit int,
) ([]evmdata.CollectionToken, error) {
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	var out []evmdata.CollectionToken
	for _, t := range f.collection(chain, contract) {
		if t.Kind != kind || (after != nil && t.TokenID.Cmp(after) <= 0) {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, t)
	}
	return out, nil
}

func (f *EVM) CollectionToken(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int) (
	evmdata.CollectionToken, bool, error,
) {
	if err := f.wait(ctx); err != nil {
		return evmdata.CollectionToken{}, false, err
	}
	for _, t := range f.collection(chain, contract) {
		if t.TokenID.Cmp(id) == 0 {
			return t, true, nil
		}
	}
	return evmdata.CollectionToken{}, false, nil
}

func (f *EVM) NFTMetadata(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int) (*evmdata.NFTMetadata, error) {
	t, _, err := f.CollectionToken(ctx, chain, contract, id)
	return t.Metadata, err
}

func (f *EVM) RequestNFTReindex(ctx context.Context, _ netinfo.Chain, ref evmdata.TokenRef, _ time.Time,
	limits evmdata.ReindexLimits,
) (evmdata.ReindexOutcome, error) {
	if err := f.wait(ctx); err != nil {
		return evmdata.ReindexOutcome{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Reindexes = append(f.Reindexes, ref)
	f.ReindexLimits = append(f.ReindexLimits, limits)
	if f.ReindexAnswer != nil {
		return *f.ReindexAnswer, nil
	}
	return evmdata.ReindexOutcome{Queued: true}, nil
}

// DeployedBy lists the creations of the fake's txs made by deployer, as tx
// sender or as the creating contract, newest first.
func (f *EVM) DeployedBy(ctx context.Context, chain netinfo.Chain, deployer common.Address, after *evmdata.DeploymentPos,
	limit int, pinned uint64,
) ([]evmdata.DeployedContract, error) {
	if err := f.wait(ctx); err != nil {
		return nil, err
	}
	f.mu.Lock()
	txs := slices.Clone(f.Txs[chain])
	f.mu.Unlock()
	var all []evmdata.DeployedContract
	for _, tx := range txs {
		for _, c := range tx.Tx.Creations {
			if c.Deployer != deployer && c.DeployerContract != deployer {
				continue
			}
			pos := evmdata.DeploymentPos{Tx: txPosOf(tx), Contract: c.Address}
			if pinned != 0 && pos.Tx.Block > pinned {
				continue
			}
			contract, _, _ := f.Contract(ctx, chain, c.Address)
			all = append(all, evmdata.DeployedContract{Pos: pos, Contract: contract})
		}
	}
	slices.SortFunc(all, func(a, b evmdata.DeployedContract) int { return -cmpDeployment(a.Pos, b.Pos) })
	var out []evmdata.DeployedContract
	for _, d := range all {
		if after != nil && cmpDeployment(d.Pos, *after) >= 0 {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, d)
	}
	return out, nil
}

func cmpDeployment(a, b evmdata.DeploymentPos) int {
	if c := cmpPos(a.Tx, b.Tx); c != 0 {
		return c
	}
	return bytes.Compare(a.Contract[:], b.Contract[:])
}

func (f *EVM) HasActivity(ctx context.Context, chain netinfo.Chain, addr common.Address) (bool, error) {
	if err := f.wait(ctx); err != nil {
		return false, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, tx := range f.Txs[chain] {
		if involvesTx(tx.Tx, addr) {
			return true, nil
		}
	}
	return false, nil
}
