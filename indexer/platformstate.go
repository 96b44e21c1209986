package indexer

import (
	"context"
	"fmt"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/platformvm"
)

// Live P-chain state beyond the primary network's validators (primary.go):
// an L1's current validators, one L1 validation, the current supply. The
// index knows what the txs said; balances drained by the continuous fee,
// and the supply as platformvm keeps it, are the node's.

// SubnetValidators reads the current validators of subnetID from the node.
func (ix *Indexer) SubnetValidators(ctx context.Context, subnetID ids.ID) ([]platformvm.ClientPermissionlessValidator, error) {
	vals, err := ix.client.Platform.GetCurrentValidators(ctx, subnetID, nil)
	if err != nil {
		return nil, fmt.Errorf("platform.getCurrentValidators of subnet %s: %w", subnetID, err)
	}
	return vals, nil
}

// L1Validator reads one L1 validation from the node; found is false when
// the P-chain holds none with that ID (platformvm answers "not found" for a
// validation never registered and for one removed).
func (ix *Indexer) L1Validator(ctx context.Context, validationID ids.ID) (platformvm.L1Validator, uint64, bool, error) {
	v, height, err := ix.client.Platform.GetL1Validator(ctx, validationID)
	if err != nil {
		if strings.Contains(err.Error(), "not found") {
			return platformvm.L1Validator{}, 0, false, nil
		}
		return platformvm.L1Validator{}, 0, false, fmt.Errorf("platform.getL1Validator %s: %w", validationID, err)
	}
	return v, height, true, nil
}

// CurrentSupply reads the primary network's current supply from the node.
func (ix *Indexer) CurrentSupply(ctx context.Context) (uint64, error) {
	supply, _, err := ix.client.Platform.GetCurrentSupply(ctx, constants.PrimaryNetworkID)
	if err != nil {
		return 0, fmt.Errorf("platform.getCurrentSupply: %w", err)
	}
	return supply, nil
}
