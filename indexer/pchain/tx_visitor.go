package pchain

import (
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/vms/platformvm/signer"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"

	"github.com/avadata/avadata/indexer/pdata"
)

// The txDecoder visits every P-chain tx type: a type added to avalanchego
// without a method here fails to compile rather than decode silently.
var _ txs.Visitor = (*txDecoder)(nil)

// Apricot txs.

func (d *txDecoder) AddValidatorTx(tx *txs.AddValidatorTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	s := validator(&tx.Validator)
	s.Subnet = constants.PrimaryNetworkID
	s.DelegationShares = tx.DelegationShares
	// One owner receives both the validation rewards and the delegation
	// fees of an Apricot validator.
	s.RewardsOwner = ownersOf(tx.RewardsOwner)
	s.DelegationRewardsOwner = ownersOf(tx.RewardsOwner)
	d.out.Subnet = constants.PrimaryNetworkID
	return d.stake(&tx.BaseTx.BaseTx, tx.StakeOuts, s)
}

func (d *txDecoder) AddSubnetValidatorTx(tx *txs.AddSubnetValidatorTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	// A permissioned subnet validator stakes nothing.
	s := validator(&tx.Validator)
	s.Subnet = tx.Subnet
	d.out.Staker = s
	d.out.Subnet = tx.Subnet
	return nil
}

func (d *txDecoder) AddDelegatorTx(tx *txs.AddDelegatorTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	s := validator(&tx.Validator)
	s.Delegator = true
	s.Subnet = constants.PrimaryNetworkID
	s.RewardsOwner = ownersOf(tx.DelegationRewardsOwner)
	d.out.Subnet = constants.PrimaryNetworkID
	return d.stake(&tx.BaseTx.BaseTx, tx.StakeOuts, s)
}

func (d *txDecoder) CreateChainTx(tx *txs.CreateChainTx) error {
	d.out.Subnet = tx.SubnetID
	d.out.Blockchain = &pdata.Blockchain{
		ID:      d.out.ID, // a chain's ID is the ID of the tx that creates it
		Name:    tx.ChainName,
		VMID:    tx.VMID,
		Genesis: tx.GenesisData,
	}
	return d.base(&tx.BaseTx.BaseTx)
}

func (d *txDecoder) CreateSubnetTx(tx *txs.CreateSubnetTx) error {
	d.out.Subnet = d.out.ID // a subnet's ID is the ID of the tx that creates it
	d.out.SubnetOwner = ownersOf(tx.Owner)
	return d.base(&tx.BaseTx.BaseTx)
}

func (d *txDecoder) ImportTx(tx *txs.ImportTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	d.out.SourceChain = tx.SourceChain
	// Imported inputs come after Ins, and so do their credentials.
	return d.consume(tx.ImportedInputs)
}

func (d *txDecoder) ExportTx(tx *txs.ExportTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	d.out.DestinationChain = tx.DestinationChain
	return d.produce(tx.ExportedOutputs, len(tx.Outs), pdata.UTXO{Exported: true, DestinationChain: tx.DestinationChain})
}

// AdvanceTimeTx has no effect of its own: the block reader moves the chain
// time when the proposal commits.
func (*txDecoder) AdvanceTimeTx(*txs.AdvanceTimeTx) error { return nil }

// RewardValidatorTx names the staking tx it ends; its UTXO effects depend on
// the node's state (see Source).
func (d *txDecoder) RewardValidatorTx(tx *txs.RewardValidatorTx) error {
	d.out.RewardOf = tx.TxID
	return nil
}

// Banff txs.

func (d *txDecoder) RemoveSubnetValidatorTx(tx *txs.RemoveSubnetValidatorTx) error {
	d.out.Subnet, d.out.NodeID = tx.Subnet, tx.NodeID
	return d.base(&tx.BaseTx.BaseTx)
}

func (d *txDecoder) TransformSubnetTx(tx *txs.TransformSubnetTx) error {
	d.out.Subnet = tx.Subnet
	return d.base(&tx.BaseTx.BaseTx)
}

func (d *txDecoder) AddPermissionlessValidatorTx(tx *txs.AddPermissionlessValidatorTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	s := validator(&tx.Validator)
	s.Subnet = tx.Subnet
	s.DelegationShares = tx.DelegationShares
	s.RewardsOwner = ownersOf(tx.ValidatorRewardsOwner)
	s.DelegationRewardsOwner = ownersOf(tx.DelegatorRewardsOwner)
	if pop, ok := tx.Signer.(*signer.ProofOfPossession); ok {
		s.BLSPublicKey = pop.PublicKey[:]
		s.BLSProofOfPossession = pop.ProofOfPossession[:]
	}
	d.out.Subnet = tx.Subnet
	return d.stake(&tx.BaseTx.BaseTx, tx.StakeOuts, s)
}

func (d *txDecoder) AddPermissionlessDelegatorTx(tx *txs.AddPermissionlessDelegatorTx) error {
	if err := d.base(&tx.BaseTx.BaseTx); err != nil {
		return err
	}
	s := validator(&tx.Validator)
	s.Delegator = true
	s.Subnet = tx.Subnet
	s.RewardsOwner = ownersOf(tx.DelegationRewardsOwner)
	d.out.Subnet = tx.Subnet
	return d.stake(&tx.BaseTx.BaseTx, tx.StakeOuts, s)
}

// Durango txs.

func (d *txDecoder) TransferSubnetOwnershipTx(tx *txs.TransferSubnetOwnershipTx) error {
	d.out.Subnet = tx.Subnet
	d.out.SubnetOwner = ownersOf(tx.Owner)
	return d.base(&tx.BaseTx.BaseTx)
}

func (d *txDecoder) BaseTx(tx *txs.BaseTx) error {
	return d.base(&tx.BaseTx)
}

// Etna txs: see l1.go.
