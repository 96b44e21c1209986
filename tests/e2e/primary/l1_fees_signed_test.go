package primary

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/nodeapi"
	"github.com/avadata/avadata/indexer/pchain"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// l1FeeValidation is an L1 validation the scenario funded once, at height.
type l1FeeValidation struct {
	id      ids.ID
	balance uint64
	height  uint64
}

// l1FeeNode is the node's L1 fee state after its last accepted P block.
type l1FeeNode struct {
	height   uint64
	accrued  uint64 // platformvm's accrued_validator_fees metric
	active   uint64 // active_l1_validators metric
	excess   uint64 // platform.getValidatorFeeState
	vals     []l1FeeValidation
	balances map[ids.ID]uint64 // getL1Validator, by validation
}

// checkL1FeesSigned checks the L1 validator fee state the P writer derives
// (l1ValidatorsAccruedFees, activeL1Validators on
// listPrimaryNetworkBlocksByNodeId) on the 2-node network after
// TestPrimaryL1WarpTxsSigned's L1 txs, against the node's states in snaps
// (the last one the tip):
//
//   - at each one's height, a store caught up in-process with the
//     plugin's own source, writer and network facts
//     (indexer.PrimaryNetwork: the node's fee config, upgrades and, this
//     genesis not being built in, the genesis time of its stakers) holds
//     the node's accrued fees and active count (its platformvm metrics,
//     set as each block is accepted), its excess
//     (platform.getValidatorFeeState) and, for each validation, balance at
//     funding − balance then (getL1Validator) = fees accrued since, or
//     for one that ran out, fees accrued since ≥ its balance;
//   - every P block listPrimaryNetworkBlocksByNodeId lists (signed ones)
//     shows what that store holds at its height.
func checkL1FeesSigned(t *testing.T, ctx context.Context, sn *harness.TwoNodes, snaps []l1FeeNode) {
	tipHeight := snaps[len(snaps)-1].height
	st := catchUpL1Store(t, ctx, sn.URI, tipHeight)
	reader := st.PrimaryReader(func(_ netinfo.Chain, b []byte) (*pdata.Tx, error) { return pchain.DecodeTx(b) })
	stateAt := func(h uint64) pdata.L1FeeState {
		t.Helper()
		b, ok, err := reader.Block(ctx, netinfo.P, h)
		require.NoError(t, err)
		require.True(t, ok, "P block %d in the store", h)
		require.NotNil(t, b.L1Fees, "P block %d (%s): no L1 fee state derived", h, b.Type)
		return *b.L1Fees
	}

	for _, node := range snaps {
		at := stateAt(node.height)
		t.Logf("P height %d: node accrued %d active %d excess %d balances %v; store %+v",
			node.height, node.accrued, node.active, node.excess, node.balances, at)
		require.Equal(t, node.accrued, at.AccruedFees, "accrued fees at P height %d (node metric)", node.height)
		require.Equal(t, node.active, at.ActiveL1Validators, "active L1 validators at P height %d (node metric)", node.height)
		require.Equal(t, node.excess, at.Excess, "excess at P height %d (getValidatorFeeState)", node.height)
		var active uint64
		for _, v := range node.vals {
			bal := node.balances[v.id]
			funded := stateAt(v.height)
			if bal == 0 {
				require.GreaterOrEqual(t, at.AccruedFees-funded.AccruedFees, v.balance,
					"validation %s: out of its balance %d funded at P height %d by %d", v.id, v.balance, v.height, node.height)
				continue
			}
			active++
			require.Equal(t, v.balance-bal, at.AccruedFees-funded.AccruedFees,
				"validation %s: balance %d at P height %d, %d at %d (getL1Validator) vs accrued fees %d → %d",
				v.id, v.balance, v.height, bal, node.height, funded.AccruedFees, at.AccruedFees)
		}
		require.Equal(t, active, at.ActiveL1Validators, "active L1 validators at P height %d vs getL1Validator balances", node.height)
	}

	// listPrimaryNetworkBlocksByNodeId: the signed P blocks, each as the
	// store has it.
	listed, afterConversion := 0, 0
	for _, nodeID := range sn.Net.NodeIDs() {
		for _, b := range listL1FeeBlocks(t, ctx, sn, nodeID, tipHeight) {
			want := stateAt(b.number)
			require.NotNil(t, b.L1ValidatorsAccruedFees, "P block %d: l1ValidatorsAccruedFees", b.number)
			require.NotNil(t, b.ActiveL1Validators, "P block %d: activeL1Validators", b.number)
			require.Equal(t, want.AccruedFees, *b.L1ValidatorsAccruedFees, "P block %d: l1ValidatorsAccruedFees", b.number)
			require.Equal(t, want.ActiveL1Validators, *b.ActiveL1Validators, "P block %d: activeL1Validators", b.number)
			listed++
			if b.number >= snaps[0].vals[0].height {
				afterConversion++
			}
		}
	}
	t.Logf("listPrimaryNetworkBlocksByNodeId: %d signed P blocks (%d from the conversion on) match the store", listed, afterConversion)
	require.Positive(t, afterConversion, "no signed P block from the conversion on")
}

