package metrics

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The {chainId} of the chain metrics (time series and rolling windows): one
// followed EVM chain, named as the EVM routes accept it (EVM chain id,
// cb58 blockchain ID, c-chain), or an aggregate of every followed EVM
// chain: total, and the node's network by the SDK's name (mainnet on
// mainnet; testnet on Fuji and on a local or custom network).

// aggregateTotal is the chainId of every followed EVM chain on any network.
const aggregateTotal = "total"

// metricsTarget is what a chain metrics {chainId} names.
type metricsTarget struct {
	// key binds page tokens to the target whichever name the client used:
	// the chain's stream, or the aggregate's name.
	key    string
	chains []netinfo.ChainInfo
}

// resolveMetricsTarget resolves a chain metrics {chainId}. An aggregate
// naming another network than the node's is a 400 naming the node's; an
// unknown chain is the 400 the EVM routes give, listing the aggregates too.
func (s *server) resolveMetricsTarget(segment string) (metricsTarget, error) {
	node := s.Network()
	if strings.EqualFold(segment, aggregateTotal) {
		return metricsTarget{key: aggregateTotal, chains: node.EVMChains()}, nil
	}
	if name := strings.ToLower(segment); name == "mainnet" || name == "testnet" {
		same, err := api.IsNodeNetwork(api.ParamChainID, name, node)
		if err != nil {
			return metricsTarget{}, err
		}
		if !same {
			return metricsTarget{}, api.BadRequest("%s '%s' aggregates the EVM chains of %s; this node serves network '%s': use '%s' or '%s'",
				api.ParamChainID, segment, name, node.Name(), aggregateTotal, nodeAggregate(node))
		}
		return metricsTarget{key: name, chains: node.EVMChains()}, nil
	}
	ci, err := api.ResolveEVMChain(segment, node)
	if err != nil {
		var apiErr *api.Error
		if errors.As(err, &apiErr) && apiErr.Status == http.StatusBadRequest {
			return metricsTarget{}, api.BadRequest("%s; or an aggregate of them all: '%s', '%s'",
				apiErr.Message, aggregateTotal, nodeAggregate(node))
		}
		return metricsTarget{}, err
	}
	return metricsTarget{key: s.EVMChainStream(ci), chains: []netinfo.ChainInfo{ci}}, nil
}

// nodeAggregate is the SDK's name of the node's network as an aggregate
// chainId.
func nodeAggregate(node netinfo.Info) string {
	if node.Name() == "mainnet" {
		return "mainnet"
	}
	return "testnet"
}

// metricsHistory is where the metrics of each chain of a target count
// from, read per request (a back-fill moves it).
type metricsHistory struct {
	chains    []netinfo.Chain
	histories []api.History
}

// targetHistory reads the history of every chain of t, records the streams
// the reply reads and, for a partial chain, X-Avadata-History-From. While
// a back-fill re-derives a chain's running state its metrics are not known:
// 503, saying so; what names the figure asked ("txCount").
func (s *server) targetHistory(ctx context.Context, t metricsTarget, heights *api.Heights, what string) (metricsHistory, error) {
	var mh metricsHistory
	for _, ci := range t.chains {
		stream := s.EVMChainStream(ci)
		s.ReadsStream(heights, stream)
		from, err := s.reader.HistoryFrom(ctx, ci.Chain)
		if err != nil {
			return metricsHistory{}, fmt.Errorf("reading where the index of %s starts: %w", ci.Chain, err)
		}
		derived, ok, err := s.reader.ChainMetricsFrom(ctx, ci.Chain)
		if err != nil {
			return metricsHistory{}, fmt.Errorf("reading where the metrics of %s count from: %w", ci.Chain, err)
		}
		h := api.NewHistory(ci, from).WithRunningState(derived, ok)
		// The figures count from the later of the index's first block and
		// the metric rows' (an index built before it kept them, or a
		// back-fill still filling): the header names that block.
		heights.NoteHistory(stream, max(h.From, h.DerivedFrom))
		if h.Rederiving {
			return metricsHistory{}, api.NewError(http.StatusServiceUnavailable,
				"%s: a back-fill of older blocks is re-deriving the chain's metrics, so %s is not known until it ends "+
					"(GET /v1/status shows its progress); try again then", h.Starts(), what)
		}
		mh.chains = append(mh.chains, ci.Chain)
		mh.histories = append(mh.histories, h)
	}
	return mh, nil
}

// seriesChains are the chains of the series, each partial when its metrics
// count from above genesis.
func (mh metricsHistory) seriesChains() []seriesChain {
	out := make([]seriesChain, len(mh.chains))
	for i, h := range mh.histories {
		out[i] = seriesChain{chain: mh.chains[i], partial: h.DerivedFrom > 1}
	}
	return out
}

// checkRunningTotal refuses (400) a running total from genesis (what names
// it) over a chain whose metrics count from a later block, naming it.
func (mh metricsHistory) checkRunningTotal(what string) error {
	var parts []string
	for _, h := range mh.histories {
		if h.DerivedFrom <= 1 {
			continue
		}
		if h.DerivedFrom > h.From {
			// A back-fill filling older blocks, or an index built before
			// it kept the metric rows (they count from where it resumed).
			parts = append(parts, fmt.Sprintf("%s: the chain's metrics count from block %d (a back-fill is filling "+
				"the blocks before it, or the index was built before it kept metrics)", h.Chain, h.DerivedFrom))
		} else {
			parts = append(parts, fmt.Sprintf("%s: the chain's metrics count from block %d", h.Starts(), h.DerivedFrom))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return api.BadRequest("%s; %s is a running total from genesis, which the index cannot know; give the node the chain's "+
		"full history and set indexFrom (or wait for the back-fill to end, or rebuild an index built before it kept metrics)",
		strings.Join(parts, "; "), what)
}
