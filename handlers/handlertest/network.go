package handlertest

import (
	"context"
	"slices"
	"sync"

	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/metricdata"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/store"
)

// Fakes is an in-memory node view and metrics reader; evm holds the
// EVM readers. Buckets are kept newest first, as the store returns them.
type Fakes struct {
	Mu               sync.Mutex
	Info             netinfo.Info
	FollowerStatuses []follower.Status
	Buckets          map[netinfo.Chain][]store.TPSBucket
	Key              []byte
	TPSErr           error
	PanicMsg         string // Statuses panics with it when set
	TPSCalls         []TPSCall
	EVM              *EVM
	Primary          *Primary
	Staking          *Staking
	Platform         *Platform
	Vertices         *Vertices // nil: no vertex reader
	// ChainMetrics is the EVM metric rows, made on first use.
	ChainMetrics *ChainMetrics

	// StakeSeries is the staking series (metrics_staking_fake.go).
	StakeSeries StakeSeries
	// L1Fees answers L1FeeSeries (l1feeseries_fake.go); L1FeeQueries are
	// the queries it was asked.
	L1Fees       func(metricdata.L1FeeQuery) (metricdata.L1FeeSeries, error)
	L1FeeQueries []metricdata.L1FeeQuery
}

type TPSCall struct {
	Chain  netinfo.Chain
	Before int64
	Limit  int
}

func NewFakes() *Fakes {
	return &Fakes{
		Info:     fakenet.Info(),
		Buckets:  map[netinfo.Chain][]store.TPSBucket{},
		Key:      []byte("test page token key"),
		EVM:      NewEVM(),
		Primary:  NewPrimary(),
		Staking:  NewStaking(),
		Platform: NewPlatform(),
	}
}

func (f *Fakes) Network() netinfo.Info { return f.Info }

func (f *Fakes) Statuses() []follower.Status {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	if f.PanicMsg != "" {
		panic(f.PanicMsg)
	}
	return slices.Clone(f.FollowerStatuses) // a snapshot, as the node's is: setIndexedHeight writes in place
}

// SetIndexedHeight reports chain's follower at height.
func (f *Fakes) SetIndexedHeight(chain netinfo.Chain, height uint64) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	for i := range f.FollowerStatuses {
		if f.FollowerStatuses[i].Chain == chain {
			f.FollowerStatuses[i].IndexedHeight = height
			return
		}
	}
	f.FollowerStatuses = append(f.FollowerStatuses, follower.Status{Chain: chain, ChainName: chain.String(), IndexedHeight: height, Running: true})
}

func (f *Fakes) TPSBuckets(ctx context.Context, chain netinfo.Chain, before int64, limit int) ([]store.TPSBucket, error) {
	f.Mu.Lock()
	defer f.Mu.Unlock()
	f.TPSCalls = append(f.TPSCalls, TPSCall{Chain: chain, Before: before, Limit: limit})
	if f.TPSErr != nil {
		return nil, f.TPSErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []store.TPSBucket
	for _, b := range f.Buckets[chain] {
		if before != 0 && b.Start >= before {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, b)
	}
	return out, nil
}

func (f *Fakes) PageTokenKey() []byte { return f.Key }

// Controller records follower commands.
type Controller struct {
	mu      sync.Mutex
	Paused  []netinfo.Chain
	Resumed []netinfo.Chain
	Err     error
}

func (c *Controller) PauseFollower(chain netinfo.Chain) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Paused = append(c.Paused, chain)
	return c.Err
}

func (c *Controller) ResumeFollower(chain netinfo.Chain) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Resumed = append(c.Resumed, chain)
	return c.Err
}

// FollowerStatus is a follower's status as the node reports it.
func FollowerStatus(chain netinfo.Chain, running, paused bool) follower.Status {
	return follower.Status{Chain: chain, ChainName: chain.String(), Running: running, Paused: paused}
}

// Chain IDs of the public networks.
const (
	PChainID      = "11111111111111111111111111111111LpoYY"
	FujiXChain    = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm"
	FujiCChain    = "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp"
	MainnetXChain = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"
)
