package primary

import (
	"context"
	"fmt"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
)

// The C-chain's index may start above genesis (a node that state-synced
// it; api/history.go). Its atomic txs before the first indexed block are
// then unknown, and with them the imports that consumed UTXOs the P- and
// X-chain exported to it: the index would show those UTXOs still waiting
// in the C-chain's atomic memory. So the C-chain's UTXOs and balances (all
// of them atomic memory) are refused while its history is partial, naming
// the first indexed block, rather than shown wrong. (The P- and X-chain's
// own UTXOs are complete; their atomic memory may miss a UTXO the C-chain
// exported before its first indexed block and that is still not imported.)

// resolveChain resolves the primary chain of the request's path
// (api.Core.ResolvePrimaryPath) and, for the C-chain, notes where its
// history starts for the reply's X-Avadata-History-From, as every reply
// about a chain whose history is partial says.
func (s *server) resolveChain(r *http.Request, heights *api.Heights, allowed []netinfo.Chain) (netinfo.Chain, error) {
	chain, err := s.ResolvePrimaryPath(r, heights, allowed)
	if err != nil || chain != netinfo.C {
		return chain, err
	}
	h, err := s.cHistory(r.Context())
	if err != nil {
		return chain, err
	}
	heights.NoteHistory(netinfo.C.String(), h.From)
	return chain, nil
}

// cHistory reads where the C-chain's history in the index starts, per
// request (a back-fill lowers it as it goes).
func (s *server) cHistory(ctx context.Context) (api.History, error) {
	from, err := s.reader.HistoryFrom(ctx, netinfo.C)
	if err != nil {
		return api.History{}, fmt.Errorf("reading where the C-chain's index starts: %w", err)
	}
	return api.NewHistory(netinfo.ChainInfo{Chain: netinfo.C}, from), nil
}

// checkCAtomicHistory refuses (400) an answer about chain's atomic memory
// that the C-chain's missing history could make wrong: what names it.
func (s *server) checkCAtomicHistory(ctx context.Context, chain netinfo.Chain, what string) error {
	if chain != netinfo.C {
		return nil
	}
	h, err := s.cHistory(ctx)
	if err != nil || !h.Partial() {
		return err
	}
	return api.BadRequest("%s: %s (the UTXOs the P- and X-chain exported to it) cannot be derived from the index, "+
		"because the imports before that block that consumed some of them are not indexed; read them from the node "+
		"(avax.getUTXOs with sourceChain), or give the node the C-chain's full history and set indexFrom",
		h.Starts(), what)
}

// checkCTimeRange refuses (400) a time range of C-chain atomic txs that
// reaches before the C-chain's first indexed block: a startTimestamp
// before its time (earlier blocks are not indexed), or an endTimestamp
// before it.
func (s *server) checkCTimeRange(ctx context.Context, chain netinfo.Chain, tr api.TimestampRange) error {
	if chain != netinfo.C || (!tr.Start.Set && !tr.End.Set) {
		return nil
	}
	h, err := s.cHistory(ctx)
	if err != nil || !h.Partial() {
		return err
	}
	for _, b := range []struct {
		name  string
		bound api.Bound[int64]
	}{{api.ParamStartTimestamp, tr.Start}, {api.ParamEndTimestamp, tr.End}} {
		if !b.bound.Set {
			continue
		}
		// The last indexed block at or before the time: below the first
		// indexed block when the time is before it.
		at, err := s.reader.HeightAtTime(ctx, netinfo.C, b.bound.Value)
		if err != nil {
			return fmt.Errorf("finding the C-chain block at time %d: %w", b.bound.Value, err)
		}
		if at < h.From {
			return api.BadRequest("%s: %s %d is before that block's time; ask for a later %s, or give the node "+
				"the C-chain's full history and set indexFrom", h.Starts(), b.name, b.bound.Value, b.name)
		}
	}
	return nil
}

// cTxBeforeHistory is the 404 of a C-chain atomic tx the index does not
// hold while the C-chain's history is partial: it may lie before the first
// indexed block. nil when the history is whole.
func (s *server) cTxBeforeHistory(ctx context.Context, id fmt.Stringer) error {
	h, err := s.cHistory(ctx)
	if err != nil || !h.Partial() {
		return err
	}
	return h.Before(fmt.Sprintf("transaction %s not found on the c-chain", id))
}
