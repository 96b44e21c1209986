package e2e

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api"
	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/stretchr/testify/require"
)

// delegateBriefly delegates EWOQ's AVAX to a genesis validator for a few
// seconds past the minimum staking period and waits until the node has
// rewarded it, so the chain holds a Banff proposal block (the
// RewardValidatorTx) and its commit block, with reward UTXOs that only the
// node's getRewardUTXOs shows. It returns the delegation tx ID.
func delegateBriefly(t *testing.T, ctx context.Context, x *txIssuer) ids.ID {
	t.Helper()
	platform := platformvm.NewClient(x.uri)
	vals, err := platform.GetCurrentValidators(ctx, constants.PrimaryNetworkID, nil)
	require.NoError(t, err)
	var node ids.NodeID
	for _, v := range vals {
		if time.Unix(int64(v.EndTime), 0).After(time.Now().Add(time.Hour)) {
			node = v.NodeID
			break
		}
	}
	require.NotEqual(t, ids.EmptyNodeID, node, "no validator lasting an hour")
	p := x.wallet.P()
	// testNodeFlags sets a 20 s minimum staking period.
	end := time.Now().Add(25 * time.Second)
	owner := x.owner()
	tx, err := p.IssueAddPermissionlessDelegatorTx(&txs.SubnetValidator{
		Validator: txs.Validator{NodeID: node, Start: uint64(time.Now().Unix()), End: uint64(end.Unix()), Wght: 25 * units.Avax},
		Subnet:    constants.PrimaryNetworkID,
	}, p.Builder().Context().AVAXAssetID, &owner, x.opts(ctx)...)
	require.NoError(t, err, "delegating")
	for {
		rewards, err := platform.GetRewardUTXOs(ctx, &api.GetTxArgs{TxID: tx.ID()})
		require.NoError(t, err)
		if len(rewards) > 0 {
			return tx.ID()
		}
		select {
		case <-ctx.Done():
			t.Fatalf("delegation %s never rewarded: %v", tx.ID(), ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// primaryIndexSnapshot is what avadata serves of the P- and X-chain:
// every tx of each chain (page by page) and EWOQ's and the issuer's
// balances.
type primaryIndexSnapshot struct {
	Txs      map[string][]json.RawMessage
	Balances map[string]json.RawMessage
}

func primarySnapshot(t *testing.T, ctx context.Context, base string, addrs []string) primaryIndexSnapshot {
	t.Helper()
	snap := primaryIndexSnapshot{Txs: map[string][]json.RawMessage{}, Balances: map[string]json.RawMessage{}}
	for _, chain := range []string{"p-chain", "x-chain"} {
		list := base + "/v1/networks/" + primaryNetwork + "/blockchains/" + chain + "/transactions"
		snap.Txs[chain] = pageThrough(t, ctx, list, "transactions", 100)
		for _, addr := range addrs {
			q := url.Values{"addresses": {addr}, "blockTimestamp": {"4102444800"}} // 2100: the same "now" both times
			r := get(t, ctx, base+"/v1/networks/"+primaryNetwork+"/blockchains/"+chain+"/balances?"+q.Encode())
			require.Equal(t, 200, r.status, "%s balances of %s: %s", chain, addr, r.body)
			snap.Balances[chain+" "+addr] = json.RawMessage(r.body)
		}
	}
	return snap
}

// requireRewardListed checks that the P-chain listing holds the
// RewardValidatorTx of the staking tx: the catch-up went through a proposal
// block and its option.
func requireRewardListed(t *testing.T, snap primaryIndexSnapshot, staking ids.ID) {
	t.Helper()
	for _, raw := range snap.Txs["p-chain"] {
		var tx struct {
			TxType        string `json:"txType"`
			StakingTxHash string `json:"stakingTxHash"`
		}
		require.NoError(t, json.Unmarshal(raw, &tx))
		if tx.TxType == "RewardValidatorTx" && tx.StakingTxHash == staking.String() {
			return
		}
	}
	t.Fatalf("no RewardValidatorTx of %s among %d P-chain txs", staking, len(snap.Txs["p-chain"]))
}

// ewoqAndDest are the addresses whose balances the crash test compares.
func ewoqAndDest(t *testing.T, x *txIssuer) []string {
	t.Helper()
	hrp := constants.GetHRP(constants.LocalID)
	out := []string{}
	for _, a := range []ids.ShortID{genesis.EWOQKey.Address(), x.dest} {
		s, err := address.FormatBech32(hrp, a.Bytes())
		require.NoError(t, err)
		out = append(out, s)
	}
	return out
}
