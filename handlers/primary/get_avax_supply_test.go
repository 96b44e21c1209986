package primary

import (
	"errors"
	"math/big"
	"testing"

	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/pdata"
)

const avaxSupplyPath = "/v1/avax/supply"

func u64(v uint64) *uint64 { return &v }

func TestGetAvaxSupply(t *testing.T) {
	fakes := handlertest.NewFakes()
	delegated := uint64(25_000_000_000)
	fakes.Platform.Validators = []platformvm.ClientPermissionlessValidator{
		{ClientStaker: platformvm.ClientStaker{Weight: 2_000_000_000_000}, DelegatorWeight: &delegated},
		{ClientStaker: platformvm.ClientStaker{Weight: 2_000_000_000_000}},
	}
	fakes.Primary.Supply = pdata.AvaxSupply{
		LastBlockTime:   1_700_000_000,
		CurrentSupply:   u64(360_000_100_500_000_000),
		InitialSupply:   u64(360_000_000_000_000_000),
		PTxFees:         u64(1_000_000),
		L1ValidatorFees: u64(250),
		XBurned:         u64(3_000_000),
		CAtomicBurned:   u64(50_000),
		CEVMBurned:      big.NewInt(1_234_567_890_123),
		Locked:          u64(36_000_000_500_000_000),
	}
	srv := newTestAPI(t, handlertest.Config(), fakes)
	body := srv.GetBody(t, avaxSupplyPath)
	// Burned: P 0.00100025, X 0.003, C 0.00005 + 0.000001234567890123.
	require.Equal(t, map[string]any{
		"genesisUnlock":     "360000000",
		"totalRewards":      "100.5",
		"totalPBurned":      "0.00100025",
		"l1ValidatorFees":   "0.00000025",
		"totalXBurned":      "0.003",
		"totalCBurned":      "0.000051234567890123",
		"totalSupply":       "360000100.495948515432109877",
		"circulatingSupply": "360000100.495948515432109877",
		"totalStaked":       "4025",
		"totalLocked":       "36000000.5",
		"lastUpdated":       "2023-11-14T22:13:20.000Z",
	}, body)
}

// A figure the index cannot derive is left out with every figure made from
// it; so is totalStaked when the node cannot tell.
func TestGetAvaxSupplyUnknownFigures(t *testing.T) {
	fakes := handlertest.NewFakes()
	fakes.Platform.Err = errors.New("node down")
	fakes.Primary.Supply = pdata.AvaxSupply{
		LastBlockTime: 1_700_000_000,
		CurrentSupply: u64(360_000_100_500_000_000),
		InitialSupply: u64(360_000_000_000_000_000),
		PTxFees:       u64(1_000_000), // L1 validator fees unknown: so is totalPBurned
		XBurned:       u64(3_000_000),
		CAtomicBurned: u64(50_000), // EVM fees unknown: so is totalCBurned
	}
	srv := newTestAPI(t, handlertest.Config(), fakes)
	body := srv.GetBody(t, avaxSupplyPath)
	require.Equal(t, map[string]any{
		"genesisUnlock": "360000000",
		"totalRewards":  "100.5",
		"totalXBurned":  "0.003",
		"lastUpdated":   "2023-11-14T22:13:20.000Z",
	}, body)
}

func TestAvaxAmount(t *testing.T) {
	for wei, want := range map[int64]string{0: "0", 1: "0.000000000000000001", 1_000_000_000_000_000_000: "1",
		1_500_000_000_000_000_000: "1.5"} {
		require.Equal(t, want, avaxAmount(big.NewInt(wei)))
	}
	require.Empty(t, avaxAmount(nil))
}
