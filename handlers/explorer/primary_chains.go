package explorer

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The primary network's pages name a chain by the Data API's alias
// (p-chain, x-chain, c-chain), which is the first segment of their path and
// the {blockchainId} of the API calls they make. The API's replies name
// chains by blockchain ID (a UTXO's createdOnChainId, an import's
// sourceChain): primaryChains turns those back into pages.

// primaryChain is one chain of the primary network, as the explorer shows it.
type primaryChain struct {
	// Alias is the Data API's alias: the explorer's path segment and the
	// API's {blockchainId}.
	Alias string
	// Letter is the chain's letter, the prefix of its bech32 addresses.
	Letter string
	// Label names the chain for people.
	Label string
	// ID is the chain's cb58 blockchain ID.
	ID string
	// chain is the chain's number; the zero primaryChain (a chain the node
	// does not follow) has none that counts.
	chain netinfo.Chain
}

// HasBlocks says whether the chain has block pages of its own: P and X;
// the C-chain's blocks are its EVM pages', its own pages list its atomic
// transactions.
func (c primaryChain) HasBlocks() bool { return c.Alias != "" && c.chain != netinfo.C }

// primaryChains are the three chains of the node's network, for the pages
// to link what the API names by blockchain ID.
type primaryChains struct {
	list []primaryChain
	// cBlockChain is the {chainId} of the EVM pages for the C-chain: its
	// EVM chain ID when known, else its blockchain ID.
	cBlockChain string
}

func (s *server) primaryChains() primaryChains {
	node := s.Network()
	var out primaryChains
	for _, c := range netinfo.PrimaryChains() {
		out.list = append(out.list, primaryChain{
			Alias: c.DataAPIAlias(), Letter: c.String(), Label: primaryChainLabel(c), ID: node.ChainID(c).String(), chain: c,
		})
	}
	out.cBlockChain = node.ChainID(netinfo.C).String()
	if n := node.CChainEVMID(); n != 0 {
		out.cBlockChain = fmt.Sprint(n)
	}
	return out
}

// primaryChainLabel names a primary chain for people: P-Chain, X-Chain,
// C-Chain.
func primaryChainLabel(c netinfo.Chain) string { return c.String() + "-Chain" }

// byAlias is the chain of a path's first segment.
func (cs primaryChains) byAlias(alias string) (primaryChain, bool) {
	for _, c := range cs.list {
		if c.Alias == alias {
			return c, true
		}
	}
	return primaryChain{}, false
}

// Of is the chain of a blockchain ID; a chain the node does not follow has
// no Alias (the page then shows its ID without a link).
func (cs primaryChains) Of(id any) primaryChain {
	s := str(id)
	for _, c := range cs.list {
		if c.ID == s || c.Alias == s {
			return c
		}
	}
	return primaryChain{Label: s, ID: s}
}

// of is the chain c among the three.
func (cs primaryChains) of(c netinfo.Chain) primaryChain {
	for _, pc := range cs.list {
		if pc.chain == c {
			return pc
		}
	}
	return primaryChain{}
}

// IsPrimaryNetwork says whether subnetID is the primary network's: the
// subnet of the three chains, which the pages name rather than show its ID.
func (cs primaryChains) IsPrimaryNetwork(subnetID any) bool {
	return str(subnetID) == constants.PrimaryNetworkID.String()
}

// CBlockChain is the {chainId} a C-chain block's EVM page takes.
func (cs primaryChains) CBlockChain() string { return cs.cBlockChain }

// AddressOn is the address page's {address} of a bech32 address (as the
// API writes UTXO owners, without a chain prefix) on chain: prefixed with
// the chain's letter, as that chain's wallets write it.
func (c primaryChain) AddressOn(addr any) string {
	a := str(addr)
	if strings.HasPrefix(a, "0x") || strings.Contains(a, "-") || c.Letter == "" {
		return a
	}
	return c.Letter + "-" + a
}

// primaryPage is what every primary-network page knows: its chain and the
// others.
type primaryPage struct {
	Chain  primaryChain
	Chains primaryChains
}

// primaryPageOf is the page data of the chain named alias (the path's
// {chain}, which the route limits to the chains the page serves).
func (s *server) primaryPageOf(alias string) (primaryPage, error) {
	chains := s.primaryChains()
	c, ok := chains.byAlias(alias)
	if !ok {
		return primaryPage{}, api.NotFound("the explorer has no pages for chain '%s'", api.Truncate(alias))
	}
	return primaryPage{Chain: c, Chains: chains}, nil
}

// primaryPageOfPath is primaryPageOf the request's {chain}.
func (s *server) primaryPageOfPath(r *http.Request) (primaryPage, error) {
	return s.primaryPageOf(api.PathVar(r, "chain"))
}

// primaryCall is a call of the API's primary-network operations on the
// page's chain: /v1/networks/{network}/blockchains/{alias}/segments...
func primaryCall(req *request, p primaryPage, query url.Values, segments ...string) apiCall {
	return call(query, append([]string{"v1", "networks", req.Network, "blockchains", p.Chain.Alias}, segments...)...)
}

// primaryListQuery is the query of a list call: pageQuery, with the
// explorer URL's pageSize where it names one (the API checks it; the next
// page's link keeps it), else listPageSize.
func primaryListQuery(req *request) url.Values {
	q := pageQuery(req, listPageSize)
	if n := req.Query.Get("pageSize"); n != "" {
		q.Set("pageSize", n)
	}
	return q
}

// memoText is a memo (the API's 0x hex) for people: its text where the
// bytes are printable UTF-8, else the hex as it came. html/template
// escapes the text like any other.
func memoText(raw any) string {
	s := str(raw)
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) == 0 || !utf8.Valid(b) {
		return s
	}
	for _, r := range string(b) {
		if !unicode.IsPrint(r) && !unicode.IsSpace(r) {
			return s
		}
	}
	return string(b)
}
