package explorer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/avadata/avadata/handlers/api"
)

// searchParallel bounds the probes of one search that run at once: an ID
// makes a dozen, and a search is one page among the node's other work.
const searchParallel = 4

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

// probe runs the probes, searchParallel at a time, and returns what they
// found in the probes' order. A 4xx is "not this"; any other failure is
// the search's error, unless something was found anyway.
func (s *server) probe(r *http.Request, probes []searchProbe) ([]searchCandidate, error) {
	ctx := r.Context()
	results := make([][]searchCandidate, len(probes))
	errs := make([]error, len(probes))
	sem := make(chan struct{}, searchParallel)
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if v := recover(); v != nil {
					errs[i] = fmt.Errorf("searching %s: panic: %v", p.call.Path, v)
				}
			}()
			select {
			case sem <- struct{}{}:
				defer func() { <-sem }()
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			results[i], errs[i] = s.probeOne(ctx, p)
		}()
	}
	wg.Wait()
	var found []searchCandidate
	for _, r := range results {
		found = append(found, r...)
	}
	if len(found) == 0 {
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
	}
	return found, nil
}

// probeOne runs one probe.
func (s *server) probeOne(ctx context.Context, p searchProbe) ([]searchCandidate, error) {
	reply, err := s.get(ctx, p.call)
	var apiErr *api.Error
	if errors.As(err, &apiErr) && apiErr.Status >= 400 && apiErr.Status < 500 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if p.expand != nil {
		return p.expand(reply), nil
	}
	if p.nonEmpty != "" {
		if list, _ := reply[p.nonEmpty].([]any); len(list) == 0 {
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
