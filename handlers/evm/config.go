package evm

import (
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
)

// Config tunes the EVM operations. The zero value is usable: no custom
// native token, no curated contract, no prices.
type Config struct {
	// NativeTokens names the native token of EVM chains other than the
	// C-chain (whose token is AVAX), by EVM chain id. A chain without an
	// entry shows its chain name and the symbol "NATIVE".
	NativeTokens map[uint64]NativeToken
	// CuratedContracts holds operator-supplied contract metadata
	// (description, links, logo, ...); see LoadCuratedContracts. Nil: none.
	CuratedContracts CuratedContracts
	// Prices supplies token prices; nil means none, and every price field is
	// left out of the responses.
	Prices PriceSource
	// NFTReindex bounds reindexNft (reindex_nft.go); a zero field takes its
	// default (DefaultReindexCooldown, DefaultReindexQueue).
	NFTReindex evmdata.ReindexLimits
	// SpamTokens are operator-flagged spam tokens (spam.go).
	SpamTokens SpamTokens
}

// NativeToken describes the native token of an EVM chain. Its decimals are
// always 18: EVM balances and values are counted in wei.
type NativeToken struct {
	Name        string
	Symbol      string
	LogoURI     string
	Description string
}

// SpamTokens are the token contracts an operator flags as spam, by EVM
// chain id: filterSpamTokens leaves them out (spam.go). Nil: none.
type SpamTokens map[uint64]map[common.Address]bool
