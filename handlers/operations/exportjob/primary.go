package exportjob

import (
	"context"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// The primary-network exports: the P-, X- and C-chain (atomic) txs that
// involve the addresses, the chains one after the other in the request's
// order, each chain's txs in order (block, then position), read through the
// primary listings' reader (store.PrimaryReader.Txs: the txs in which an
// address owns a consumed or produced UTXO, signs, is a reward owner or the
// EVM account of an atomic tx). A chain's range starts at height 0 (its
// genesis txs; the X-chain's DAG txs) unless firstDate is given.

// PrimaryKind is the kind of a primary-network export (0: an EVM export).
type PrimaryKind byte

const (
	// PrimaryAll exports every tx (TRANSACTION_EXPORT_PRIMARY_NETWORK).
	PrimaryAll PrimaryKind = 1 + iota
	// PrimaryStaking exports the staking txs: the validator and delegator
	// txs and their reward txs (TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING).
	PrimaryStaking
	// PrimarySimple exports every tx with the same columns
	// (TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE: the hosted API does not
	// describe how its file differs).
	PrimarySimple
)

// stakingTxTypes are the txs of a PrimaryStaking export.
func stakingTxTypes() []string {
	return []string{"AddValidatorTx", "AddDelegatorTx", "AddPermissionlessValidatorTx",
		"AddPermissionlessDelegatorTx", "AddSubnetValidatorTx", "RemoveSubnetValidatorTx", "RewardValidatorTx"}
}

// PrimaryReader reads the primary-network txs (*store.PrimaryReader).
type PrimaryReader interface {
	Txs(ctx context.Context, chain netinfo.Chain, q pdata.TxQuery) ([]pdata.IndexedTx, error)
	HeightAtTime(ctx context.Context, chain netinfo.Chain, ts int64) (uint64, error)
}

// PrimaryRows shapes the CSV rows of a primary-network export
// (primary.ExportRows).
type PrimaryRows interface {
	Row(itx *pdata.IndexedTx) []string
}

// primaryExports is what the runner needs for primary-network exports.
type primaryExports struct {
	reader PrimaryReader
	rows   PrimaryRows
	header []string
}

// WithPrimary lets the runner run primary-network exports; without it they
// are refused. Call it before Run.
func (r *Runner) WithPrimary(reader PrimaryReader, rows PrimaryRows, header []string) *Runner {
	r.primary = &primaryExports{reader: reader, rows: rows, header: header}
	return r
}

// ServesPrimary reports whether the runner runs primary-network exports.
func (r *Runner) ServesPrimary() bool { return r.primary != nil }

// primaryStream names a primary chain's stream ("P", "X", "C").
func primaryStream(chain netinfo.Chain) string { return chain.String() }

func primaryChainOfStream(stream string) (netinfo.Chain, bool) {
	for _, c := range []netinfo.Chain{netinfo.P, netinfo.X, netinfo.C} {
		if primaryStream(c) == stream {
			return c, true
		}
	}
	return 0, false
}

// primarySpec fixes a primary plan's heights: from the genesis (or the
// first block of FirstDay) to the last block of LastDay, within what this
// node has indexed now.
func (r *Runner) primarySpec(ctx context.Context, p Plan) (Spec, error) {
	if r.primary == nil {
		return Spec{}, errNoPrimary
	}
	spec := Spec{Primary: p.Primary, PrimaryAddresses: p.PrimaryAddresses, CreatedAt: r.now().Truncate(time.Second)}
	for _, chain := range p.PrimaryChains {
		cursor, err := r.store.Cursor(ctx, chain, store.StreamBlocks)
		if err != nil {
			return Spec{}, fmt.Errorf("reading the indexed height of %s: %w", chain, err)
		}
		c := ChainRange{Stream: primaryStream(chain), From: 0, To: max(cursor.NextHeight, 1) - 1}
		if p.FirstDay != nil {
			before, err := r.primary.reader.HeightAtTime(ctx, chain, p.FirstDay.Unix()-1)
			if err != nil {
				return Spec{}, err
			}
			c.From = before + 1
		}
		if p.LastDay != nil {
			last, err := r.primary.reader.HeightAtTime(ctx, chain, p.LastDay.Add(day).Unix()-1)
			if err != nil {
				return Spec{}, err
			}
			c.To = min(c.To, last)
		}
		spec.Chains = append(spec.Chains, c)
	}
	return spec, nil
}

// errNoPrimary: the runner was built without primary-network exports.
var errNoPrimary = fmt.Errorf("this node does not run primary-network exports")

// primaryStep is step for a primary-network export.
func (r *Runner) primaryStep(ctx context.Context, spec Spec, j store.ExportJob) (store.ExportJob, error) {
	c := spec.Chains[j.ChainIndex]
	if c.Empty() {
		return r.save(ctx, nextChain(j))
	}
	chain, ok := primaryChainOfStream(c.Stream)
	if !ok || r.primary == nil {
		return j, errChainUnknown
	}
	cursor, err := r.store.Cursor(ctx, chain, store.StreamBlocks)
	if err != nil {
		return j, fmt.Errorf("reading the indexed height of %s: %w", chain, err)
	}
	if cursor.NextHeight <= c.To {
		return j, sleep(ctx, r.cfg.IndexPoll)
	}
	q := pdata.TxQuery{Addresses: spec.PrimaryAddresses, FromHeight: c.From, ToHeight: c.To + 1, Limit: r.cfg.StepTxs}
	if spec.Primary == PrimaryStaking {
		q.Types = stakingTxTypes()
	}
	if j.HasAfter {
		q.After = &pdata.TxPos{Height: j.AfterBlock, Index: j.AfterIndex}
	}
	txs, err := r.primary.reader.Txs(ctx, chain, q)
	if err != nil {
		return j, err
	}
	next := j
	if len(txs) > 0 {
		last := txs[len(txs)-1].Pos
		next.HasAfter, next.AfterBlock, next.AfterIndex = true, last.Height, last.Index
	}
	if len(txs) < q.Limit {
		next = nextChain(next)
	}
	if left := r.cfg.MaxRows - j.Rows; uint64(len(txs)) > left {
		next.State, next.Code = store.ExportTruncated, codeTruncated
		next.NextDate = time.Unix(txs[left].BlockTime, 0).UTC().Format(time.DateOnly)
		next.Message = fmt.Sprintf("the export stopped at %d rows, its bound: the rows from %s on (block %d of the %s) are not in it; "+
			"ask for another export with firstDate %s", r.cfg.MaxRows, next.NextDate, txs[left].Pos.Height, chain, next.NextDate)
		txs = txs[:left]
	}
	rows := make([][]string, len(txs))
	for i := range txs {
		rows[i] = r.primary.rows.Row(&txs[i])
	}
	return r.appendRows(ctx, j, next, r.primary.header, rows)
}

// encodePrimaryAddresses and decodePrimaryAddresses are the addresses'
// part of a primary export's operationId (version 2): kind(1) | count(1)
// | count × address(20).
func encodePrimaryAddresses(extra []byte, spec Spec) []byte {
	extra = append(extra, byte(spec.Primary), byte(len(spec.PrimaryAddresses)))
	for _, a := range spec.PrimaryAddresses {
		extra = append(extra, a[:]...)
	}
	return extra
}

func decodePrimaryAddresses(x []byte, chains int, spec *Spec) ([]byte, bool) {
	if len(x) < 2 {
		return nil, false
	}
	kind, n := PrimaryKind(x[0]), int(x[1])
	x = x[2:]
	if kind < PrimaryAll || kind > PrimarySimple || n == 0 || len(x) != n*ids.ShortIDLen+8*chains {
		return nil, false
	}
	spec.Primary = kind
	for range n {
		spec.PrimaryAddresses = append(spec.PrimaryAddresses, ids.ShortID(x[:ids.ShortIDLen]))
		x = x[ids.ShortIDLen:]
	}
	return x, true
}
