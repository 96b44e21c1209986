package evm

import (
	"encoding/hex"

	"github.com/ava-labs/libevm/crypto"

	"github.com/avadata/avadata/indexer/evmdata"
)

// The method of a transaction: how it calls (the OpenAPI's
// TransactionMethodType) and, for the token functions everyone knows, the
// function's name.

// TransactionMethodType values.
const (
	callTypeNativeTransfer   = "NATIVE_TRANSFER"
	callTypeContractCall     = "CONTRACT_CALL"
	callTypeContractCreation = "CONTRACT_CREATION"
)

// Method names the OpenAPI fixes for calls that have no selector.
const (
	methodNameNativeTransfer   = "Native Transfer"
	methodNameContractCreation = "Contract Created"
)

// wellKnownMethods are the ERC-20, ERC-721 and ERC-1155 functions (plus the
// WAVAX-style wrapper's) whose selectors avadata names. Anything else gets a
// methodHash and no methodName: avadata keeps no signature database.
func wellKnownMethods() []string {
	return []string{
		// ERC-20
		"transfer(address,uint256)",
		"transferFrom(address,address,uint256)",
		"approve(address,uint256)",
		"increaseAllowance(address,uint256)",
		"decreaseAllowance(address,uint256)",
		"mint(address,uint256)",
		"burn(uint256)",
		"burnFrom(address,uint256)",
		"deposit()",
		"withdraw(uint256)",
		// ERC-721
		"safeTransferFrom(address,address,uint256)",
		"safeTransferFrom(address,address,uint256,bytes)",
		"setApprovalForAll(address,bool)",
		"safeMint(address,uint256)",
		"safeMint(address)",
		"mint(address)",
		// ERC-1155
		"safeTransferFrom(address,address,uint256,uint256,bytes)",
		"safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)",
		"mint(address,uint256,uint256,bytes)",
		"mintBatch(address,uint256[],uint256[],bytes)",
		"burn(address,uint256,uint256)",
		"burnBatch(address,uint256[],uint256[])",
	}
}

// methodTable maps a 4-byte selector to its function signature. It is built
// once per handler and only read afterwards.
type methodTable map[[4]byte]string

func newMethodTable() methodTable {
	table := make(methodTable, len(wellKnownMethods()))
	for _, sig := range wellKnownMethods() {
		var selector [4]byte
		copy(selector[:], crypto.Keccak256([]byte(sig)))
		table[selector] = sig
	}
	return table
}

// txMethod is the OpenAPI's Method.
type txMethod struct {
	CallType   string `json:"callType"`
	MethodHash string `json:"methodHash"`
	MethodName string `json:"methodName,omitempty"`
}

// method describes how tx calls: a creation, a plain transfer (no input),
// or a contract call whose selector is named when it is well known.
func (t methodTable) method(tx *evmdata.Tx) txMethod {
	switch {
	case tx.IsCreation():
		return txMethod{CallType: callTypeContractCreation, MethodName: methodNameContractCreation}
	case len(tx.Input) == 0:
		return txMethod{CallType: callTypeNativeTransfer, MethodName: methodNameNativeTransfer}
	}
	id := tx.MethodID()
	if id == nil {
		return txMethod{CallType: callTypeContractCall} // input too short for a selector
	}
	return txMethod{
		CallType:   callTypeContractCall,
		MethodHash: "0x" + hex.EncodeToString(id),
		MethodName: t[[4]byte(id)],
	}
}
