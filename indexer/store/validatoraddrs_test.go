package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/pdata"
)

// The validators whose period overlaps a time frame, with their validation
// reward addresses: genesis validators G1 (to 100000) and G2 (to 60000), V
// (2000 to 50000); the aborted proposal's validator never was one; subnet
// validators name no reward address.
func TestValidatorRewardAddresses(t *testing.T) {
	require := require.New(t)
	sf := newStakingFixture()
	s := openStaking(t, sf)
	writeP(t, s, sf.before)
	writeP(t, s, sf.after)
	ctx := context.Background()
	list := func(subnet ids.ID, from, to int64, after *pdata.StakerPos, limit int) []ids.ID {
		got, known, err := s.ValidatorRewardAddresses(ctx, subnet, from, to, after, limit)
		require.NoError(err)
		require.True(known)
		out := []ids.ID{}
		for _, v := range got {
			out = append(out, v.TxID)
		}
		return out
	}
	require.Equal(idsOf(sf.gv1, sf.gv2, sf.v), list(ids.Empty, 0, 100000, nil, 10))
	require.Equal(idsOf(sf.gv1, sf.gv2), list(ids.Empty, 50001, 60000, nil, 10))
	require.Equal(idsOf(sf.gv1), list(ids.Empty, 60001, 1<<40, nil, 10))
	require.Equal(idsOf(sf.gv1, sf.gv2), list(ids.Empty, 0, 1999, nil, 10), "V starts at 2000")
	require.Equal(idsOf(sf.gv1, sf.gv2, sf.v), list(ids.Empty, 2000, 2000, nil, 10))
	// Paged after G1.
	first := pdata.StakerPos{Start: sf.gv1.Staker.Start, TxID: sf.gv1.ID}
	require.Equal(idsOf(sf.gv2), list(ids.Empty, 0, 100000, &first, 1))
	// Subnet validators name no reward address (and the fixture never
	// created subnet S).
	got, known, err := s.ValidatorRewardAddresses(ctx, subnetS, 0, 100000, nil, 10)
	require.NoError(err)
	require.False(known)
	require.Empty(got)

	got, _, err = s.ValidatorRewardAddresses(ctx, ids.Empty, 0, 100000, nil, 10)
	require.NoError(err)
	require.Equal(sf.v.Staker.Start, got[2].Start)
	require.Equal([]ids.ShortID{addrV}, got[2].Addresses)

	_, known, err = s.ValidatorRewardAddresses(ctx, ids.ID{'?'}, 0, 100000, nil, 10)
	require.NoError(err)
	require.False(known)
}
