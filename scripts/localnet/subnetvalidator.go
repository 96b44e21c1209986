package localnet

import (
	"context"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
)

const (
	// subnetValidatorWeight is node 1's weight in the subnets it validates.
	// It is their only validator, so any weight is all of it.
	subnetValidatorWeight = 1
	// subnetValidatorTimeout bounds adding node 1 to the subnets.
	subnetValidatorTimeout = 2 * time.Minute
)

// ensureSubnetValidators makes node 1 a validator of the subnets of the
// chains it runs, on a multi-node network (a no-op on one node): with
// sybil protection on, a subnet's chains reach consensus among its
// validators, and a subnet without any cannot accept a block. A subnet
// node 1 validates already is left alone, so a bring-up cut short between
// creating a chain and this step is completed by the next Start.
//
// Node 1 validates them until its genesis validation ends, the longest a
// subnet validator of it may.
func (n *Network) ensureSubnetValidators(ctx context.Context) error {
	if !n.cfg.multi() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, subnetValidatorTimeout)
	defer cancel()
	client := platformvm.NewClient(n.URI())
	nodeID := n.id.nodeID
	var missing []ids.ID
	for _, subnetID := range n.trackedSubnets() {
		vdrs, err := client.GetCurrentValidators(ctx, subnetID, []ids.NodeID{nodeID})
		if err != nil {
			return fmt.Errorf("listing subnet %s's validators: %w", subnetID, err)
		}
		if len(vdrs) == 0 {
			missing = append(missing, subnetID)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	primaryVdrs, err := client.GetCurrentValidators(ctx, constants.PrimaryNetworkID, []ids.NodeID{nodeID})
	if err != nil {
		return fmt.Errorf("looking node 1 up among the primary network's validators: %w", err)
	}
	if len(primaryVdrs) != 1 {
		return fmt.Errorf("node 1 (%s) is not a validator of the primary network; the local genesis's validation of it may have ended", nodeID)
	}
	end := primaryVdrs[0].EndTime

	wallet, err := primary.MakePWallet(ctx, n.URI(), secp256k1fx.NewKeychain(genesis.EWOQKey), primary.WalletConfig{SubnetIDs: missing})
	if err != nil {
		return fmt.Errorf("making the P-chain wallet: %w", err)
	}
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(10 * time.Millisecond)}
	for _, subnetID := range missing {
		began := time.Now()
		tx, err := wallet.IssueAddSubnetValidatorTx(&txs.SubnetValidator{
			// Since Durango the P-chain starts a validator when it accepts
			// the tx; Start only has to be well-formed.
			Validator: txs.Validator{NodeID: nodeID, Start: uint64(time.Now().Unix()), End: end, Wght: subnetValidatorWeight},
			Subnet:    subnetID,
		}, opts...)
		if err != nil {
			return fmt.Errorf("adding node 1 as a validator of subnet %s: %w", subnetID, err)
		}
		n.cfg.logf("node 1 validates subnet %s (tx %s, %s)", subnetID, tx.ID(), time.Since(began).Round(time.Millisecond))
	}
	return nil
}
