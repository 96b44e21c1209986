package dataapi

import (
	"encoding/json"
)

// L1ValidatorDetails is one entry of a P-chain tx's l1ValidatorDetails.
type L1ValidatorDetails struct {
	ValidationID     string      `json:"validationId"`
	ValidationIDHex  string      `json:"validationIdHex"`
	NodeID           string      `json:"nodeId"`
	SubnetID         string      `json:"subnetId"`
	Weight           json.Number `json:"weight"`
	RemainingBalance json.Number `json:"remainingBalance"`
	BalanceChange    json.Number `json:"balanceChange"`
}

// L1Tx is a P-chain transaction of listLatestPrimaryNetworkTransactions
// with its L1 fields.
type L1Tx struct {
	TxHash                    string               `json:"txHash"`
	TxType                    string               `json:"txType"`
	BlockTimestamp            int64                `json:"blockTimestamp"`
	BlockNumber               string               `json:"blockNumber"`
	SubnetID                  string               `json:"subnetId"`
	L1ValidatorDetails        []L1ValidatorDetails `json:"l1ValidatorDetails"`
	L1ValidatorManagerDetails *struct {
		BlockchainID    string `json:"blockchainId"`
		ContractAddress string `json:"contractAddress"`
	} `json:"l1ValidatorManagerDetails"`
	SubnetOwnershipInfo *struct {
		Locktime  uint64   `json:"locktime"`
		Threshold uint32   `json:"threshold"`
		Addresses []string `json:"addresses"`
	} `json:"subnetOwnershipInfo"`
	BlockchainInfo *struct {
		ChainName string `json:"chainName"`
		VMID      string `json:"vmId"`
	} `json:"blockchainInfo"`
	AmountL1ValidatorBalanceBurned []AssetAmount `json:"amountL1ValidatorBalanceBurned"`
	EmittedUTXOs                   []UTXO        `json:"emittedUtxos"`
}
