package primary

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// l1ValidatorsAccruedFees and activeL1Validators are integers when the
// index derived them (0 included: before Etna, or with none active), and
// left out otherwise.
func TestL1FeeFieldsShape(t *testing.T) {
	v := &shaper{chain: netinfo.P}
	shown := func(b *pdata.IndexedBlock) map[string]any {
		raw, err := json.Marshal(v.block(b))
		require.NoError(t, err)
		var out map[string]any
		require.NoError(t, json.Unmarshal(raw, &out))
		return out
	}
	got := shown(&pdata.IndexedBlock{L1Fees: &pdata.L1FeeState{AccruedFees: 123_456_789, Excess: 7, ActiveL1Validators: 2}})
	require.Equal(t, float64(123_456_789), got["l1ValidatorsAccruedFees"])
	require.Equal(t, float64(2), got["activeL1Validators"])

	got = shown(&pdata.IndexedBlock{L1Fees: &pdata.L1FeeState{}})
	require.Equal(t, float64(0), got["l1ValidatorsAccruedFees"])
	require.Equal(t, float64(0), got["activeL1Validators"])

	got = shown(&pdata.IndexedBlock{})
	require.NotContains(t, got, "l1ValidatorsAccruedFees")
	require.NotContains(t, got, "activeL1Validators")
}
