package explorer

import (
	"context"
	"fmt"

	"github.com/avadata/avadata/handlers/api"
)

// Every EVM page reads its chain (getChainInfo) with its own replies: the
// chain's EVM chain id is what the page's links use whatever form of
// {chainId} its URL had (a number, a blockchain ID, c-chain), and its
// network token gives native amounts their symbol and decimals. An unknown
// chain is the API's error, for every EVM page alike.

// evmPath are the path variables of the EVM pages.
const (
	evmVarChainID = "chainId"
	evmVarAddress = "address"
)

// readEVM reads the chain of an EVM page and the page's own calls,
// concurrently: the chain's getChainInfo reply, and the replies of calls in
// order. The chain's error is the page's error.
func (s *server) readEVM(ctx context.Context, chainID string, calls ...apiCall) (object, []reply, error) {
	replies := s.getAll(ctx, append([]apiCall{call(nil, "v1", "chains", chainID)}, calls...)...)
	if err := replies[0].Err; err != nil {
		return nil, nil, err
	}
	return replies[0].Body, replies[1:], nil
}

// evmChainCall is the path of a call below /v1/chains/{chainId}.
func evmChainCall(query map[string][]string, chainID string, segments ...string) apiCall {
	return call(query, append([]string{"v1", "chains", chainID}, segments...)...)
}

// notFoundIsNil is a reply's body, nil when the API answered 404 (the
// thing is not there, which the page shows), or the reply's other error.
func notFoundIsNil(r reply) (object, error) {
	if r.Err != nil && api.IsNotFound(r.Err) {
		return nil, nil
	}
	return r.Body, r.Err
}

// evmTitle is a page's title: what it shows, on which chain.
func evmTitle(chain object, what string) string {
	return fmt.Sprintf("%s · %s", what, str(chain["chainName"]))
}
