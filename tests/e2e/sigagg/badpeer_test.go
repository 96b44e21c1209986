package sigagg

import (
	"context"
	"encoding/hex"
	"net/http"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/api/health"
	"github.com/ava-labs/avalanchego/api/info"
	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/set"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	platformapi "github.com/ava-labs/avalanchego/vms/platformvm/api"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/aggregator"
	"github.com/avadata/avadata/scripts/localnet/multinode"
	"github.com/avadata/avadata/tests/badpeer"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// TestSigAggBadPeer: one of five equal validators is no avalanchego node
// but a peer in this process (tests/badpeer) holding that validator's
// staking TLS key and BLS key, which answers every signature request with
// its key's signature over another message. The aggregator must leave it
// out and still reach a 67% quorum from the four honest nodes, and tell
// why when the quorum needs it.
func TestSigAggBadPeer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	sn, bad := startBadPeerNet(t, ctx)

	// Accepted blocks give fresh messages that every honest validator signs.
	began := time.Now()
	var blocks []common.Hash
	for range 3 {
		r, err := sn.evm.SendAndWait(ctx, evmtest.Tx{To: harness.Ptr(sn.evm.Address()), Value: harness.Ether(0)})
		require.NoError(t, err)
		blocks = append(blocks, r.BlockHash)
	}
	sn.waitCChainHeight(t, ctx, uint64(len(blocks)))
	t.Logf("%d C-chain blocks accepted by every node in %v", len(blocks), time.Since(began).Round(time.Millisecond))

	t.Run("QuorumWithoutIt", func(t *testing.T) {
		invalidBefore := sn.invalidSignatureReplies(t, ctx)
		msg := sn.blockHashMessage(t, blocks[0])
		r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes()), "quorumPercentage": 67})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, 4, sn.verify(t, ctx, r, msg, 67))
		require.NotContains(t, sn.signerNodeIDs(t, ctx, r), bad.NodeID(), "the bad signature is left out")
		// All five are asked at once; the bad answer may come after the
		// honest four made the quorum, and is counted all the same.
		requireAsked(t, bad, msg)
		for deadline := time.Now().Add(10 * time.Second); sn.invalidSignatureReplies(t, ctx) <= invalidBefore; {
			require.True(t, time.Now().Before(deadline), "the plugin's invalid-signature count never went up")
			time.Sleep(100 * time.Millisecond)
		}
	})
	t.Run("BufferNeedsIt", func(t *testing.T) {
		// The buffer asks for the bad peer's 20% too; its signature is left
		// out, and the quorum without it is enough (a buffer is only tried).
		msg := sn.blockHashMessage(t, blocks[1])
		r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes()),
			"quorumPercentage": 67, "quorumPercentageBuffer": 33})
		require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
		require.Equal(t, 4, sn.verify(t, ctx, r, msg, 67))
		require.NotContains(t, sn.signerNodeIDs(t, ctx, r), bad.NodeID())
		requireAsked(t, bad, msg)
	})
	t.Run("FullQuorumRefused", func(t *testing.T) {
		invalidBefore := sn.invalidSignatureReplies(t, ctx)
		msg := sn.blockHashMessage(t, blocks[2])
		start := time.Now()
		r := sn.aggregate(t, ctx, map[string]any{"message": hex.EncodeToString(msg.Bytes()), "quorumPercentage": 100})
		elapsed := time.Since(start)
		harness.RequireErrorBody(t, r, http.StatusBadRequest, "quorum not reached")
		require.Contains(t, string(r.Body), "the quorum needs 100%")
		require.Contains(t, string(r.Body), "1 validator(s) holding 20% answered with an invalid signature")
		require.NotContains(t, string(r.Body), "did not answer in time")
		require.NotContains(t, string(r.Body), "could not be reached")
		require.Less(t, elapsed, aggregator.DefaultTimeout, "answered once the quorum was impossible, not when time ran out")
		requireAsked(t, bad, msg)
		require.Greater(t, sn.invalidSignatureReplies(t, ctx), invalidBefore)
		t.Logf("impossible quorum answered in %v: %s", elapsed, r.Body)
	})
}

