package vm

import (
	"context"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/utils/crypto/bls/signer/localsigner"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pchain"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/store"
)

// The aggregator's validation index reads the P-chain index as the P
// writer filled it from real platformvm txs: the RegisterL1ValidatorTx
// that created a validation comes back byte for byte, with how far the
// index reaches.
func TestValidationIndex(t *testing.T) {
	st, err := store.Open(t.TempDir(), logging.NoLog{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	st.SetPrimaryNetwork(store.PrimaryNetwork{
		ChainOf: func(ids.ID) (netinfo.Chain, bool) { return 0, false },
		IDOf:    func(netinfo.Chain) ids.ID { return ids.Empty },
	})

	sk, err := localsigner.New()
	require.NoError(t, err)
	register, err := message.NewRegisterL1Validator(ids.GenerateTestID(), ids.GenerateTestNodeID(),
		[bls.PublicKeyLen]byte(bls.PublicKeyToCompressedBytes(sk.PublicKey())),
		uint64(time.Now().Add(time.Hour).Unix()), message.PChainOwner{}, message.PChainOwner{}, 10)
	require.NoError(t, err)
	call, err := payload.NewAddressedCall([]byte{0xad}, register.Bytes())
	require.NoError(t, err)
	unsigned, err := warp.NewUnsignedMessage(88888, ids.GenerateTestID(), call.Bytes())
	require.NoError(t, err)
	signed, err := warp.NewMessage(unsigned, &warp.BitSetSignature{})
	require.NoError(t, err)
	registerTx := &txs.Tx{Unsigned: &txs.RegisterL1ValidatorTx{Message: signed.Bytes()}}
	require.NoError(t, registerTx.Initialize(txs.Codec))
	indexed, err := pchain.DecodeTx(registerTx.Bytes())
	require.NoError(t, err)
	indexed.ID = registerTx.ID()
	require.NoError(t, st.PrimaryWriter(netinfo.P).Apply(context.Background(), []*pdata.Block{
		{Number: 1, ID: ids.ID{1}, Timestamp: 2000, Type: "BanffStandardBlock", Txs: []*pdata.Tx{indexed}},
		{Number: 2, ID: ids.ID{2}, Timestamp: 2001, Type: "BanffStandardBlock"},
	}, time.Now()))

	idx := newValidationIndex(st)
	got, err := idx.ValidationCreator(context.Background(), register.ValidationID())
	require.NoError(t, err)
	require.Equal(t, registerTx.Bytes(), got.SignedTx)
	require.Equal(t, uint64(2), got.IndexedHeight)

	got, err = idx.ValidationCreator(context.Background(), ids.GenerateTestID())
	require.NoError(t, err)
	require.Nil(t, got.SignedTx)
	require.Equal(t, uint64(2), got.IndexedHeight)
}
