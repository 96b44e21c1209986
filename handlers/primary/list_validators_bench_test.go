package primary

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/serve"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// listValidators over 2,000 validators of 2,000 nodes (a quarter of them
// over, each with three delegators) in a real index, with the node's 1,500
// current validators from the fake: the default listing, a filtered one and
// sorts by live state, one page of 10 each. Every request reads the whole
// validator set from the index (the live set is reused, as on a node).

const (
	benchListValidators = 2_000
	benchGenesisTime    = handlertest.FixtureNow - 1_000_000
)

func benchValidatorsAPI(b *testing.B) http.Handler {
	b.Helper()
	s, err := store.Open(b.TempDir(), logging.NoLog{})
	require.NoError(b, err)
	b.Cleanup(func() { _ = s.Close() })
	s.SetPrimaryNetwork(store.PrimaryNetwork{
		ChainOf:     func(id ids.ID) (netinfo.Chain, bool) { return netinfo.P, id == ids.Empty },
		IDOf:        func(netinfo.Chain) ids.ID { return ids.Empty },
		GenesisTime: benchGenesisTime,
	})
	fakes := handlertest.NewFakes()
	u64 := func(n uint64) *uint64 { return &n }
	var blocks []*pdata.Block
	id := func(tag byte, n int) ids.ID { return ids.ID{tag, byte(n), byte(n >> 8), 0xBE} }
	owner := handlertest.Owners(handlertest.PAlice)
	for n := range benchListValidators {
		node := ids.NodeID{byte(n), byte(n >> 8), 0xBE}
		start, end := int64(benchGenesisTime+n), int64(handlertest.FixtureNow+1_000_000+n)
		if n%4 == 0 {
			end = handlertest.FixtureNow - 10 // over
		}
		v := &pdata.Tx{ID: id('v', n), Type: "AddPermissionlessValidatorTx", Staker: &pdata.Staker{NodeID: node,
			Start: start, End: end, Weight: 2_000_000_000_000 + uint64(n), DelegationShares: 20_000 + uint32(n*10),
			RewardsOwner: owner, DelegationRewardsOwner: owner}}
		txs := []*pdata.Tx{v}
		for d := range 3 {
			txs = append(txs, &pdata.Tx{ID: id(byte('d'+d), n), Type: "AddPermissionlessDelegatorTx", Staker: &pdata.Staker{
				Delegator: true, NodeID: node, Start: start + 1, End: end - 1, Weight: 25_000_000_000, RewardsOwner: owner}})
		}
		blocks = append(blocks, &pdata.Block{Number: uint64(n + 1), ID: id('b', n), Timestamp: start,
			Type: "BanffStandardBlock", Txs: txs})
		if n%4 != 0 {
			uptime := float32(80 + n%20)
			fakes.Platform.Validators = append(fakes.Platform.Validators, platformvm.ClientPermissionlessValidator{
				ClientStaker:    platformvm.ClientStaker{TxID: v.ID, NodeID: node, Weight: v.Staker.Weight},
				Uptime:          &uptime,
				PotentialReward: u64(1_000), DelegatorCount: u64(3), DelegatorWeight: u64(75_000_000_000),
			})
		}
	}
	require.NoError(b, s.PrimaryWriter(netinfo.P).Apply(context.Background(), blocks, time.Now()))
	reader := s.PrimaryReader(nil)
	fakes.Staking = nil
	cfg := handlertest.Config()
	cfg.Clock = handlertest.NewClock().Now
	srv := newTestServer(serve.NewCore(cfg, fakes, nil), fakes)
	srv.staking = reader
	h, err := serve.New(cfg, srv.routes(), nil, prometheus.NewRegistry())
	require.NoError(b, err)
	return h
}

func BenchmarkListValidators2000(b *testing.B) {
	srv := benchValidatorsAPI(b)
	for _, c := range []struct{ name, query string }{
		{"default", ""},
		{"active", "validationStatus=active"},
		{"filters", "validationStatus=active&minFeePercentage=2.5&minTimeRemaining=1000&minUptimePerformance=90&minDelegationCapacity=1"},
		{"nodeIdSubstring", "nodeIds=" + ids.NodeID{5, 0, 0xBE}.String()[7:12]},
		{"sortByUptime", "sortBy=uptimePerformance"},
		{"sortByCapacityAsc", "sortBy=delegationCapacity&sortOrder=asc"},
	} {
		b.Run(c.name, func(b *testing.B) {
			path := listValidatorsPath + "?" + c.query
			for range b.N {
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://node"+path, nil))
				if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"txHash"`) {
					b.Fatalf("%d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
