package sigagg

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	platformapi "github.com/ava-labs/avalanchego/vms/platformvm/api"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"
)

// sigAggOlderPChainHeight: pChainHeight picks the validator set of that
// height even when the set has changed since. A delegation makes one
// validator three times as heavy as each other one (1 MAVAX staked, 2
// delegated: the most a local network allows on 1 MAVAX). A message asked
// at the height before it needs 4 of the 5 equal validators for 67%, and
// verifies against the set at exactly that height; asked at the height
// after it, the heaviest and two others are enough (5 of 7 parts).
func sigAggOlderPChainHeight(t *testing.T, ctx context.Context, on *offChainNet) {
	platform := platformvm.NewClient(on.uris[0])
	before, err := platform.GetHeight(ctx)
	require.NoError(t, err)

	heavy := on.n.Network().Nodes[1].NodeID
	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	owner := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{genesis.EWOQKey.Address()}}
	w, err := primary.MakePWallet(ctx, on.uris[0], kc, primary.WalletConfig{})
	require.NoError(t, err)
	now := time.Now()
	tx, err := w.IssueAddPermissionlessDelegatorTx(&txs.SubnetValidator{
		Validator: txs.Validator{NodeID: heavy, Start: uint64(now.Unix()), End: uint64(now.Add(25 * time.Hour).Unix()), Wght: 2 * units.MegaAvax},
		Subnet:    constants.PrimaryNetworkID,
	}, w.Builder().Context().AVAXAssetID, owner, common.WithContext(ctx), common.WithPollFrequency(10*time.Millisecond))
	require.NoError(t, err, "delegating to %s", heavy)
	after, err := platform.GetHeight(ctx)
	require.NoError(t, err)
	t.Logf("delegation %s accepted: P-chain height %d before, %d after", tx.ID(), before, after)
	// The sets are read from another node, which may accept the block a
	// moment later.
	waitPChainHeight(t, ctx, on.uris[1], after)

	// Ground truth: the node's own validator sets at both heights.
	other := platformvm.NewClient(on.uris[1])
	old, err := other.GetValidatorsAt(ctx, constants.PrimaryNetworkID, platformapi.Height(before))
	require.NoError(t, err)
	current, err := other.GetValidatorsAt(ctx, constants.PrimaryNetworkID, platformapi.Height(after))
	require.NoError(t, err)
	require.Equal(t, 3*old[heavy].Weight, current[heavy].Weight, "the delegation tripled %s's weight", heavy)

	msg := on.take(t, 1)[0]
	r := on.aggregate(t, ctx, messageRequest(msg, map[string]any{"pChainHeight": before}))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, strconv.FormatUint(before, 10), r.Header.Get("X-Pchain-Height"))
	require.Equal(t, sigAggNodes-1, on.verify(t, ctx, r, msg, 67), "4 of 5 equal validators at the older height")

	r = on.aggregate(t, ctx, messageRequest(msg, map[string]any{"pChainHeight": after}))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	require.Equal(t, strconv.FormatUint(after, 10), r.Header.Get("X-Pchain-Height"))
	require.Equal(t, 3, on.verify(t, ctx, r, msg, 67), "the heavy validator and two others after the delegation")
}