// startBadPeerNet starts five validator identities: four avalanchego
// nodes, avadata on the first, and the bad peer as the fifth, which the
// nodes have become healthy without. It returns once the nodes and the
// aggregator are connected to the bad peer.
func startBadPeerNet(t *testing.T, ctx context.Context) (*sigAggNet, *badpeer.Peer) {
	t.Helper()
	began := time.Now()
	n := harness.StartMultiNode(t, ctx, multinode.TmpnetConfig{
		Nodes:         sigAggNodes,
		ExternalNodes: 1,
		ChainNodes:    1,
		ChainConfig:   harness.ChainConfig(),
	})
	uris := n.URIs()
	require.Len(t, uris, sigAggNodes-1)
	t.Logf("%d nodes up and healthy without the fifth validator in %s, dir %s", len(uris),
		time.Since(began).Round(time.Millisecond), n.Dir())

	external, err := n.ExternalNodes()
	require.NoError(t, err)
	require.Len(t, external, 1)
	bad, err := badpeer.Start(badpeer.Config{
		NetworkID:   88888,
		StakingKey:  external[0].StakingKey,
		StakingCert: external[0].StakingCert,
		SignerKey:   external[0].SignerKey,
	})
	require.NoError(t, err)
	t.Cleanup(func() {
		closeCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		require.NoError(t, bad.Close(closeCtx))
	})
	require.Equal(t, external[0].NodeID, bad.NodeID())
	for _, node := range n.Network().Nodes {
		bad.Connect(node.NodeID, node.StakingAddress)
	}

	sn := &sigAggNet{n: n, uris: uris,
		url: uris[0] + "/ext/bc/" + n.ChainID().String() + "/v1/signatureAggregator/network-88888/aggregateSignatures"}
	sn.cChainID, err = info.NewClient(uris[0]).GetBlockchainID(ctx, "C")
	require.NoError(t, err)
	sn.evm, err = evmtest.Dial(ctx, uris[0]+"/ext/bc/C/rpc", genesis.EWOQKey)
	require.NoError(t, err)
	t.Cleanup(sn.evm.Close)

	// The nodes take it for the validator: the P-chain reports it
	// connected, and the host lists it with the IP it signed.
	deadline := time.Now().Add(2 * time.Minute)
	for _, uri := range uris {
		for !badPeerConnected(t, ctx, uri, bad) {
			require.True(t, time.Now().Before(deadline), "%s never took the bad peer for a connected validator", uri)
			time.Sleep(200 * time.Millisecond)
		}
	}
	peers, err := info.NewClient(uris[0]).Peers(ctx, []ids.NodeID{bad.NodeID()})
	require.NoError(t, err)
	require.Len(t, peers, 1)
	require.Equal(t, bad.Addr(), peers[0].PublicIP, "the host knows the bad peer by the IP it signed")
	// The aggregator learns it from the host, and dials it.
	for sn.connectedPercent(t, ctx) != 100 {
		require.True(t, time.Now().Before(deadline), "the aggregator never connected to every validator (%.1f%%)", sn.connectedPercent(t, ctx))
		time.Sleep(500 * time.Millisecond)
	}
	for _, uri := range uris {
		_, err := health.AwaitHealthy(ctx, health.NewClient(uri), time.Second, nil)
		require.NoError(t, err, "%s healthy with the bad peer connected", uri)
	}
	t.Logf("bad peer %s at %s connected to the nodes and the aggregator %s after start",
		bad.NodeID(), bad.Addr(), time.Since(began).Round(time.Millisecond))
	return sn, bad
}

// badPeerConnected reports whether the node at uri has the bad peer as a
// connected primary network validator (platform.getCurrentValidators).
func badPeerConnected(t *testing.T, ctx context.Context, uri string, bad *badpeer.Peer) bool {
	t.Helper()
	vdrs, err := platformvm.NewClient(uri).GetCurrentValidators(ctx, constants.PrimaryNetworkID, []ids.NodeID{bad.NodeID()})
	require.NoError(t, err)
	require.Len(t, vdrs, 1, "the fifth identity is a genesis validator")
	return vdrs[0].Connected != nil && *vdrs[0].Connected
}

// requireAsked waits until the bad peer has answered a request for msg.
func requireAsked(t *testing.T, bad *badpeer.Peer, msg *avalancheWarp.UnsignedMessage) {
	t.Helper()
	require.Eventually(t, func() bool { return bad.SignatureRequests(msg.ID()) > 0 }, 10*time.Second, 50*time.Millisecond,
		"the bad peer was never asked to sign %s", msg.ID())
}

// signerNodeIDs are the nodes of the validators whose bits the signed
// message of a 200 reply sets, in the primary network's canonical
// validator set at the height the reply names.
func (sn *sigAggNet) signerNodeIDs(t *testing.T, ctx context.Context, r harness.Reply) []ids.NodeID {
	t.Helper()
	signed := signedMessage(t, r)
	sig, ok := signed.Signature.(*avalancheWarp.BitSetSignature)
	require.True(t, ok, "a bit-set signature")
	bits := set.BitsFromBytes(sig.Signers)
	height, err := strconv.ParseUint(r.Header.Get("X-Pchain-Height"), 10, 64)
	require.NoError(t, err)
	vdrs, err := platformvm.NewClient(sn.uris[1]).GetValidatorsAt(ctx, constants.PrimaryNetworkID, platformapi.Height(height))
	require.NoError(t, err)
	canonical, err := validators.FlattenValidatorSet(vdrs)
	require.NoError(t, err)
	var out []ids.NodeID
	for i, v := range canonical.Validators {
		if bits.Contains(i) {
			out = append(out, v.NodeIDs...)
		}
	}
	return out
}

var invalidSignatureRepliesLine = regexp.MustCompile(`(?m)^\S*_vm_sigagg_replies_total\{[^}]*result="invalid_signature"[^}]*\} (\S+)$`)

// invalidSignatureReplies reads the plugin's count of replies whose
// signature did not verify from the host node's metrics.
func (sn *sigAggNet) invalidSignatureReplies(t *testing.T, ctx context.Context) float64 {
	t.Helper()
	r := harness.Get(t, ctx, sn.uris[0]+"/ext/metrics")
	require.Equal(t, http.StatusOK, r.Status)
	var total float64
	for _, m := range invalidSignatureRepliesLine.FindAllStringSubmatch(string(r.Body), -1) {
		v, err := strconv.ParseFloat(m[1], 64)
		require.NoError(t, err)
		total += v
	}
	return total
}
