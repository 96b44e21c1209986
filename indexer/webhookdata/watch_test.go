package webhookdata

import (
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

const transferSig = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

func watchTestHooks() []Webhook {
	evm := func(id byte, sigs ...string) Webhook {
		return Webhook{ID: ID{id}, EventType: AddressActivity, Chain: netinfo.C, Status: Active,
			Metadata: Metadata{Addresses: []string{"0x00000000000000000000000000000000000000aa"}, EventSignatures: sigs}}
	}
	return []Webhook{
		evm(3), evm(1, transferSig), evm(2),
		{ID: ID{4}, EventType: ValidatorActivity, Chain: netinfo.P, Status: Active,
			Metadata: Metadata{KeyType: KeyTypeNodeID, Keys: []string{"NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg"}}},
		{ID: ID{5}, EventType: AddressActivity, Chain: netinfo.C, Status: Inactive,
			Metadata: Metadata{Addresses: []string{"0x00000000000000000000000000000000000000aa"}}},
	}
}

// Adding one webhook to the sets of the others gives the sets NewWatches
// builds from all of them, lists in ID order included: the store builds a
// change's sets that way.
func TestWatchesAddIsNewWatchesOfAll(t *testing.T) {
	for changed := range watchTestHooks() {
		t.Run(watchTestHooks()[changed].ID.String(), func(t *testing.T) {
			want, err := NewWatches(watchTestHooks())
			require.NoError(t, err)
			hooks := watchTestHooks()
			h := hooks[changed]
			got, err := NewWatches(append(hooks[:changed:changed], hooks[changed+1:]...))
			require.NoError(t, err)
			require.NoError(t, got.Add(&h))
			require.Equal(t, want, got)
		})
	}
}

func TestWatchesAdd(t *testing.T) {
	w, err := NewWatches(watchTestHooks())
	require.NoError(t, err)
	cw := w.Chain(netinfo.C)
	require.Len(t, cw.Hooks, 3, "the inactive webhook is not watched")
	for i, h := range cw.Hooks {
		require.Equal(t, ID{byte(i + 1)}, h.ID)
	}
	require.Len(t, cw.EVMAddresses[common.HexToAddress("0xaa")], 3)
	require.Equal(t, map[ID]map[common.Hash]struct{}{{1}: {common.HexToHash(transferSig): {}}}, cw.EventSignatures)
	require.Len(t, w.Chain(netinfo.P).Nodes, 1)

	again := *cw.Hooks[0]
	require.ErrorContains(t, w.Add(&again), "watched already")
	bad := Webhook{ID: ID{9}, EventType: AddressActivity, Chain: netinfo.C, Status: Active,
		Metadata: Metadata{Addresses: []string{"0xaa"}, EventSignatures: []string{"0x12"}}}
	require.ErrorContains(t, w.Add(&bad), "not an event signature")
}
