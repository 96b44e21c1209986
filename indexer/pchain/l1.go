package pchain

import (
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"

	"github.com/avadata/avadata/indexer/pdata"
)

// Etna txs: the L1 validator lifecycle.

func (d *txDecoder) ConvertSubnetToL1Tx(tx *txs.ConvertSubnetToL1Tx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	d.out.Subnet = tx.Subnet
	d.out.L1Manager = &pdata.L1Manager{BlockchainID: tx.ChainID, Address: tx.Address}
	for i, v := range tx.Validators {
		nodeID, err := ids.ToNodeID(v.NodeID)
		if err != nil {
			return fmt.Errorf("validator %d node ID: %w", i, err)
		}
		d.out.L1Validators = append(d.out.L1Validators, pdata.L1Validator{
			// As the executor derives it (standardTxExecutor.ConvertSubnetToL1Tx).
			ValidationID:          tx.Subnet.Append(uint32(i)),
			NodeID:                nodeID,
			Subnet:                tx.Subnet,
			Weight:                v.Weight,
			Balance:               v.Balance,
			BLSPublicKey:          v.Signer.PublicKey[:],
			BLSProofOfPossession:  v.Signer.ProofOfPossession[:],
			RemainingBalanceOwner: pChainOwners(v.RemainingBalanceOwner),
			DeactivationOwner:     pChainOwners(v.DeactivationOwner),
		})
	}
	return nil
}

func (d *txDecoder) RegisterL1ValidatorTx(tx *txs.RegisterL1ValidatorTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	msg, err := l1ValidatorMessage(tx.Message, "RegisterL1Validator", message.ParseRegisterL1Validator)
	if err != nil {
		return err
	}
	nodeID, err := ids.ToNodeID(msg.NodeID)
	if err != nil {
		return fmt.Errorf("RegisterL1Validator node ID: %w", err)
	}
	validationID := msg.ValidationID()
	d.out.Subnet = msg.SubnetID
	d.out.ValidationID = validationID
	d.out.L1Validators = []pdata.L1Validator{{
		ValidationID:          validationID,
		NodeID:                nodeID,
		Subnet:                msg.SubnetID,
		Weight:                msg.Weight,
		Balance:               tx.Balance,
		BLSPublicKey:          msg.BLSPublicKey[:],
		BLSProofOfPossession:  tx.ProofOfPossession[:],
		RemainingBalanceOwner: pChainOwners(msg.RemainingBalanceOwner),
		DeactivationOwner:     pChainOwners(msg.DisableOwner),
	}}
	return nil
}

func (d *txDecoder) SetL1ValidatorWeightTx(tx *txs.SetL1ValidatorWeightTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	msg, err := l1ValidatorMessage(tx.Message, "L1ValidatorWeight", message.ParseL1ValidatorWeight)
	if err != nil {
		return err
	}
	d.out.ValidationID = msg.ValidationID
	d.out.L1Validators = []pdata.L1Validator{{ValidationID: msg.ValidationID, Weight: msg.Weight}}
	return nil
}

func (d *txDecoder) IncreaseL1ValidatorBalanceTx(tx *txs.IncreaseL1ValidatorBalanceTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	d.out.ValidationID = tx.ValidationID
	d.out.L1Validators = []pdata.L1Validator{{ValidationID: tx.ValidationID, BalanceChange: tx.Balance}}
	return nil
}

func (d *txDecoder) DisableL1ValidatorTx(tx *txs.DisableL1ValidatorTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	d.out.ValidationID = tx.ValidationID
	d.out.L1Validators = []pdata.L1Validator{{ValidationID: tx.ValidationID}}
	return nil
}

// l1ValidatorMessage unwraps an L1 tx's warp message down to the payload
// the L1's validator manager sent, as the executor does, and parses it as
// the named message with parse.
func l1ValidatorMessage[M any](b []byte, name string, parse func([]byte) (M, error)) (M, error) {
	var none M
	msg, err := warp.ParseMessage(b)
	if err != nil {
		return none, fmt.Errorf("parsing warp message: %w", err)
	}
	call, err := payload.ParseAddressedCall(msg.Payload)
	if err != nil {
		return none, fmt.Errorf("parsing warp addressed call: %w", err)
	}
	m, err := parse(call.Payload)
	if err != nil {
		return none, fmt.Errorf("parsing %s message: %w", name, err)
	}
	return m, nil
}

func pChainOwners(o message.PChainOwner) *pdata.Owners {
	return &pdata.Owners{Threshold: o.Threshold, Addrs: append([]ids.ShortID(nil), o.Addresses...)}
}
