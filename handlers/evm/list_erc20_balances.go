package evm

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/evmdata"
)

// GET /v1/chains/{chainId}/addresses/{address}/balances:listErc20
// (listErc20Balances): the ERC-20 tokens an address holds at a block (the
// indexed height, pinned for the whole paging, or blockNumber), by token
// address, each with balanceOf read from the node at that block
// (token_balances.go), optionally of the listed contracts only, spam left
// out unless filterSpamTokens=false (spam.go), with the address's native
// balance at the same block.
//
// Without contractAddresses the candidates are the tokens the address
// ever sent or received. With it they are the listed contracts the index
// knows as ERC-20 tokens, whether or not the address moved them (a balance
// minted without a Transfer event shows there too).

const (
	paramContractAddresses = "contractAddresses"
	paramFilterSpamTokens  = "filterSpamTokens"
	// maxContractAddresses bounds contractAddresses.
	maxContractAddresses = 100
)

// listErc20BalancesRequest is the validated input of the endpoint.
type listErc20BalancesRequest struct {
	evmTarget
	Block     balanceBlock
	Contracts []common.Address // sorted; nil: every token
	KeepSpam  bool             // filterSpamTokens=false
	Currency  string
	Page      api.Page
}

func erc20BalancesPaging() api.Paging {
	return api.Paging{Route: routeListErc20Balances, Size: api.Erc721PageSize()}
}

func (s *server) parseListErc20BalancesRequest(r *http.Request, heights *api.Heights) (listErc20BalancesRequest, error) {
	var req listErc20BalancesRequest
	var err error
	if req.evmTarget, err = s.resolveEVMPath(r, heights); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Block, err = parseBalanceBlock(q); err != nil {
		return req, err
	}
	if err = s.checkBalanceBlock(r, heights, req.evmTarget, req.Block); err != nil {
		return req, err
	}
	if req.Contracts, err = parseContractAddresses(q); err != nil {
		return req, err
	}
	filterSpam, err := api.ParseBool(q, paramFilterSpamTokens, true)
	if err != nil {
		return req, err
	}
	req.KeepSpam = !filterSpam
	if req.Currency, err = api.ParseCurrency(q); err != nil {
		return req, err
	}
	contracts := make([]string, len(req.Contracts))
	for i, c := range req.Contracts {
		contracts[i] = strings.ToLower(c.Hex())
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, erc20BalancesPaging(), append(req.filterValues(),
		req.Block.filterValue(), strings.Join(contracts, ","), fmt.Sprint(filterSpam))...)
	return req, err
}

// parseContractAddresses reads contractAddresses: comma-separated 0x
// addresses, returned sorted (the listing's order) without duplicates.
func parseContractAddresses(q url.Values) ([]common.Address, error) {
	raw, err := api.ParseList(q, paramContractAddresses, maxContractAddresses, api.ValidateEVMAddress)
	if err != nil || raw == nil {
		return nil, err
	}
	out := make([]common.Address, len(raw))
	for i, a := range raw {
		out[i] = common.HexToAddress(a)
	}
	slices.SortFunc(out, compareAddresses)
	return slices.Compact(out), nil
}

func compareAddresses(a, b common.Address) int { return bytes.Compare(a[:], b[:]) }

// listErc20BalancesResponse is the OpenAPI's ListErc20BalancesResponse.
type listErc20BalancesResponse struct {
	NextPageToken      string              `json:"nextPageToken,omitempty"`
	NativeTokenBalance nativeTokenBalance  `json:"nativeTokenBalance"`
	Erc20TokenBalances []erc20TokenBalance `json:"erc20TokenBalances"`
}

// erc20TokenBalance is the OpenAPI's Erc20TokenBalance. tokenReputation is
// required and nullable: avadata makes no security analysis, so it is
// always null (unknown).
type erc20TokenBalance struct {
	erc20Token
	ChainID         string  `json:"chainId"`
	Balance         string  `json:"balance"`
	BalanceValue    *price  `json:"balanceValue,omitempty"`
	TokenReputation *string `json:"tokenReputation"`
}

func (s *server) serveListErc20Balances(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListErc20BalancesRequest(r, heights)
	if err != nil {
		return err
	}
	after, err := api.ResumeAfter(req.Page, decodeAddress)
	if err != nil {
		return err
	}
	indexed, at, err := s.balanceHeights(req.evmTarget, req.Page, req.Block)
	if err != nil {
		return err
	}
	shapes := s.newShaper(r.Context(), req.Chain, req.Currency)
	items, next, err := readBalancePage(r.Context(), s, req.evmTarget, at, req.Page.Size, after, s.erc20Candidates(req, shapes))
	if err == nil {
		err = shapes.err
	}
	if err != nil {
		return stateError(req.evmTarget, req.Block, at, err)
	}
	resp := listErc20BalancesResponse{
		NativeTokenBalance: shapes.nativeTokenBalanceAt(req.Address, at),
		Erc20TokenBalances: make([]erc20TokenBalance, len(items)),
	}
	if shapes.err != nil {
		return stateError(req.evmTarget, req.Block, at, shapes.err)
	}
	for i, item := range items {
		token := shapes.erc20Token(item.Candidate)
		resp.Erc20TokenBalances[i] = erc20TokenBalance{
			erc20Token:   token,
			ChainID:      shapes.evmChainID(),
			Balance:      api.Decimal(item.Balance),
			BalanceValue: valueOf(item.Balance, token.Decimals, token.Price),
		}
	}
	if next != nil {
		if resp.NextPageToken, err = s.NextPageToken(req.Page, int64(indexed), next.Bytes()); err != nil {
			return err
		}
	}
	return shapes.write(w, resp)
}

// erc20Candidates are the tokens to check: those the address moved, or
// the listed ones the index knows as ERC-20 tokens.
func (s *server) erc20Candidates(req listErc20BalancesRequest, shapes *shaper) balanceCandidates[common.Address, common.Address] {
	next := func(ctx context.Context, after *common.Address, limit int) ([]common.Address, error) {
		tokens, err := s.reader.TokensOf(ctx, req.Chain.Chain, req.Address, evmdata.Erc20, after, limit)
		if err != nil {
			return nil, fmt.Errorf("listing the ERC-20 tokens of %s: %w", req.Address, err)
		}
		return tokens, nil
	}
	if req.Contracts != nil {
		next = func(_ context.Context, after *common.Address, limit int) ([]common.Address, error) {
			var out []common.Address
			for _, c := range req.Contracts {
				if len(out) == limit {
					break
				}
				if after != nil && compareAddresses(c, *after) <= 0 {
					continue
				}
				out = append(out, c)
			}
			return out, nil
		}
	}
	return balanceCandidates[common.Address, common.Address]{
		next: next,
		skip: func(token common.Address) bool {
			if req.Contracts != nil {
				if c, found := shapes.contract(token); !found || c.Kind != evmdata.Erc20 {
					return true // not a token the index knows as ERC-20
				}
			}
			return !req.KeepSpam && shapes.isSpamToken(token)
		},
		call: func(token common.Address) (evmdata.BalanceCall, bool) {
			return evmdata.BalanceCall{Token: token, Owner: req.Address}, true
		},
		posOf: func(token common.Address) common.Address { return token },
	}
}
