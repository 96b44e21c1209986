package evm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// Deployments by a deployer, the chains an address is active on, and the
// service's health checks, against the node.

// nodeDeployment is a contract creation as the node's receipts and traces
// show it.
type nodeDeployment struct {
	tx       *truth.EVMTx
	contract common.Address
	factory  *common.Address // the creating contract of a contract-made one
}

// deploymentsBy lists the contracts deployer made, as the node has them,
// newest first (block, tx index, then contract address, descending): the
// contracts of the successful creation txs it sent, the contracts its txs
// had factories make (trace frames that did not revert), and, for a
// factory, the contracts it made.
func deploymentsBy(txs []*truth.EVMTx, deployer common.Address) []nodeDeployment {
	var out []nodeDeployment
	for _, x := range txs {
		if x.Receipt.Status != 1 {
			continue
		}
		if x.To == nil && x.Receipt.ContractAddress != nil && x.From == deployer {
			out = append(out, nodeDeployment{tx: x, contract: *x.Receipt.ContractAddress})
		}
		for _, in := range x.Internal {
			if truth.IsCreation(in.Type) && !in.Reverted && in.To != (common.Address{}) && (x.From == deployer || in.From == deployer) {
				factory := in.From
				out = append(out, nodeDeployment{tx: x, contract: in.To, factory: &factory})
			}
		}
	}
	slices.SortFunc(out, func(a, b nodeDeployment) int {
		switch {
		case a.tx.Block.Number != b.tx.Block.Number:
			return cmpDesc(a.tx.Block.Number, b.tx.Block.Number)
		case a.tx.Index != b.tx.Index:
			return cmpDesc(a.tx.Index, b.tx.Index)
		}
		return -bytes.Compare(a.contract[:], b.contract[:])
	})
	return out
}

func cmpDesc(a, b uint64) int {
	if a > b {
		return -1
	}
	return 1
}

// TestEVMContractDeployments lists the contracts deployed by the EOA that
// deployed the activity's contracts (and had the factory make children), by
// the factory, and by an account that deployed none, two a page, and
// compares them with the node's receipts and traces; each entry is the
// contract's metadata with its deployment.
func TestEVMContractDeployments(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		kinds := map[common.Address]string{f.erc20: "ERC-20", f.erc721: "ERC-721", f.erc1155: "ERC-1155"}
		for addr := range kinds {
			kinds[addr] = f.waitContractMetadata(t, ctx)[addr].ErcType
		}
		all := f.truth.All()
		for _, deployer := range []common.Address{f.ewoq.Address(), f.factory, f.user.Address()} {
			want := deploymentsBy(all, deployer)
			switch deployer {
			case f.ewoq.Address():
				require.GreaterOrEqual(t, len(want), len(f.deployments)+len(f.children), "%s: the node's deployments by EWOQ", f.name())
			case f.factory:
				require.Len(t, want, len(f.children), "%s: the node's deployments by the factory", f.name())
			default:
				require.Empty(t, want)
			}
			u := f.evmURL("/contracts/"+deployer.Hex()+"/deployments", url.Values{"pageSize": {"2"}})
			got := harness.ListAll[dataapi.Contract](t, ctx, u, "contracts", 2)
			require.Len(t, got, len(want), "%s: deployments by %s: %+v", f.name(), deployer, got)
			for i, w := range want {
				what := fmt.Sprintf("%s: deployments by %s [%d]", f.name(), deployer, i)
				g := got[i]
				requireAddress(t, w.contract, g.Address, what+" address")
				if kind, ok := kinds[w.contract]; ok {
					require.Equal(t, kind, g.ErcType, what+" ercType")
				}
				require.NotNil(t, g.DeploymentDetails, what+" deploymentDetails")
				require.Equal(t, w.tx.Hash, common.HexToHash(g.DeploymentDetails.TxHash), what+" txHash")
				requireAddress(t, w.tx.From, g.DeploymentDetails.DeployerAddress, what+" deployerAddress")
				if w.factory == nil {
					require.Nil(t, g.DeploymentDetails.DeployerContractAddress, what+" deployerContractAddress")
				} else {
					require.NotNil(t, g.DeploymentDetails.DeployerContractAddress, what+" deployerContractAddress")
					requireAddress(t, *w.factory, *g.DeploymentDetails.DeployerContractAddress, what+" deployerContractAddress")
				}
			}
		}

		_, token := harness.ListPage[dataapi.Contract](t, ctx, f.evmURL("/contracts/"+f.ewoq.Address().Hex()+"/deployments", url.Values{"pageSize": {"1"}}), "contracts")
		require.NotEmpty(t, token)
		for _, c := range []struct{ name, url, mentions string }{
			{"malformed address", f.evmURL("/contracts/0x1234/deployments", nil), "address"},
			{"unknown chain", f.base + "/v1/chains/999999/contracts/" + f.factory.Hex() + "/deployments", "chainId"},
			{"pageSize 0", f.evmURL("/contracts/"+f.factory.Hex()+"/deployments", url.Values{"pageSize": {"0"}}), "pageSize"},
			{"pageSize 101", f.evmURL("/contracts/"+f.factory.Hex()+"/deployments", url.Values{"pageSize": {"101"}}), "pageSize"},
			{"page token of another deployer", f.evmURL("/contracts/"+f.factory.Hex()+"/deployments", url.Values{"pageToken": {token}}), "pageToken"},
		} {
			r := harness.GetWithRetryAfter(t, ctx, c.url)
			t.Run(c.name, func(t *testing.T) { requireAPIError(t, r, http.StatusBadRequest, false, c.mentions) })
		}
	})
}

