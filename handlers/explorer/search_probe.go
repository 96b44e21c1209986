package explorer

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// searchTokensPerChain bounds the tokens a search lists per chain.
const searchTokensPerChain = 20

// searchProbe asks the API whether a guess exists: found is the
// candidate when the call answers 2xx (and, with nonEmpty, the reply's
// list of that name is not empty); expand, when set, makes the candidates
// from the reply instead.
type searchProbe struct {
	call     apiCall
	found    searchCandidate
	nonEmpty string
	expand   func(reply object) []searchCandidate
}

// probe runs the probes' calls (getAll: concurrently and bounded) and
// returns what they found in the probes' order. A 4xx is "not this"; any
// other failure is the search's error, unless something was found anyway.
func (s *server) probe(r *http.Request, probes []searchProbe) ([]searchCandidate, error) {
	calls := make([]apiCall, len(probes))
	for i, p := range probes {
		calls[i] = p.call
	}
	var found []searchCandidate
	var failed error
	for i, rep := range s.getAll(r.Context(), calls...) {
		hits, err := probes[i].result(rep)
		if err != nil && failed == nil {
			failed = err
		}
		found = append(found, hits...)
	}
	if len(found) == 0 && failed != nil {
		return nil, failed
	}
	return found, nil
}

// result is what the probe found, from its call's reply.
func (p searchProbe) result(rep reply) ([]searchCandidate, error) {
	var apiErr *api.Error
	if errors.As(rep.Err, &apiErr) && apiErr.Status >= 400 && apiErr.Status < 500 {
		return nil, nil
	}
	if rep.Err != nil {
		return nil, rep.Err
	}
	if p.expand != nil {
		return p.expand(rep.Body), nil
	}
	if p.nonEmpty != "" {
		if list, _ := rep.Body[p.nonEmpty].([]any); len(list) == 0 {
			return nil, nil
		}
	}
	return []searchCandidate{p.found}, nil
}

// searchTokens finds tokens by name or symbol on every followed EVM chain:
// the one search the API has no operation for, so the store answers it
// (Backend.Tokens). No searcher: no tokens.
func (s *server) searchTokens(r *http.Request, req *request, text string) ([]searchCandidate, error) {
	if s.tokens == nil {
		return nil, nil
	}
	node := s.Network()
	var out []searchCandidate
	for _, ci := range node.EVMChains() {
		if ci.EVMChainID == 0 {
			continue // no page to link to before the chain's id is known
		}
		contracts, err := s.tokens.SearchContracts(r.Context(), ci.Chain, text, searchTokensPerChain)
		if err != nil {
			return nil, err
		}
		id := fmt.Sprint(ci.EVMChainID)
		for _, c := range contracts {
			addr := c.Address.Hex()
			label := c.Name
			if c.Symbol != "" {
				label += " (" + c.Symbol + ")"
			}
			out = append(out, searchCandidate{Kind: c.Kind.String() + " " + kindToken, Chain: evmChainLabel(node.ChainName(ci.Chain), ci.EVMChainID),
				Label: label, URL: link(req, "evm", id, "token", addr)})
		}
	}
	return out, nil
}