// nodeL1Fees reads the node's L1 fee state, again until no block was
// accepted while reading.
func nodeL1Fees(t *testing.T, ctx context.Context, uri string, vals []l1FeeValidation) l1FeeNode {
	t.Helper()
	for attempt := 0; ; attempt++ {
		require.Less(t, attempt, 20, "the P-chain keeps moving")
		n := l1FeeNode{height: truth.Height(t, ctx, uri, "P"), vals: slices.Clone(vals), balances: map[ids.ID]uint64{}}
		metrics := nodeMetrics(t, ctx, uri)
		n.accrued, n.active = metrics["accrued_validator_fees"], metrics["active_l1_validators"]
		var feeState struct {
			Excess avajson.Uint64 `json:"excess"`
		}
		require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getValidatorFeeState", struct{}{}, &feeState))
		n.excess = uint64(feeState.Excess)
		stable := true
		for _, v := range vals {
			got := truth.GetL1Validator(t, ctx, uri, v.id)
			n.balances[v.id] = uint64(got.Balance)
			stable = stable && uint64(got.Height) == n.height
		}
		if stable && truth.Height(t, ctx, uri, "P") == n.height {
			return n
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// nodeMetrics returns the node's platformvm gauges whose names end in
// accrued_validator_fees or active_l1_validators (only the P-chain has
// them).
func nodeMetrics(t *testing.T, ctx context.Context, uri string) map[string]uint64 {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri+"/ext/metrics", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, "GET /ext/metrics")
	out := map[string]uint64{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			continue
		}
		name, _, _ := strings.Cut(fields[0], "{")
		for _, suffix := range []string{"accrued_validator_fees", "active_l1_validators"} {
			if strings.HasSuffix(name, suffix) {
				v, err := strconv.ParseFloat(fields[1], 64)
				require.NoError(t, err, "metric %s", line)
				_, dup := out[suffix]
				require.False(t, dup, "metric %s twice", suffix)
				out[suffix] = uint64(v)
			}
		}
	}
	require.NoError(t, sc.Err())
	require.Len(t, out, 2, "the node's L1 fee metrics: %v", out)
	return out
}

// catchUpL1Store catches the node's P-chain up to height into a store of
// its own, with the network facts the plugin would have.
func catchUpL1Store(t *testing.T, ctx context.Context, uri string, height uint64) *store.Store {
	t.Helper()
	infoClient := info.NewClient(uri)
	upgrades, err := infoClient.Upgrades(ctx)
	require.NoError(t, err, "info.upgrades")
	networkID, err := infoClient.GetNetworkID(ctx)
	require.NoError(t, err)
	var chainIDs [2]ids.ID
	for i, alias := range []string{"X", "C"} {
		chainIDs[i], err = infoClient.GetBlockchainID(ctx, alias)
		require.NoError(t, err)
	}
	net := indexer.PrimaryNetwork(ctx, nodeapi.New(uri),
		netinfo.Info{NetworkID: networkID, Chains: netinfo.Primary(networkID, chainIDs[0], chainIDs[1])},
		*upgrades, logging.NoLog{})
	require.NotNil(t, net.L1Fees, "the L1 fee rules of network %d (%s)", networkID, constants.NetworkName(networkID))
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	st.SetPrimaryNetwork(net)
	src, err := pchain.NewSource(nodeapi.New(uri), *upgrades)
	require.NoError(t, err)
	catchUpP(t, ctx, src, st, height)
	return st
}

// l1FeeBlock is what listPrimaryNetworkBlocksByNodeId shows of a block's L1
// fee state.
type l1FeeBlock struct {
	BlockNumber             string  `json:"blockNumber"`
	L1ValidatorsAccruedFees *uint64 `json:"l1ValidatorsAccruedFees"`
	ActiveL1Validators      *uint64 `json:"activeL1Validators"`
	number                  uint64
}

// listL1FeeBlocks lists the P blocks nodeID proposed up to head.
func listL1FeeBlocks(t *testing.T, ctx context.Context, sn *harness.TwoNodes, nodeID ids.NodeID, head uint64) []l1FeeBlock {
	t.Helper()
	q := url.Values{"pageSize": {"100"}}
	var all []l1FeeBlock
	for pages := 0; ; pages++ {
		require.Less(t, pages, 100, "P blocks of %s: paging does not end", nodeID)
		u := sn.Base + "/v1/networks/" + sn.Network + "/blockchains/" + chainAlias("P") + "/nodes/" + nodeID.String() + "/blocks?" + q.Encode()
		var page struct {
			Blocks        []l1FeeBlock `json:"blocks"`
			NextPageToken string       `json:"nextPageToken"`
		}
		harness.GetOK(t, ctx, u, &page)
		for _, b := range page.Blocks {
			n, err := strconv.ParseUint(b.BlockNumber, 10, 64)
			require.NoError(t, err, "blockNumber %q", b.BlockNumber)
			if b.number = n; n <= head {
				all = append(all, b)
			}
		}
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}