// TestEVMAddressChains asks, on both paths, which chains each account of
// the activity is active on (the funded accounts on both, each chain's
// fresh recipients on theirs, an unused address on none) and compares with
// the transactions the node has for it on each chain; every entry is the
// chain as GET /v1/chains shows it.
func TestEVMAddressChains(t *testing.T) {
	fixtures := evmFixtures(t)
	ctx, cancel := context.WithTimeout(context.Background(), evmTestTimeout)
	defer cancel()
	for _, f := range fixtures {
		f.sync(t, ctx)
	}
	var supported struct {
		Chains []json.RawMessage `json:"chains"`
	}
	harness.GetOK(t, ctx, env.Base(t)+"/v1/chains", &supported)
	chainEntry := map[string]json.RawMessage{}
	var order []string
	for _, raw := range supported.Chains {
		var c dataapi.Chain
		require.NoError(t, json.Unmarshal(raw, &c))
		chainEntry[c.ChainID] = raw
		order = append(order, c.ChainID)
	}

	addrs := []common.Address{fixtures[0].ewoq.Address(), fixtures[0].user.Address(), common.HexToAddress("0x00000000000000000000000000000000000a7a7a")}
	for _, f := range fixtures {
		addrs = append(addrs, f.recipients[:]...)
	}
	for _, addr := range addrs {
		var want []string
		for _, id := range order {
			for _, f := range fixtures {
				if f.chainID() == id && len(f.truth.Involving(addr, 0, 0)) > 0 {
					want = append(want, id)
				}
			}
		}
		for _, path := range []string{"/v1/address/" + addr.Hex() + "/chains", "/v1/chains/address/" + addr.Hex()} {
			var body struct {
				IndexedChains []json.RawMessage `json:"indexedChains"`
			}
			harness.GetOK(t, ctx, env.Base(t)+path, &body)
			require.NotNil(t, body.IndexedChains, "GET %s: indexedChains is required", path)
			var got []string
			for _, raw := range body.IndexedChains {
				var c dataapi.Chain
				require.NoError(t, json.Unmarshal(raw, &c))
				got = append(got, c.ChainID)
				require.JSONEq(t, string(chainEntry[c.ChainID]), string(raw), "GET %s: chain %s as GET /v1/chains shows it", path, c.ChainID)
			}
			require.Equal(t, want, got, "GET %s", path)
		}
	}
	require.Len(t, supported.Chains, len(fixtures))
	for _, path := range []string{"/v1/address/0x1234/chains", "/v1/chains/address/0x1234"} {
		requireAPIError(t, harness.GetWithRetryAfter(t, ctx, env.Base(t)+path), http.StatusBadRequest, false, "address")
	}
}

