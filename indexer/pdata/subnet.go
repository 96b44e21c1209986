package pdata

import "github.com/ava-labs/avalanchego/ids"

// The P-chain's registry of subnets and blockchains, as its txs built it:
// what platform.getSubnets cannot tell (when and by which tx a subnet was
// made, whether it became an L1 and by which tx, its validator manager,
// its current owner after TransferSubnetOwnershipTx).

// Subnet is a subnet (the primary network included) as the index knows it
// now.
type Subnet struct {
	ID ids.ID
	// Created is the place of the tx that created it (CreateSubnetTx); the
	// primary network's is the P-chain genesis, (0, 0).
	Created     TxPos
	CreatedTime int64
	// Owner is its current owner: the CreateSubnetTx's, or the last
	// TransferSubnetOwnershipTx's. The primary network has none (zero).
	Owner Owners
	// ConversionTx is the ConvertSubnetToL1Tx that made it an L1; Empty
	// while it is not one.
	ConversionTx ids.ID
	// Manager is the validator manager that tx named (nil when not an L1).
	Manager *L1Manager
	// Blockchains are the chains created on it, in creation order (filled
	// by the readers that list subnets).
	Blockchains []IndexedBlockchain
}

// IsL1 reports whether a ConvertSubnetToL1Tx converted the subnet.
func (s *Subnet) IsL1() bool { return s.ConversionTx != ids.Empty }

// IndexedBlockchain is a blockchain with the place of the tx that created
// it (CreateChainTx; the P-chain's own is the genesis, (0, 0)).
type IndexedBlockchain struct {
	Blockchain
	Subnet      ids.ID
	Created     TxPos
	CreatedTime int64
}

// RegistryPos is the place of a subnet or blockchain in its listing: its
// creating tx's place, then its ID.
type RegistryPos struct {
	Created TxPos
	ID      ids.ID
}

// RegistryQuery pages through subnets or blockchains in creation order.
type RegistryQuery struct {
	Desc bool
	// After continues a listing after this position (exclusive).
	After *RegistryPos
	Limit int
}
