package badpeer

import (
	"context"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/message"
	"github.com/ava-labs/avalanchego/network/p2p"
	"github.com/ava-labs/avalanchego/network/p2p/acp118"
	"github.com/ava-labs/avalanchego/network/peer"
	p2ppb "github.com/ava-labs/avalanchego/proto/pb/p2p"
	"github.com/ava-labs/avalanchego/proto/pb/sdk"
	"github.com/ava-labs/avalanchego/snow/networking/router"
	"github.com/ava-labs/avalanchego/staking"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

// TestBadPeer talks to the peer the way a node or an aggregator does,
// over a handshaken connection (avalanchego's test peer), and checks its
// answers with avalanchego's BLS verification.
func TestBadPeer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const networkID = 88888
	cert, key, err := staking.NewCertAndKeyBytes()
	require.NoError(t, err)
	sk, err := localsigner.New()
	require.NoError(t, err)
	bad, err := Start(Config{NetworkID: networkID, StakingKey: key, StakingCert: cert, SignerKey: sk.ToBytes()})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, bad.Close(context.Background())) })
	require.Equal(t, sk.PublicKey(), bad.PublicKey())

	inbound := make(chan *message.InboundMessage, 16)
	asker, err := peer.StartTestPeer(ctx, bad.Addr(), networkID, router.InboundHandlerFunc(
		func(_ context.Context, m *message.InboundMessage) { inbound <- m }))
	require.NoError(t, err)
	t.Cleanup(func() {
		asker.StartClose()
		_ = asker.AwaitClosed(context.Background())
	})
	require.NoError(t, asker.AwaitReady(ctx))
	require.Equal(t, bad.NodeID(), asker.ID(), "the peer's NodeID comes from the staking certificate it was given")

	creator, err := message.NewCreator(prometheus.NewRegistry(), constants.DefaultNetworkCompressionType, 10*time.Second)
	require.NoError(t, err)
	chainID := ids.GenerateTestID()
	receive := func() *message.InboundMessage {
		t.Helper()
		for {
			select {
			case m := <-inbound:
				switch m.Op {
				case message.AppResponseOp, message.AppErrorOp, message.ChitsOp:
					return m
				}
			case <-ctx.Done():
				t.Fatal("no answer from the bad peer")
			}
		}
	}

	t.Run("SignatureRequest", func(t *testing.T) {
		hash, err := payload.NewHash(ids.GenerateTestID())
		require.NoError(t, err)
		unsigned, err := warp.NewUnsignedMessage(networkID, chainID, hash.Bytes())
		require.NoError(t, err)
		req, err := proto.Marshal(&sdk.SignatureRequest{Message: unsigned.Bytes()})
		require.NoError(t, err)
		out, err := creator.AppRequest(chainID, 7, 10*time.Second, p2p.PrefixMessage(p2p.ProtocolPrefix(acp118.HandlerID), req))
		require.NoError(t, err)
		require.True(t, asker.Send(ctx, out))

		m := receive()
		resp, ok := m.Message.(*p2ppb.AppResponse)
		require.True(t, ok, "an AppResponse, not %s", m.Op)
		require.Equal(t, uint32(7), resp.RequestId)
		require.Equal(t, chainID[:], resp.ChainId)
		var sigResp sdk.SignatureResponse
		require.NoError(t, proto.Unmarshal(resp.AppBytes, &sigResp))
		sig, err := bls.SignatureFromBytes(sigResp.Signature)
		require.NoError(t, err, "a well-formed BLS signature")
		require.False(t, bls.Verify(sk.PublicKey(), sig, unsigned.Bytes()), "not a signature of the message asked for")
		require.True(t, bls.Verify(sk.PublicKey(), sig, WrongMessage(unsigned.Bytes())), "the key's signature of another message")
		require.Equal(t, 1, bad.SignatureRequests(unsigned.ID()))
	})
	t.Run("OtherAppRequest", func(t *testing.T) {
		out, err := creator.AppRequest(chainID, 8, 10*time.Second, p2p.PrefixMessage(p2p.ProtocolPrefix(p2p.TxGossipHandlerID), []byte{1}))
		require.NoError(t, err)
		require.True(t, asker.Send(ctx, out))
		m := receive()
		appErr, ok := m.Message.(*p2ppb.AppError)
		require.True(t, ok, "an AppError, not %s", m.Op)
		require.Equal(t, uint32(8), appErr.RequestId)
		require.Equal(t, p2p.ErrUnregisteredHandler.Code, appErr.ErrorCode)
	})
	t.Run("QueryEchoed", func(t *testing.T) {
		blkID := ids.GenerateTestID()
		out, err := creator.PullQuery(chainID, 9, 10*time.Second, blkID, 3)
		require.NoError(t, err)
		require.True(t, asker.Send(ctx, out))
		m := receive()
		chits, ok := m.Message.(*p2ppb.Chits)
		require.True(t, ok, "Chits, not %s", m.Op)
		require.Equal(t, uint32(9), chits.RequestId)
		require.Equal(t, blkID[:], chits.PreferredId)
	})
}
