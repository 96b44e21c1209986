package pchain

import (
	"context"
	"errors"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/upgrade"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/pdata"
)

// A removed L1 validation is gone from the P-chain: getL1Validator's "not
// found" means no refund owner can be read, not a failure to retry.
func TestL1ValidatorNotFound(t *testing.T) {
	require.True(t, isL1ValidatorNotFound(errors.New(`failed to decode client response: fetching L1 validator "21i6ddowSh4jDKr7Z4ezPq7qQ7EBjc2ni1hDjcqvRbhQMAi4i4" failed: not found`)))
	require.False(t, isL1ValidatorNotFound(errors.New("context deadline exceeded")))
	require.False(t, isL1ValidatorNotFound(nil))
}

// refundPlatform records the owners L1Refund was given.
type refundPlatform struct {
	fakePlatform
	known [][]ids.ShortID
}

func (p *refundPlatform) L1Refund(_ context.Context, _, _ ids.ID, known []ids.ShortID) ([]byte, bool, error) {
	p.known = append(p.known, known)
	return nil, false, nil
}

// The index's owner of a validation is read for a removal (the node drops
// the validation with it), not for a disable (the node still holds it).
func TestRefundOwnersOfRemovals(t *testing.T) {
	p := &refundPlatform{}
	s := New(nil, p, upgrade.Config{})
	owner := ids.ShortID{9}
	var asked []ids.ID
	s.SetRefundOwners(func(_ context.Context, id ids.ID) ([]ids.ShortID, bool, error) {
		asked = append(asked, id)
		return []ids.ShortID{owner}, true, nil
	})
	ctx := context.Background()
	remove := &pdata.Tx{ID: ids.ID{1}, Type: "SetL1ValidatorWeightTx", L1Validators: []pdata.L1Validator{{ValidationID: ids.ID{'v'}}}}
	disable := &pdata.Tx{ID: ids.ID{2}, Type: "DisableL1ValidatorTx", L1Validators: []pdata.L1Validator{{ValidationID: ids.ID{'w'}}}}
	require.NoError(t, s.resolveRefund(ctx, remove))
	require.NoError(t, s.resolveRefund(ctx, disable))
	require.Equal(t, []ids.ID{{'v'}}, asked)
	require.Equal(t, [][]ids.ShortID{{owner}, nil}, p.known)

	s.SetRefundOwners(func(context.Context, ids.ID) ([]ids.ShortID, bool, error) { return nil, false, errors.New("disk") })
	require.ErrorContains(t, s.resolveRefund(ctx, remove), "disk")
}
