package evm

import (
	"context"
	"fmt"
	"net/http"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// A chain's index may start above genesis (api/history.go). Per
// operation, what a missing prefix changes and what the reply does:
//
//   - listings bounded by blocks (an address's transactions and typed
//     histories, a token's transfers): a startBlock before the first
//     indexed block, or an endBlock selecting only earlier blocks, is a
//     400; without startBlock the listing ends at the first indexed block;
//   - the latest blocks and transactions (one chain or all): unaffected;
//   - getBlock, getTransactionsForBlock: a block number before the first
//     indexed block is a 404 naming it, as is an unknown hash or
//     transaction on such a chain (a state-synced node cannot look earlier
//     transactions up either: it holds neither their blocks nor their
//     lookup entries);
//   - cumulativeTransactions of a block counts from the first indexed
//     block, so it is omitted while history is partial (shaper_blocks.go);
//   - getDeploymentTransaction: a contract whose deployment is not indexed
//     is a 404 naming the first indexed block; getContractMetadata then
//     omits deploymentDetails; an address the index does not know as a
//     contract is a 404 naming it (it may have been deployed before);
//   - balances: native balances and ERC-20 / ERC-1155 amounts are read from
//     the node's state, ERC-721 ownership from the last transfer the index
//     holds (always the current owner); a blockNumber before the first
//     indexed block is a 400. The set of holdings may miss tokens held
//     since before the first indexed block and never moved since:
//     X-Avadata-History-From on every reply says the history is partial;
//   - a collection's holders, tokens and token details (listNftHolders,
//     listTokens, getTokenDetails) are derived from its transfers alone:
//     answered only when its deployment is indexed (at or after the first
//     indexed block), else a 404 naming it.

// history reads where chain's history in this node's index starts (asked
// per request: a back-fill lowers it as it goes) and records it for the
// reply's X-Avadata-History-From.
func (s *server) history(ctx context.Context, ci netinfo.ChainInfo, heights *api.Heights) (api.History, error) {
	from, err := s.reader.HistoryFrom(ctx, ci.Chain)
	if err != nil {
		return api.History{}, fmt.Errorf("reading where the index of chain %d starts: %w", ci.EVMChainID, err)
	}
	derived, ok, err := s.reader.RunningStateFrom(ctx, ci.Chain)
	if err != nil {
		return api.History{}, fmt.Errorf("reading where the running state of chain %d counts from: %w", ci.EVMChainID, err)
	}
	h := api.NewHistory(ci, from).WithRunningState(derived, ok)
	heights.NoteHistory(s.EVMChainStream(ci), h.From)
	return h, nil
}

// collectionHistory refuses (404) an answer derived from a contract's
// transfers alone when they may not all be indexed: the contract was
// deployed before the first indexed block, or its deployment is unknown.
// what names the answer ("the holders").
func collectionHistory(h api.History, c evmdata.Contract, what string) error {
	if h.CountsFromGenesis() {
		return nil
	}
	if what == "" {
		what = "its tokens' owners and supplies"
	}
	if h.Rederiving {
		return api.NewError(http.StatusServiceUnavailable, "%s: a back-fill of older blocks is re-deriving NFT holdings "+
			"and counts, so %s of %s are not known until it ends (GET /v1/status shows its progress); try again then",
			h.Starts(), what, c.Address.Hex())
	}
	if d := c.Deployment; d != nil && d.TxPos.Block >= h.DerivedFrom {
		return nil
	}
	deployed := fmt.Sprintf("contract %s's deployment is not indexed", c.Address.Hex())
	if d := c.Deployment; d != nil {
		deployed = fmt.Sprintf("contract %s was deployed at block %d, before it", c.Address.Hex(), d.TxPos.Block)
	}
	if h.DerivedFrom > h.From {
		// A back-fill is filling blocks below where holdings count from.
		return api.NewError(http.StatusServiceUnavailable, "%s, but NFT holdings count from block %d until the "+
			"back-fill filling the blocks before it ends: %s of %s are not known until then (GET /v1/status shows its "+
			"progress)", h.Starts(), h.DerivedFrom, what, c.Address.Hex())
	}
	return h.Unknown(http.StatusNotFound, fmt.Sprintf("%s, so %s (derived from all its transfers)", deployed, what))
}

// unknownContract is the 404 of an address the index does not know as a
// contract on a chain whose history is partial: it may have been deployed
// before the first indexed block and not used since.
func unknownContract(h api.History, addr common.Address) error {
	return h.Before(fmt.Sprintf("%s is not a contract known to the index (no deployment or token transfer of it "+
		"was seen from that block on)", addr.Hex()))
}

// partialHistory reports whether the shaped chain's index starts above
// genesis, read once per reply. A failed read fails the reply.
func (v *shaper) partialHistory() bool {
	if v.historyFrom == 0 {
		from, err := v.s.reader.HistoryFrom(v.ctx, v.chain.Chain)
		if err != nil {
			v.fail(fmt.Errorf("reading where the index of chain %d starts: %w", v.chain.EVMChainID, err))
			return true
		}
		v.historyFrom = max(from, 1)
	}
	return v.historyFrom > 1
}

// countsFromGenesis reports whether the chain's cumulative counts are the
// chain's: its history is whole and no back-fill is still counting it.
func (v *shaper) countsFromGenesis() bool {
	if v.partialHistory() {
		return false
	}
	if !v.runningStateRead {
		from, ok, err := v.s.reader.RunningStateFrom(v.ctx, v.chain.Chain)
		if err != nil {
			v.fail(fmt.Errorf("reading where the running state of chain %d counts from: %w", v.chain.EVMChainID, err))
			return false
		}
		v.runningStateRead, v.runningWhole = true, ok && from <= 1
	}
	return v.runningWhole
}

// history is the shaped chain's history (after partialHistory read it).
func (v *shaper) history() api.History {
	return api.NewHistory(v.chain, v.historyFrom)
}

// checkBalanceBlock refuses (400) a token balance listing at a blockNumber
// before the chain's first indexed block: its candidates (the tokens the
// address sent or received) come from the index, which holds none of
// that time.
func (s *server) checkBalanceBlock(r *http.Request, heights *api.Heights, t evmTarget, block balanceBlock) error {
	if !block.Asked.Set {
		return nil
	}
	history, err := s.history(r.Context(), t.Chain, heights)
	if err != nil {
		return err
	}
	return history.CheckBlockParam(paramBlockNumber, block.Asked.Value)
}

// checkHoldings refuses (503) an NFT holdings listing while a back-fill
// re-derives the holdings: until it ends they are partly rebuilt.
func (s *server) checkHoldings(ctx context.Context, t evmTarget, heights *api.Heights) error {
	h, err := s.history(ctx, t.Chain, heights)
	if err != nil || !h.Rederiving {
		return err
	}
	return api.NewError(http.StatusServiceUnavailable, "%s: a back-fill of older blocks is re-deriving NFT holdings, "+
		"so the NFTs %s holds are not known until it ends (GET /v1/status shows its progress); try again then",
		h.Starts(), t.Address.Hex())
}
