package evm

import (
	"strings"
	"unicode"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
)

// Spam tokens (filterSpamTokens). The hosted API filters with an external
// reputation list; avadata serves a node, possibly offline, so it decides
// with what it has, and the rule is one function every operation shares
// (the balance listings and listTransactionsV2):
//
//  1. The operator's list: Config.SpamTokens (the chain config's
//     spamTokens, by EVM chain id) names contracts that are always spam.
//  2. A local heuristic on what the token says of itself, aimed at the
//     airdropped lures that fill wallets' token lists:
//     - a name or symbol that carries a link (a scheme "://", "www.", "t.me/"
//       or a dotted domain with a common top-level domain, e.g.
//       "USDC-Reward.com"): legitimate tokens do not advertise addresses
//       in their names, lures do so that wallets display them;
//     - a name or symbol with a lure word: "claim", "visit", "voucher",
//       "airdrop" (case-insensitive);
//     - a name or symbol with control or invisible characters (zero-width
//       spaces and the like, used to impersonate well-known tokens);
//     - unreadable metadata: the contract's name() and symbol() were read
//       and neither gave a string, so the token cannot be told apart.
//
// A token whose metadata is not read yet is not judged by the heuristic
// (it is shown, and judged once the background reader has read it). The
// heuristic never hides a token the operator did not flag unless the token
// itself says one of these things; tokenReputation stays null (unknown):
// this is no security analysis.

// spamWords are the lure words of rule 2 (lower case).
var spamWords = []string{"claim", "visit", "voucher", "airdrop"}

// spamTLDs are top-level domains that, after a dot inside a name, make it
// a link ("x.com", "go.io"). Domains that real projects put in their
// names (".fi" of "Ether.fi", ".finance") are left out.
var spamTLDs = []string{"com", "io", "net", "org", "xyz", "app", "site", "online", "vip", "top", "club", "cc",
	"gift", "link", "website", "click"}

// isSpamToken reports whether the token at addr on the shaper's chain is
// spam: flagged by the operator, or caught by the heuristic.
func (v *shaper) isSpamToken(addr common.Address) bool {
	if v.s.cfg.SpamTokens[v.chain.EVMChainID][addr] {
		return true
	}
	c, found := v.contract(addr)
	return found && looksLikeSpam(c)
}

// looksLikeSpam is the heuristic of rule 2 on what the contract says.
func looksLikeSpam(c evmdata.Contract) bool {
	if !c.MetadataRead {
		return false
	}
	if strings.TrimSpace(c.Name) == "" && strings.TrimSpace(c.Symbol) == "" {
		return true
	}
	return isLure(c.Name) || isLure(c.Symbol)
}

// isLure reports a link, a lure word or hidden characters in s.
func isLure(s string) bool {
	lower := strings.ToLower(s)
	if strings.Contains(lower, "://") || strings.Contains(lower, "www.") || strings.Contains(lower, "t.me/") {
		return true
	}
	for _, w := range spamWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) { // Cf: zero-width and other format characters
			return true
		}
	}
	return hasDomain(lower)
}

// hasDomain reports a dotted word ending in a common top-level domain:
// "usdt-gift.com", "free.io/x". Decimals such as "2.0" are not domains.
func hasDomain(lower string) bool {
	for i := strings.IndexByte(lower, '.'); i >= 0; {
		rest := lower[i+1:]
		end := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) })
		if end < 0 {
			end = len(rest)
		}
		if i > 0 && isDomainRune(rune(lower[i-1])) {
			for _, tld := range spamTLDs {
				if rest[:end] == tld {
					return true
				}
			}
		}
		next := strings.IndexByte(rest, '.')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

func isDomainRune(r rune) bool { return r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r) }
