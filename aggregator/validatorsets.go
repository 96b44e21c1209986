package aggregator

import (
	"context"
	"fmt"
	"sync"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow/validators"
	"github.com/ava-labs/avalanchego/utils/constants"
)

// validatorView reads validator sets from the host node's P-chain through
// the plugin's validators.State (a gRPC client to the node, cached for a few
// heights by the rpcchainvm server). It saves a JSON round trip per request
// over platform.getValidatorsAt, and its warp sets are the canonical ones
// warp verification uses: validators sorted by BLS key, nodes sharing a key
// merged.
type validatorView struct {
	state validators.State

	mu       sync.Mutex
	subnetOf map[ids.ID]ids.ID // chain → subnet; a chain never moves
}

func newValidatorView(state validators.State) *validatorView {
	return &validatorView{state: state, subnetOf: map[ids.ID]ids.ID{}}
}

// proposedHeight is the P-chain height a block built now would use: the one
// warp verification on the receiving chain uses too (pChainHeight 0).
func (v *validatorView) proposedHeight(ctx context.Context) (uint64, error) {
	h, err := v.state.GetMinimumHeight(ctx)
	if err != nil {
		return 0, fmt.Errorf("reading the proposed P-chain height: %w", err)
	}
	return h, nil
}

func (v *validatorView) currentHeight(ctx context.Context) (uint64, error) {
	h, err := v.state.GetCurrentHeight(ctx)
	if err != nil {
		return 0, fmt.Errorf("reading the current P-chain height: %w", err)
	}
	return h, nil
}

// sourceSubnet returns the subnet that validates chainID; the P-chain's is
// the primary network.
func (v *validatorView) sourceSubnet(ctx context.Context, chainID ids.ID) (ids.ID, error) {
	if chainID == constants.PlatformChainID {
		return constants.PrimaryNetworkID, nil
	}
	v.mu.Lock()
	subnetID, ok := v.subnetOf[chainID]
	v.mu.Unlock()
	if ok {
		return subnetID, nil
	}
	subnetID, err := v.state.GetSubnetID(ctx, chainID)
	if err != nil {
		if ctx.Err() != nil {
			return ids.Empty, ctx.Err()
		}
		return ids.Empty, &Error{Kind: KindNotFound, Message: fmt.Sprintf(
			"the message's source chain %s is not a blockchain this node's P-chain knows (%v)", chainID, err)}
	}
	v.mu.Lock()
	v.subnetOf[chainID] = subnetID
	v.mu.Unlock()
	return subnetID, nil
}

// warpSet returns the canonical validator set of subnetID at height.
func (v *validatorView) warpSet(ctx context.Context, height uint64, subnetID ids.ID) (validators.WarpSet, error) {
	sets, err := v.state.GetWarpValidatorSets(ctx, height)
	if err != nil {
		if ctx.Err() != nil {
			return validators.WarpSet{}, ctx.Err()
		}
		return validators.WarpSet{}, fmt.Errorf("reading the validator sets at P-chain height %d: %w", height, err)
	}
	if len(sets) == 0 {
		return validators.WarpSet{}, &Error{Kind: KindNotFound, Message: fmt.Sprintf(
			"this node's P-chain has no validator sets at height %d (a node running without sybil protection has none): nobody can sign", height)}
	}
	set, ok := sets[subnetID]
	if !ok || set.TotalWeight == 0 {
		return validators.WarpSet{}, &Error{Kind: KindNotFound, Message: fmt.Sprintf(
			"subnet %s has no validators that can sign warp messages at P-chain height %d", subnetID, height)}
	}
	return set, nil
}

// currentValidators returns subnetID's validators at the current height
// that the network can dial: nodes with a NodeID (an L1's inactive
// validators are merged under the empty one) and their weight.
func (v *validatorView) currentValidators(ctx context.Context, subnetID ids.ID) (map[ids.NodeID]uint64, error) {
	height, err := v.currentHeight(ctx)
	if err != nil {
		return nil, err
	}
	vdrs, err := v.state.GetValidatorSet(ctx, height, subnetID)
	if err != nil {
		return nil, fmt.Errorf("reading subnet %s's validators at P-chain height %d: %w", subnetID, height, err)
	}
	out := make(map[ids.NodeID]uint64, len(vdrs))
	for nodeID, vdr := range vdrs {
		if nodeID != ids.EmptyNodeID && vdr.Weight > 0 {
			out[nodeID] = vdr.Weight
		}
	}
	return out, nil
}
