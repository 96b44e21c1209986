package explorer

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Kinds of search candidates.
const (
	kindAddress    = "address"
	kindTx         = "transaction"
	kindBlock      = "block"
	kindToken      = "token"
	kindValidator  = "validator"
	kindAsset      = "asset"
	kindSubnet     = "subnet"
	kindBlockchain = "blockchain"
	kindL1         = "L1 validator"
	kindVertex     = "vertex"
)

var (
	evmAddressShape = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	evmHashShape    = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
	// heightShape is a block number: decimal digits, at most what a uint64
	// holds.
	heightShape = regexp.MustCompile(`^[0-9]{1,19}$`)
	// bech32Shape is bech32 text: a prefix, the separator 1, and at least
	// a checksum's 6 characters of the bech32 alphabet, in one case.
	bech32Shape = regexp.MustCompile(`^([a-z]+1[02-9ac-hj-np-z]{6,}|[A-Z]+1[02-9AC-HJ-NP-Z]{6,})$`)
)

// planSearch decides from the query's shape what it may be.
func (s *server) planSearch(r *http.Request, req *request, q string) (searchPlan, error) {
	var plan searchPlan
	node, chains := s.Network(), s.primaryChains()
	evm := node.EVMChains()
	network := func(segments ...string) apiCall {
		return call(nil, append([]string{"v1", "networks", req.Network}, segments...)...)
	}
	switch {
	case evmAddressShape.MatchString(q):
		plan.tried = append(plan.tried, "the EVM chains this address took part on")
		plan.probes = append(plan.probes, searchProbe{
			call: call(nil, "v1", "address", q, "chains"),
			expand: func(reply object) []searchCandidate {
				return addressCandidates(req, q, reply, evm, node.ChainName)
			},
		})
	case evmHashShape.MatchString(q):
		for _, ci := range evm {
			id := fmt.Sprint(ci.EVMChainID)
			chain := evmChainLabel(node.ChainName(ci.Chain), ci.EVMChainID)
			plan.probes = append(plan.probes,
				searchProbe{call: call(nil, "v1", "chains", id, "transactions", q),
					found: searchCandidate{Kind: kindTx, Chain: chain, Label: q, URL: link(req, "evm", id, "tx", q)}},
				searchProbe{call: call(nil, "v1", "chains", id, "blocks", q),
					found: searchCandidate{Kind: kindBlock, Chain: chain, Label: q, URL: link(req, "evm", id, "block", q)}})
			plan.tried = append(plan.tried, "transactions and blocks of "+chain)
		}
	case heightShape.MatchString(q):
		for _, ci := range evm {
			id := fmt.Sprint(ci.EVMChainID)
			chain := evmChainLabel(node.ChainName(ci.Chain), ci.EVMChainID)
			plan.probes = append(plan.probes, searchProbe{call: call(nil, "v1", "chains", id, "blocks", q),
				found: searchCandidate{Kind: kindBlock, Chain: chain, Label: "block " + q, URL: link(req, "evm", id, "block", q)}})
			plan.tried = append(plan.tried, "blocks of "+chain)
		}
		for _, p := range chains.list {
			if !p.HasBlocks() {
				continue
			}
			plan.probes = append(plan.probes, searchProbe{call: network("blockchains", p.Alias, "blocks", q),
				found: searchCandidate{Kind: kindBlock, Chain: p.Label, Label: "block " + q, URL: link(req, p.Alias, "block", q)}})
			plan.tried = append(plan.tried, "blocks of the "+p.Label)
		}
	case strings.HasPrefix(q, "NodeID-"):
		if _, err := ids.NodeIDFromString(q); err != nil {
			return plan, api.BadRequest("'%s' is no node ID: %v", api.Truncate(q), err)
		}
		plan.sure = append(plan.sure, searchCandidate{Kind: kindValidator, Chain: chains.of(netinfo.P).Label, Label: q, URL: link(req, "validators", q)})
	default:
		if c, ok := s.primaryAddress(req, q, node.HRP()); ok {
			plan.sure = append(plan.sure, c...)
			break
		}
		if chains.meantAsAddress(q, node.HRP()) {
			_, err := api.ParsePrimaryAddress(q, node.HRP())
			return plan, api.BadRequest("'%s' is not a valid address of this network: it %v", api.Truncate(q), err)
		}
		if _, err := ids.FromString(q); err == nil {
			plan.probes, plan.tried = s.idProbes(req, q, network)
			break
		}
		plan.tokens = q
		plan.tried = append(plan.tried, "the names and symbols of the tokens of every EVM chain")
	}
	return plan, nil
}

