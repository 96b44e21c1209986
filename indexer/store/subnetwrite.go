package store

import (
	"fmt"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"

	"github.com/avadata/avadata/indexer/pdata"
)

// The P writer keeps the registry of subnets and blockchains (0x50-0x54)
// from the txs that shape it: CreateSubnetTx and CreateChainTx add a
// record and its order rows; TransferSubnetOwnershipTx and
// ConvertSubnetToL1Tx rewrite the subnet's record (its owner; its
// conversion and validator manager). The rewrites read the record as the
// blocks before left it, so they rely on each block being committed
// exactly once, with the cursor (commit.go), as the supply does.
//
// The primary network and the P-chain are made by no tx: the genesis
// writes them, placed at (0, 0) before the genesis txs (the X- and
// C-chain are the genesis' CreateChainTxs).

// pChainName is the P-chain's name, as the genesis names the X-Chain and
// the C-Chain.
const pChainName = "P-Chain"

// writePrimaryNetworkRegistry writes the primary network and the P-chain,
// created at the genesis time ts.
func writePrimaryNetworkRegistry(txn *blockTxn, ts int64) error {
	genesis := pdata.TxPos{}
	subnet := pdata.Subnet{ID: constants.PrimaryNetworkID, Created: genesis, CreatedTime: ts}
	if err := putSubnet(txn, &subnet, true); err != nil {
		return err
	}
	chain := pdata.IndexedBlockchain{
		Blockchain: pdata.Blockchain{ID: constants.PlatformChainID, Name: pChainName, VMID: constants.PlatformVMID},
		Subnet:     constants.PrimaryNetworkID, Created: genesis, CreatedTime: ts,
	}
	return putBlockchain(txn, &chain)
}

// writeRegistry records what the P-chain tx at does to subnets and
// blockchains.
func writeRegistry(txn *blockTxn, at txPlace, tx *pdata.Tx) error {
	if tx.Outcome == pdata.OutcomeAbort {
		return nil // an aborted proposal changed nothing
	}
	switch {
	case tx.Blockchain != nil:
		b := pdata.IndexedBlockchain{Blockchain: *tx.Blockchain, Subnet: tx.Subnet, Created: at.pos, CreatedTime: at.time}
		return putBlockchain(txn, &b)
	case tx.Type == "CreateSubnetTx":
		s := pdata.Subnet{ID: tx.Subnet, Created: at.pos, CreatedTime: at.time}
		if tx.SubnetOwner != nil {
			s.Owner = *tx.SubnetOwner
		}
		return putSubnet(txn, &s, true)
	case tx.Type == "TransferSubnetOwnershipTx" && tx.SubnetOwner != nil:
		return updateSubnet(txn, tx.Subnet, func(s *pdata.Subnet) { s.Owner = *tx.SubnetOwner })
	case tx.Type == "ConvertSubnetToL1Tx":
		return updateSubnet(txn, tx.Subnet, func(s *pdata.Subnet) { s.ConversionTx, s.Manager = tx.ID, tx.L1Manager })
	}
	return nil
}

// updateSubnet rewrites the record of subnet as change makes it. A subnet
// the index holds no record of (none can be: its CreateSubnetTx came
// before) is left alone.
func updateSubnet(txn *blockTxn, id ids.ID, change func(*pdata.Subnet)) error {
	v, err := txn.get(subnetKey(id))
	if err != nil {
		return fmt.Errorf("reading subnet %s: %w", id, err)
	}
	if v == nil {
		return nil
	}
	s, err := decodeSubnet(id, v)
	if err != nil {
		return fmt.Errorf("subnet %s: %w", id, err)
	}
	change(&s)
	return putSubnet(txn, &s, false)
}

// putSubnet writes s's record, and when it is new its order row.
func putSubnet(txn *blockTxn, s *pdata.Subnet, created bool) error {
	if err := txn.set(subnetKey(s.ID), encodeSubnet(s)); err != nil {
		return fmt.Errorf("writing subnet %s: %w", s.ID, err)
	}
	if !created {
		return nil
	}
	pos := pdata.RegistryPos{Created: s.Created, ID: s.ID}
	if err := txn.set(registryOrderKey(key{tagSubOrder}, pos), nil); err != nil {
		return fmt.Errorf("writing subnet %s's order row: %w", s.ID, err)
	}
	return nil
}

// putBlockchain writes b's record, its order row and its subnet's row.
func putBlockchain(txn *blockTxn, b *pdata.IndexedBlockchain) error {
	if err := txn.set(blockchainKey(b.ID), encodeBlockchain(b)); err != nil {
		return fmt.Errorf("writing blockchain %s: %w", b.ID, err)
	}
	pos := pdata.RegistryPos{Created: b.Created, ID: b.ID}
	for _, prefix := range []key{{tagBchOrder}, subnetChainPrefix(b.Subnet)} {
		if err := txn.set(registryOrderKey(prefix, pos), nil); err != nil {
			return fmt.Errorf("writing blockchain %s's order rows: %w", b.ID, err)
		}
	}
	return nil
}
