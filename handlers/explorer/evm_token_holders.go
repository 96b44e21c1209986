package explorer

import (
	"context"
	"errors"
	"math/big"
	"strconv"
	"strings"

	"github.com/ava-labs/libevm/common"
	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// TokenHolders reads an ERC-20 token's holders for the token page: the
// API lists the holders of NFT collections only. The index says who sent
// or received the token, the node says what each holds.
type TokenHolders interface {
	// TokenParties lists, by address after the given one, the addresses
	// that sent or received transfers of token of one standard.
	TokenParties(ctx context.Context, chain netinfo.Chain, token common.Address, kind evmdata.ErcType,
		after *common.Address, limit int) ([]common.Address, error)
	// TokenBalancesAt reads balanceOf at block height, one answer per
	// call: nil where the contract gives none.
	TokenBalancesAt(ctx context.Context, chain netinfo.Chain, height uint64, calls []evmdata.BalanceCall) ([]*big.Int, error)
}

// evmTokenHolders is one page of an ERC-20 token's holders, or the note
// that says why there is none.
type evmTokenHolders struct {
	Note   string
	Height uint64
	Rows   []evmHolderRow
	Next   string // the page's last address when more follow
}

// evmHolderRow is one party of the token with its balance at Height.
type evmHolderRow struct {
	Address string
	Balance string // in the token's decimals; "" when the contract gave none
	Zero    bool   // held the token before, holds none at Height
}

// parseHoldersPage reads the page param of the holders tab: the last
// address of the page before, or nothing for the first page.
func parseHoldersPage(page string) (*common.Address, error) {
	if page == "" {
		return nil, nil
	}
	if !strings.HasPrefix(page, "0x") || !common.IsHexAddress(page) {
		return nil, api.BadRequest("invalid page '%s': a page of holders starts after an address (0x and 40 hex digits)", api.Truncate(page))
	}
	a := common.HexToAddress(page)
	return &a, nil
}

// readTokenHolders reads one page of the ERC-20 token's holders at the
// chain's indexed height. Failures to read become the section's note.
func (s *server) readTokenHolders(ctx context.Context, chainID, token string, decimals any, after *common.Address) (out evmTokenHolders) {
	defer func() {
		if p := recover(); p != nil {
			s.Log().Warn("explorer: reading a token's holders panicked", zap.String("token", token), zap.Any("panic", p))
			out = evmTokenHolders{Note: "The holders could not be read (the node's log says why)."}
		}
	}()
	if s.holders == nil {
		return evmTokenHolders{Note: "Token holders are not available on this node."}
	}
	ci, err := api.ResolveEVMChain(chainID, s.Network())
	if err != nil {
		return evmTokenHolders{} // the API answered the page before with this error
	}
	height, ok := s.indexedHeight(ci.Chain)
	if !ok || height == 0 {
		return evmTokenHolders{Note: "The chain has no indexed block yet."}
	}
	parties, err := s.holders.TokenParties(ctx, ci.Chain, common.HexToAddress(token), evmdata.Erc20, after, listPageSize+1)
	if err != nil {
		s.Log().Warn("explorer: listing a token's parties failed", zap.String("token", token), zap.Error(err))
		return evmTokenHolders{Note: "The holders could not be read (the node's log says why)."}
	}
	out = evmTokenHolders{Height: height}
	if len(parties) > listPageSize {
		parties = parties[:listPageSize]
		out.Next = parties[len(parties)-1].Hex()
	}
	if len(parties) == 0 {
		return out
	}
	calls := make([]evmdata.BalanceCall, len(parties))
	for i, p := range parties {
		calls[i] = evmdata.BalanceCall{Token: common.HexToAddress(token), Owner: p}
	}
	balances, err := s.holders.TokenBalancesAt(ctx, ci.Chain, height, calls)
	if errors.Is(err, evmdata.ErrStateUnavailable) {
		return evmTokenHolders{Note: "The node no longer has the state of block " + strconv.FormatUint(height, 10) + ", so no balance can be read."}
	}
	if err != nil || len(balances) != len(parties) {
		s.Log().Warn("explorer: reading a token's balances failed", zap.String("token", token), zap.Error(err))
		return evmTokenHolders{Note: "The balances could not be read from the node (the node's log says why)."}
	}
	dec := tokenDecimals(decimals)
	for i, p := range parties {
		row := evmHolderRow{Address: p.Hex()}
		if b := balances[i]; b != nil {
			row.Balance, row.Zero = evmdata.ValueWithDecimals(b, dec), b.Sign() == 0
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// indexedHeight is the chain's indexed height now.
func (s *server) indexedHeight(chain netinfo.Chain) (uint64, bool) {
	for _, st := range s.Statuses() {
		if st.Chain == chain {
			return st.IndexedHeight, true
		}
	}
	return 0, false
}

// tokenDecimals is the metadata's decimals, 0 when it has none.
func tokenDecimals(v any) uint8 {
	d, err := strconv.ParseUint(str(v), 10, 8)
	if err != nil {
		return 0
	}
	return uint8(d)
}
