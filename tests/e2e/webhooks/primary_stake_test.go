//go:build e2e

package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm/stakeable"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// delegationPeriod is the test delegation's length: past the e2e nodes'
// minimum stake duration.
const delegationPeriod = 25 * time.Second

// A P webhook watches a fresh address B that gets unlocked, platform-locked
// and stake-locked AVAX, delegates (the stake-locked part staying locked
// while staked) and is paid back when the delegation ends: each event's
// balance types are what the node's UTXOs and stake before and after call
// for, and the staked balance's threshold fires up at the delegation and
// down at its end.
func TestWebhooksPrimaryStakeAndLocks(t *testing.T) {
	require := require.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	r, key := newPNRun(t, ctx)
	uri, base := r.uri, env.Base(t)
	ewoqKC := secp256k1fx.NewKeychain(genesis.EWOQKey)
	ewoq, err := primary.MakePWallet(ctx, uri, ewoqKC, primary.WalletConfig{})
	require.NoError(err, "EWOQ P wallet")
	avaxID := ewoq.Builder().Context().AVAXAssetID
	r.assets[avaxID.String()] = pnAsset{symbol: "AVAX", denomination: 9}
	hook := createPrimaryHook(t, ctx, base, "P", constants.PlatformChainID, r.addrOn("P"),
		map[string]string{"balanceType": "unlockedStaked", "balanceThreshold": fmt.Sprint(20 * units.Avax)})
	secret := harness.WebhookSecret(t, ctx, base)

	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
	ownerB := secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}
	lockedB := ownerB
	lockedB.Locktime = uint64(time.Now().Add(time.Hour).Unix())
	tx, err := ewoq.IssueBaseTx([]*avax.TransferableOutput{
		{Asset: avax.Asset{ID: avaxID}, Out: &secp256k1fx.TransferOutput{Amt: 27 * units.Avax, OutputOwners: ownerB}},
		{Asset: avax.Asset{ID: avaxID}, Out: &secp256k1fx.TransferOutput{Amt: units.Avax, OutputOwners: lockedB}},
		{Asset: avax.Asset{ID: avaxID}, Out: &stakeable.LockOut{Locktime: lockedB.Locktime,
			TransferableOut: &secp256k1fx.TransferOutput{Amt: units.Avax, OutputOwners: ownerB}}},
	}, opts...)
	require.NoError(err, "P BaseTx to B")
	r.record("P", "BaseTx", tx.ID())

	bKC := secp256k1fx.NewKeychain(key)
	b, err := primary.MakePWallet(ctx, uri, bKC, primary.WalletConfig{})
	require.NoError(err, "B's P wallet")
	end := time.Now().Add(delegationPeriod)
	tx, err = b.IssueAddPermissionlessDelegatorTx(&txs.SubnetValidator{
		Validator: txs.Validator{NodeID: longValidator(t, ctx, uri), End: uint64(end.Unix()), Wght: 25 * units.Avax},
		Subnet:    constants.PrimaryNetworkID,
	}, avaxID, &ownerB, opts...)
	require.NoError(err, "B delegates")
	delegation := tx.ID()
	r.record("P", "AddPermissionlessDelegatorTx", delegation)
	r.record("P", "RewardValidatorTx", r.waitRewardOf(delegation))

	// The funding (three balance types), the delegation (threshold up) and
	// its end (threshold down).
	r.verify(hook, avaxID, 5, harness.InstallSDK(t), secret)
}

// longValidator is a primary-network validator of the node's network that
// validates for at least another hour.
func longValidator(t *testing.T, ctx context.Context, uri string) ids.NodeID {
	t.Helper()
	var reply struct {
		Validators []struct {
			NodeID  ids.NodeID     `json:"nodeID"`
			EndTime avajson.Uint64 `json:"endTime"`
		} `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators", map[string]any{}, &reply))
	for _, v := range reply.Validators {
		if time.Unix(int64(v.EndTime), 0).After(time.Now().Add(time.Hour)) {
			return v.NodeID
		}
	}
	require.FailNow(t, "no validator lasting an hour")
	return ids.EmptyNodeID
}

// waitRewardOf waits for the RewardValidatorTx that ends staking tx
// staker (platform.getTx names the staking tx as its "txID") and returns
// its ID.
func (r *pnRun) waitRewardOf(staker ids.ID) ids.ID {
	t := r.t
	t.Helper()
	from := r.cursor["P"] + 1
	for {
		head := truth.Height(t, r.ctx, r.uri, "P")
		for h := from; h <= head; h++ {
			for _, id := range truth.SnowmanBlockTxs(t, r.ctx, r.uri, "P", h).TxIDs {
				var reply struct {
					Tx json.RawMessage `json:"tx"`
				}
				require.NoError(t, truth.Call(r.ctx, r.uri+"/ext/bc/P", "platform.getTx",
					map[string]any{"txID": id, "encoding": "json"}, &reply))
				if strings.Contains(string(reply.Tx), `"txID":"`+staker.String()+`"`) {
					return id
				}
			}
		}
		from = head + 1
		select {
		case <-r.ctx.Done():
			require.FailNow(t, "no reward tx for "+staker.String())
		case <-time.After(time.Second):
		}
	}
}
