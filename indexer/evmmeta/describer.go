// Package evmmeta reads what the chain says about the contracts the EVM
// writer saw: name, symbol, decimals and the token standard (ERC-165). It
// runs beside the block follower, over the contracts the writer queued, and
// at the latest state, which a pruned node can always answer.
package evmmeta

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/libevm/common"
	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/safehttp"
)

// Store is where the describer finds queued contracts and tokens and writes
// what it read.
type Store interface {
	PendingContracts(ctx context.Context, chain netinfo.Chain, limit int) ([]evmdata.Contract, error)
	SetContractMetadata(ctx context.Context, chain netinfo.Chain, c evmdata.Contract) error
	PendingTokens(ctx context.Context, chain netinfo.Chain, limit int) ([]evmdata.TokenRef, error)
	SetNFTMetadata(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int, m evmdata.NFTMetadata) error
}

// Caller runs read-only contract calls at the latest state.
type Caller interface {
	CallContracts(ctx context.Context, calls []nodeapi.ContractCall) error
}

const (
	batchContracts = 50
	maxBackoff     = 30 * time.Second
)

// Describer describes one chain's contracts and NFTs.
type Describer struct {
	chain   netinfo.Chain
	name    string
	node    Caller
	store   Store
	log     logging.Logger
	idle    time.Duration
	fetcher *fetcher // nil: documents behind http(s)/ipfs URIs are not read
}

// New returns the describer of chain; idle is how long it waits when nothing
// is queued.
func New(chain netinfo.Chain, name string, node Caller, st Store, log logging.Logger, idle time.Duration,
	fetch FetchOptions,
) *Describer {
	d := &Describer{chain: chain, name: name, node: node, store: st, log: log, idle: idle}
	if fetch.Enabled {
		d.fetcher = newFetcher(fetch, safehttp.PublicAddress)
	}
	return d
}

// Run describes queued contracts and tokens until ctx ends.
func (d *Describer) Run(ctx context.Context) error {
	wait := d.idle
	for {
		contracts, err := d.describeSome(ctx)
		tokens := 0
		if err == nil {
			tokens, err = d.describeTokensSome(ctx)
		}
		n := contracts + tokens
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			d.log.Warn("reading contract metadata failed; retrying", zap.String("chain", d.name), zap.Error(err))
			wait = min(2*wait, maxBackoff)
		case n > 0:
			wait = d.idle
			continue
		default:
			wait = d.idle
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}

// describeSome describes one batch of queued contracts; it returns how many.
func (d *Describer) describeSome(ctx context.Context) (int, error) {
	pending, err := d.store.PendingContracts(ctx, d.chain, batchContracts)
	if err != nil || len(pending) == 0 {
		return 0, err
	}
	calls := make([]nodeapi.ContractCall, 0, perContract*len(pending))
	for _, c := range pending {
		calls = append(calls, contractCalls(c.Address)...)
	}
	if err := d.node.CallContracts(ctx, calls); err != nil {
		return 0, err
	}
	for i, c := range pending {
		described := describe(c, calls[perContract*i:perContract*(i+1)])
		if err := d.store.SetContractMetadata(ctx, d.chain, described); err != nil {
			return i, fmt.Errorf("storing metadata of %s: %w", c.Address, err)
		}
	}
	return len(pending), nil
}

// perContract is how many calls describe one contract (contractCalls).
const perContract = 5

// contractCalls are the calls that describe the contract at addr: name,
// symbol, decimals and the two ERC-165 probes, in describe's order.
func contractCalls(addr common.Address) []nodeapi.ContractCall {
	return []nodeapi.ContractCall{
		{To: addr, Data: selName},
		{To: addr, Data: selSymbol},
		{To: addr, Data: selDecimals},
		{To: addr, Data: withWord(selSupportsInterface, ifaceERC721)},
		{To: addr, Data: withWord(selSupportsInterface, ifaceERC1155)},
	}
}

// Describe reads what the chain says of one contract now, as the
// background describer would (name, symbol, decimals, and the standard
// when c's is unknown), without storing it: an endpoint about a contract
// indexed a moment ago answers in full rather than wait for the describer
// to reach it. MetadataRead is left as it was.
func Describe(ctx context.Context, node Caller, c evmdata.Contract) (evmdata.Contract, error) {
	calls := contractCalls(c.Address)
	if err := node.CallContracts(ctx, calls); err != nil {
		return c, fmt.Errorf("describing contract %s: %w", c.Address, err)
	}
	return describe(c, calls), nil
}

// describe fills c from the answers to name, symbol, decimals and the two
// ERC-165 probes. A call that reverted leaves its field empty. The standard
// seen in transfer logs stands; ERC-165 only settles a contract whose logs
// did not (yet) say.
func describe(c evmdata.Contract, answers []nodeapi.ContractCall) evmdata.Contract {
	if answers[0].Err == nil {
		c.Name, _ = decodeString(answers[0].Result)
	}
	if answers[1].Err == nil {
		c.Symbol, _ = decodeString(answers[1].Result)
	}
	if answers[2].Err == nil {
		c.Decimals, c.HasDecimal = decodeUint8(answers[2].Result)
	}
	if c.Kind == evmdata.ErcUnknown {
		switch {
		case answers[3].Err == nil && decodeBool(answers[3].Result):
			c.Kind = evmdata.Erc721
		case answers[4].Err == nil && decodeBool(answers[4].Result):
			c.Kind = evmdata.Erc1155
		}
	}
	return c
}
