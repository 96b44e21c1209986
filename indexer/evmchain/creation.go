package evmchain

import (
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
)

// topLevelCreation is the contract a successful creation tx deployed.
func topLevelCreation(tx *evmdata.Tx) (evmdata.ContractCreation, bool) {
	if !tx.IsCreation() || !tx.Succeeded() || tx.ContractAddress == nil {
		return evmdata.ContractCreation{}, false
	}
	return evmdata.ContractCreation{Address: *tx.ContractAddress, Deployer: tx.From}, true
}

// factoryCreations are the contracts deployed by contracts during a tx: the
// CREATE/CREATE2 frames below the top call that no revert undid. A
// creation tx's own deployment is its top frame, which frames never
// include, so it is not counted twice.
func factoryCreations(frames []flatFrame, deployer common.Address) []evmdata.ContractCreation {
	var out []evmdata.ContractCreation
	for _, ff := range frames {
		if ff.reverted || ff.frame.To == nil || !evmdata.ParseCallType(ff.frame.Type).IsCreate() {
			continue
		}
		out = append(out, evmdata.ContractCreation{
			Address:          *ff.frame.To,
			Deployer:         deployer,
			DeployerContract: ff.frame.From,
		})
	}
	return out
}
