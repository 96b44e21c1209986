package evm

import (
	"context"
	"math/big"
	"strings"
	"time"

	"github.com/ava-labs/libevm/common"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/netinfo"
)

// PriceSource supplies token prices. avadata has no price feed of its own
// (it serves a node, possibly offline); an operator may plug one in through
// Config.Prices. Every price field of a response is left out when the source
// is absent or has no price.
type PriceSource interface {
	// TokenPrice returns the price of one whole token of contract token on
	// chain (the zero address means the chain's native token) in currency
	// (a lower-case code of the spec's list, e.g. "usd") at time at (the zero
	// time means now), as a non-negative decimal string such as "42.42".
	// ok is false when the source has no such price.
	TokenPrice(ctx context.Context, chain netinfo.ChainInfo, token common.Address, currency string,
		at time.Time) (value string, ok bool, err error)
}

// defaultCurrency prices the endpoints that take no currency parameter.
const defaultCurrency = "usd"

// price is the spec's Price (the OpenAPI's Money). The spec, which wins over
// the SDK here, makes value a decimal string.
type price struct {
	CurrencyCode string `json:"currencyCode"`
	Value        string `json:"value"`
}

// priceKey identifies one price lookup of a request.
type priceKey struct {
	token common.Address
	at    int64 // Unix seconds; 0 means now
}

// tokenPrice asks the configured source for a price, once per request and
// key. A source failure is logged and treated as "no price": prices are
// decoration, and a broken feed must not take the index's answers down.
func (v *shaper) tokenPrice(token common.Address, at int64) *price {
	if v.s.cfg.Prices == nil {
		return nil
	}
	key := priceKey{token: token, at: at}
	if p, seen := v.prices[key]; seen {
		return p
	}
	var when time.Time
	if at != 0 {
		when = time.Unix(at, 0)
	}
	value, ok, err := v.s.cfg.Prices.TokenPrice(v.ctx, v.chain, token, v.currency, when)
	var p *price
	switch {
	case err != nil:
		v.s.Log().Debug("price source failed", zap.Stringer("token", token), zap.Error(err))
	case ok && isDecimal(value):
		p = &price{CurrencyCode: v.currency, Value: value}
	case ok:
		v.s.Log().Debug("price source returned a malformed price", zap.Stringer("token", token), zap.String("value", value))
	}
	v.prices[key] = p
	return p
}

// isDecimal accepts plain non-negative decimals ("1", "0.25"), the form the
// spec's Price.value takes.
func isDecimal(s string) bool {
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" || (hasDot && frac == "") {
		return false
	}
	for _, part := range []string{intPart, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return false
			}
		}
	}
	return true
}

// valueOf prices amount (in the token's smallest unit, with decimals) at p:
// amount / 10^decimals * p, rounded to six decimal places.
func valueOf(amount *big.Int, decimals uint8, p *price) *price {
	if p == nil || amount == nil {
		return nil
	}
	unit, ok := new(big.Rat).SetString(p.Value)
	if !ok {
		return nil
	}
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
	total := new(big.Rat).Mul(new(big.Rat).SetFrac(amount, scale), unit)
	return &price{CurrencyCode: p.CurrencyCode, Value: trimDecimal(total.FloatString(6))}
}

// trimDecimal drops trailing zeros of a fraction: "1.500000" -> "1.5".
func trimDecimal(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
}
