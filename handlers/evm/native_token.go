package evm

import (
	"cmp"
	"fmt"
	"math/big"
	"net/http"
	"time"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The native token of an EVM chain, as the chain, transaction and balance
// responses show it.

// nativeDecimals are the decimals of every EVM native token: balances and
// values are counted in wei.
const nativeDecimals = 18

// historicalPriceAge is how old a transaction must be for its historical
// price to be shown (the OpenAPI's NetworkTokenDetails.historicalPrice).
const historicalPriceAge = 24 * time.Hour

// nativeToken describes the native token of chain: AVAX on the C-chain,
// else Config.NativeTokens' entry, else the chain's name and "NATIVE". A
// configured entry may also rename the C-chain's token.
func (s *server) nativeToken(chain netinfo.ChainInfo) networkToken {
	token := networkToken{Name: api.ChainLabel(chain), Symbol: "NATIVE", Decimals: nativeDecimals}
	if chain.Chain == netinfo.C {
		token.Name, token.Symbol = "Avalanche", "AVAX"
	}
	if custom, ok := s.cfg.NativeTokens[chain.EVMChainID]; ok {
		token.Name = cmp.Or(custom.Name, token.Name)
		token.Symbol = cmp.Or(custom.Symbol, token.Symbol)
		token.LogoURI, token.Description = custom.LogoURI, custom.Description
	}
	return token
}

// networkTokenDetails shows the native token with its price now and at
// BlockTime (Unix seconds), when the price source knows them.
func (v *shaper) networkTokenDetails(blockTime uint64) networkTokenDetails {
	details := networkTokenDetails{
		NetworkToken: v.s.nativeToken(v.chain),
		CurrentPrice: v.tokenPrice(common.Address{}, 0),
	}
	if v.s.Now().Sub(time.Unix(int64(blockTime), 0)) > historicalPriceAge {
		details.HistoricalPrice = v.tokenPrice(common.Address{}, int64(blockTime))
	}
	return details
}

// nativeTokenBalance reads addr's current native balance from the node.
func (v *shaper) nativeTokenBalance(addr common.Address) nativeTokenBalance {
	return v.readNativeTokenBalance(addr, func() (*big.Int, error) {
		return v.s.state.NativeBalance(v.ctx, v.chain.Chain, addr)
	})
}

// readNativeTokenBalance shapes the native balance that read returns.
func (v *shaper) readNativeTokenBalance(addr common.Address, read func() (*big.Int, error)) nativeTokenBalance {
	token := v.s.nativeToken(v.chain)
	token.Description = "" // NativeTokenBalance has no description
	out := nativeTokenBalance{networkToken: token, ChainID: v.evmChainID(), Balance: "0"}
	if v.err != nil {
		return out
	}
	if v.s.state == nil {
		v.fail(api.NewError(http.StatusServiceUnavailable, "native balances are not available: this node gives avadata no access to EVM state"))
		return out
	}
	balance, err := read()
	if err != nil {
		v.fail(fmt.Errorf("reading the native balance of %s: %w", addr, err))
		return out
	}
	out.Balance = api.Decimal(balance)
	out.Price = v.tokenPrice(common.Address{}, 0)
	out.BalanceValue = valueOf(balance, nativeDecimals, out.Price)
	return out
}