// addressCandidates are the EVM chains an address took part on (the API's
// listAddressChains reply); an address seen nowhere may still hold a
// balance, so then every followed EVM chain is a candidate.
func addressCandidates(req *request, addr string, reply object, evm []netinfo.ChainInfo, chainName func(netinfo.Chain) string) []searchCandidate {
	seen := map[string]bool{}
	list, _ := reply["indexedChains"].([]any)
	for _, c := range list {
		if o, ok := c.(object); ok {
			seen[str(o["chainId"])] = true
		}
	}
	var out, all []searchCandidate
	for _, ci := range evm {
		id := fmt.Sprint(ci.EVMChainID)
		c := searchCandidate{Kind: kindAddress, Chain: evmChainLabel(chainName(ci.Chain), ci.EVMChainID), Label: addr,
			URL: link(req, "evm", id, "address", addr)}
		all = append(all, c)
		if seen[id] {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// primaryAddress reads a bech32 address of the node's network: with a
// chain prefix (P-, X-, C-) it is that chain's address; bare, it may be
// one on P or on X.
func (s *server) primaryAddress(req *request, q, hrp string) ([]searchCandidate, bool) {
	if _, err := api.ParsePrimaryAddress(q, hrp); err != nil {
		return nil, false
	}
	letter, bech, prefixed := strings.Cut(q, "-")
	if !prefixed {
		letter, bech = "", q
	}
	bech = strings.ToLower(bech)
	var out []searchCandidate
	for _, p := range s.primaryChains().list {
		if (letter == "" && p.Letter != "C") || strings.EqualFold(letter, p.Letter) {
			addr := p.Letter + "-" + bech
			out = append(out, searchCandidate{Kind: kindAddress, Chain: p.Label, Label: addr, URL: link(req, p.Alias, "address", addr)})
		}
	}
	return out, true
}

// meantAsAddress says whether q, no address of this network, can only be
// meant as one: bech32 text after a chain's letter (P-, X-, C-), or bare
// with this network's prefix. The search then says what is wrong with it
// rather than look for a token of that name.
func (cs primaryChains) meantAsAddress(q, hrp string) bool {
	bech := q
	if letter, rest, prefixed := strings.Cut(q, "-"); prefixed {
		if !slices.ContainsFunc(cs.list, func(c primaryChain) bool { return strings.EqualFold(c.Letter, letter) }) {
			return false
		}
		bech = rest
	} else if !strings.HasPrefix(strings.ToLower(q), hrp+"1") {
		return false
	}
	return bech32Shape.MatchString(bech)
}

// idProbes are the probes of a cb58 ID: everything on the primary network
// a 32-byte ID names.
func (s *server) idProbes(req *request, id string, network func(segments ...string) apiCall) ([]searchProbe, []string) {
	var probes []searchProbe
	chains := s.primaryChains()
	pChain, xChain := chains.of(netinfo.P), chains.of(netinfo.X)
	for _, p := range chains.list {
		probes = append(probes, searchProbe{call: network("blockchains", p.Alias, "transactions", id),
			found: searchCandidate{Kind: kindTx, Chain: p.Label, Label: id, URL: link(req, p.Alias, "tx", id)}})
	}
	for _, p := range chains.list {
		if !p.HasBlocks() {
			continue
		}
		probes = append(probes, searchProbe{call: network("blockchains", p.Alias, "blocks", id),
			found: searchCandidate{Kind: kindBlock, Chain: p.Label, Label: id, URL: link(req, p.Alias, "block", id)}})
	}
	probes = append(probes,
		searchProbe{call: network("blockchains", xChain.Alias, "assets", id),
			found: searchCandidate{Kind: kindAsset, Chain: xChain.Label, Label: id, URL: link(req, xChain.Alias, "asset", id)}},
		searchProbe{call: network("subnets", id),
			found: searchCandidate{Kind: kindSubnet, Chain: pChain.Label, Label: id, URL: link(req, "subnets", id)}},
		searchProbe{call: network("blockchains", id),
			found: searchCandidate{Kind: kindBlockchain, Chain: pChain.Label, Label: id, URL: link(req, "blockchains", id)}},
		searchProbe{call: apiCall{Path: network("l1Validators").Path, Query: url.Values{"l1ValidationId": {id}, "includeInactiveL1Validators": {"true"}}},
			found:    searchCandidate{Kind: kindL1, Chain: pChain.Label, Label: id, URL: link(req, "l1-validators", id)},
			nonEmpty: "validators"},
		searchProbe{call: network("blockchains", xChain.Alias, "vertices", id),
			found: searchCandidate{Kind: kindVertex, Chain: xChain.Label, Label: id, URL: link(req, xChain.Alias, "vertex", id)}},
	)
	tried := []string{"P-, X- and C-Chain transactions", "P- and X-Chain blocks", "X-Chain assets and vertices",
		"subnets", "blockchains", "L1 validations"}
	return probes, tried
}
