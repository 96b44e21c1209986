package primary

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/types"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/truth"
)

// TestPrimaryL1Scenario checks, against the node alone, that the L1
// scenario made what the L1 tests claim it did: its txs in order, each of
// the type it meant (platform.getTx); the subnet converted to an L1
// managed from the scenario's chain and address with exactly the first
// validator (platform.getSubnet's conversion ID); the re-weight refused for
// want of validator sets; and that validator disabled, its owners L and its
// remaining balance refunded to L (platform.getL1Validator).
func TestPrimaryL1Scenario(t *testing.T) {
	s := l1ScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	uri := env.URI(t)
	t.Logf("L = %s; subnet %s, chain %s; took %v", s.pAddr(t), s.subnetID, s.chainID, s.took.Round(time.Millisecond))

	var txTypes []string
	for _, tx := range s.txs {
		t.Logf("%-20s %-28s %s height %d time %d validation %s refund %+v", tx.label, tx.txType, tx.id,
			tx.height, tx.blockTime, tx.validationID, tx.refund)
		parsed := truth.ParsedPTx(t, ctx, uri, tx.id)
		require.Equal(t, tx.txType, reflect.TypeOf(parsed.Unsigned).Elem().Name(), "%s: the tx's type", tx.label)
		txTypes = append(txTypes, tx.txType)
	}
	// The single-node network has no validator sets, so the P-chain refuses
	// every warp message (see l1_scenario_test.go).
	require.Contains(t, s.warpRefusal, "failed verifying warp messages", "the re-weight")
	require.Equal(t, []string{"BaseTx", "CreateSubnetTx", "ConvertSubnetToL1Tx", "IncreaseL1ValidatorBalanceTx", "DisableL1ValidatorTx"},
		txTypes, "the scenario's txs")

	var subnet struct {
		IsPermissioned bool                `json:"isPermissioned"`
		ConversionID   ids.ID              `json:"conversionID"`
		ManagerChainID ids.ID              `json:"managerChainID"`
		ManagerAddress types.JSONByteSlice `json:"managerAddress"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getSubnet", map[string]any{"subnetID": s.subnetID}, &subnet))
	require.False(t, subnet.IsPermissioned, "the subnet is an L1")
	require.Equal(t, s.chainID, subnet.ManagerChainID, "the L1's manager chain")
	require.Equal(t, s.managerAddress, []byte(subnet.ManagerAddress), "the L1's manager address")
	first := s.first
	conversionID, err := message.SubnetToL1ConversionID(message.SubnetToL1ConversionData{
		SubnetID: s.subnetID, ManagerChainID: s.chainID, ManagerAddress: s.managerAddress,
		Validators: []message.SubnetToL1ConversionValidatorData{{
			NodeID:       first.NodeID.Bytes(),
			BLSPublicKey: [bls.PublicKeyLen]byte(bls.PublicKeyToCompressedBytes(first.Signer.PublicKey())),
			Weight:       l1FirstWeight,
		}},
	})
	require.NoError(t, err)
	require.Equal(t, conversionID, subnet.ConversionID, "converted with exactly the first validator")

	v := first.node
	t.Logf("L1 validator %s (%s): %+v", first.validationID, first.NodeID, v)
	require.Equal(t, s.subnetID, v.SubnetID, "getL1Validator subnetID")
	require.Equal(t, first.NodeID, v.NodeID, "getL1Validator nodeID")
	require.NotNil(t, v.ValidationID, "getL1Validator validationID")
	require.Equal(t, first.validationID, *v.ValidationID, "getL1Validator validationID")
	sameHex(t, bls.PublicKeyToCompressedBytes(first.Signer.PublicKey()), v.PublicKey, "getL1Validator publicKey")
	require.Equal(t, uint64(l1FirstWeight), uint64(v.Weight), "getL1Validator weight: the re-weight was refused")
	require.Zero(t, uint64(v.MinNonce), "getL1Validator minNonce: no weight change passed")
	require.Zero(t, uint64(v.Balance), "getL1Validator balance: disabled, its balance refunded")
	for name, owner := range map[string]*nodeOwner{"remainingBalanceOwner": v.RemainingBalanceOwner, "deactivationOwner": v.DeactivationOwner} {
		require.NotNil(t, owner, "getL1Validator %s", name)
		require.Equal(t, []ids.ShortID{s.addr}, shortIDsOf(t, owner.Addresses), "getL1Validator %s", name)
	}

	// The disable refunded what was left of the balance to L.
	disable := s.txs[len(s.txs)-1]
	require.NotNil(t, disable.refund, "the disable's refund")
	require.Positive(t, disable.refund.Amount, "the disable's refund")
	require.LessOrEqual(t, disable.refund.Amount, first.balanceBeforeDisable, "the refund is at most the balance before")
	require.Equal(t, []ids.ShortID{s.addr}, disable.refund.Addrs, "the refund's owner")
	require.LessOrEqual(t, first.balanceBeforeDisable, uint64(l1FirstBalance)+s.txs[3].balance,
		"the balance before the disable: what was put in, less the fees it paid")
}