// healthResult is the HealthCheckResultDto avadata answers.
type healthResult struct {
	Status  string                          `json:"status"`
	Info    map[string]healthIndicatorReply `json:"info"`
	Error   map[string]healthIndicatorReply `json:"error"`
	Details map[string]healthIndicatorReply `json:"details"`
}

type healthIndicatorReply struct {
	Status        string  `json:"status"`
	Message       string  `json:"message"`
	IndexedHeight *uint64 `json:"indexedHeight"`
}

// waitServiceHealth polls a health route until it answers status, and
// returns that answer.
func waitServiceHealth(t *testing.T, ctx context.Context, path string, status int) healthResult {
	t.Helper()
	for {
		r := harness.Get(t, ctx, env.Base(t)+path)
		if r.Status == status {
			var res healthResult
			r.Decode(t, &res)
			return res
		}
		select {
		case <-ctx.Done():
			t.Fatalf("GET %s never answered %d: last %d %s", path, status, r.Status, r.Body)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// TestEVMHealthChecks reads data-health-check and live-check: with every
// follower healthy both are 200 "ok" with every followed chain of
// /v1/status up; with a follower paused through the admin JSON-RPC,
// data-health-check is a 503 "error" naming it, while live-check stays 200
// (a paused follower still serves what it indexed).
func TestEVMHealthChecks(t *testing.T) {
	evmFixtures(t)
	ctx, cancel := context.WithTimeout(context.Background(), evmTestTimeout)
	defer cancel()
	statuses := harness.AvadataStatus(t, ctx, env.Base(t))
	require.NotEmpty(t, statuses)
	for _, path := range []string{"/v1/health-check", "/v1/live-check"} {
		res := waitServiceHealth(t, ctx, path, http.StatusOK)
		require.Equal(t, "ok", res.Status, path)
		require.Empty(t, res.Error, path)
		for name, s := range statuses {
			d, ok := res.Details[name]
			require.True(t, ok, "%s: no indicator for follower %s: %+v", path, name, res)
			require.Equal(t, "up", d.Status, path)
			require.Equal(t, res.Info[name], d, path)
			require.NotNil(t, d.IndexedHeight, path)
			require.GreaterOrEqual(t, *d.IndexedHeight, s.IndexedHeight, "%s: %s indexed height", path, name)
		}
	}

	reply := harness.CallAvadata(t, ctx, env.Base(t), "avadata.pauseFollower", map[string]string{"chain": "P"})
	require.Nil(t, reply["error"], "%v", reply)
	defer harness.CallAvadata(t, context.Background(), env.Base(t), "avadata.resumeFollower", map[string]string{"chain": "P"})
	res := waitServiceHealth(t, ctx, "/v1/health-check", http.StatusServiceUnavailable)
	require.Equal(t, "error", res.Status)
	require.Equal(t, "down", res.Error["P"].Status, "%+v", res)
	require.Contains(t, res.Error["P"].Message, "follower P is stopped")
	require.Equal(t, res.Error["P"], res.Details["P"])
	require.NotContains(t, res.Info, "P")
	live := waitServiceHealth(t, ctx, "/v1/live-check", http.StatusOK)
	require.Equal(t, "up", live.Details["P"].Status, "a paused follower still serves its data")

	reply = harness.CallAvadata(t, ctx, env.Base(t), "avadata.resumeFollower", map[string]string{"chain": "P"})
	require.Nil(t, reply["error"], "%v", reply)
	require.Equal(t, "ok", waitServiceHealth(t, ctx, "/v1/health-check", http.StatusOK).Status)
}
