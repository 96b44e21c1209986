package primary

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/logging"

	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/pchain"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/indexer/xchain"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// benchPrimaryBlocks is how many P- and X-chain blocks the primary catch-up
// benchmark needs (AVADATA_BENCH_PX_BLOCKS). Each is one BaseTx the wallet
// waits for, so making them takes about a minute per thousand.
func benchPrimaryBlocks() uint64 {
	if n, err := strconv.ParseUint(os.Getenv("AVADATA_BENCH_PX_BLOCKS"), 10, 64); err == nil && n > 0 {
		return n
	}
	return 500
}

// BenchmarkPrimaryCatchUp compares the P- and X-chain followers' catch-up
// (index API ranges, parse, decode, ordered Badger writes of txs, UTXOs,
// address and balance rows with the cursor) with only fetching and parsing
// the same blocks with the same parallelism from the same node in the same
// run: ratio is the follower's rate over fetch-only's. The CPU each costs
// per block, in this process and in the node, says where the time goes.
func BenchmarkPrimaryCatchUp(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	client := nodeapi.New(env.URI(b))
	issuer := harness.NewTxIssuer(b, ctx, env.URI(b))
	want := benchPrimaryBlocks()

	psrc, err := pchain.NewSource(client, upgradesOfLocal())
	if err != nil {
		b.Fatal(err)
	}
	xsrc, err := xchain.NewSource(client.BlockIndex(netinfo.X))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		chain netinfo.Chain
		src   follower.Source[*pdata.Block]
		issue func(n int)
	}{
		{netinfo.P, psrc, func(n int) { issuer.IssueP(b, ctx, n) }},
		{netinfo.X, xsrc, func(n int) { issuer.IssueX(b, ctx, n) }},
	} {
		head, err := c.src.Head(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if head < want {
			c.issue(int(want - head))
			if head, err = c.src.Head(ctx); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(c.chain.String(), func(b *testing.B) {
			// Fetch-only and follower runs alternate, so that whatever
			// else the shared machine does weighs on both alike.
			fetch, follow := &harness.CPUMeter{Node: env.Net(b).PID()}, &harness.CPUMeter{Node: env.Net(b).PID()}
			b.StopTimer()
			for range b.N {
				fetch.Start(b)
				harness.FetchAll(b, ctx, c.src, head)
				fetch.Stop(b)
				harness.CatchUpOnce(b, ctx, c.chain, c.src, head, func(st *store.Store) follower.Sink[*pdata.Block] {
					st.SetPrimaryNetwork(primaryNetworkOfLocal(b))
					return st.PrimaryWriter(c.chain)
				}, follow)
			}
			blocks := uint64(b.N) * head
			fetch.Report(b, "fetch-only", blocks)
			follow.Report(b, "follower", blocks)
			b.ReportMetric(fetch.Wall.Seconds()/follow.Wall.Seconds(), "ratio")
		})
	}
}

func upgradesOfLocal() upgrade.Config { return upgrade.GetConfig(constants.LocalID) }

// primaryNetworkOfLocal is what the VM tells the store of the local network:
// the primary chains' IDs and the P- and X-chain genesis blocks.
func primaryNetworkOfLocal(b testing.TB) store.PrimaryNetwork {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	infoClient := info.NewClient(env.URI(b))
	var chainIDs [2]ids.ID
	for i, alias := range []string{"X", "C"} {
		id, err := infoClient.GetBlockchainID(ctx, alias)
		if err != nil {
			b.Fatal(err)
		}
		chainIDs[i] = id
	}
	net := netinfo.Info{NetworkID: constants.LocalID, Chains: netinfo.Primary(constants.LocalID, chainIDs[0], chainIDs[1])}
	return indexer.PrimaryNetwork(ctx, nodeapi.New(env.URI(b)), net, upgradesOfLocal(), logging.NoLog{})
}
