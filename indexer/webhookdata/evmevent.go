package webhookdata

import ()

// The event of an address_activity delivery: the SDK's TransactionEvent
// (models/components), member for member. The SDK parses a delivery with
// zod rules that refuse null for an optional member and a number where it
// wants a string, so optional members are omitted, never null; amounts,
// gas and heights are decimal strings; indexes, types, decimals and
// timestamps are numbers (all below 2^53).

// TransactionEvent is one transaction that touched a watched address.
type TransactionEvent struct {
	Transaction Transaction `json:"transaction"`
	// Logs are the tx's event logs, present (possibly empty) when the
	// webhook's includeLogs is set.
	Logs []Log `json:"logs,omitzero"`
}

// Transaction is the SDK's Transaction.
type Transaction struct {
	BlockHash   string `json:"blockHash"`
	BlockNumber string `json:"blockNumber"`
	From        string `json:"from"`
	Gas         string `json:"gas"`
	// GasPrice is the price paid per gas (a dynamic-fee tx's effective
	// price, as the node reports it in a block).
	GasPrice string `json:"gasPrice"`
	// MaxFeePerGas and MaxPriorityFeePerGas are a legacy tx's gas price,
	// as the EVM reads its fee cap and tip cap.
	MaxFeePerGas         string `json:"maxFeePerGas"`
	MaxPriorityFeePerGas string `json:"maxPriorityFeePerGas"`
	TxHash               string `json:"txHash"`
	// TxStatus is the receipt's status: "1" success, "0" reverted.
	TxStatus string `json:"txStatus"`
	Input    string `json:"input"`
	Nonce    string `json:"nonce"`
	// To is the recipient; "" for a contract creation (the node's null),
	// whose contract is ContractAddress.
	To                       string `json:"to"`
	TransactionIndex         uint32 `json:"transactionIndex"`
	Value                    string `json:"value"`
	Type                     uint8  `json:"type"`
	ChainID                  string `json:"chainId"`
	ReceiptCumulativeGasUsed string `json:"receiptCumulativeGasUsed"`
	ReceiptGasUsed           string `json:"receiptGasUsed"`
	ReceiptEffectiveGasPrice string `json:"receiptEffectiveGasPrice"`
	// ReceiptRoot is the block header's receipts root (receipts since
	// Byzantium carry no root of their own).
	ReceiptRoot    string `json:"receiptRoot"`
	BlockTimestamp uint64 `json:"blockTimestamp"`
	// ContractAddress is the contract a successful creation deployed.
	ContractAddress string `json:"contractAddress,omitempty"`
	// The three transfer lists are always present.
	ERC20Transfers   []ERCTransfer `json:"erc20Transfers"`
	ERC721Transfers  []ERCTransfer `json:"erc721Transfers"`
	ERC1155Transfers []ERCTransfer `json:"erc1155Transfers"`
	// InternalTransactions are present (possibly empty) when the webhook's
	// includeInternalTxs is set and the block was traced.
	InternalTransactions []InternalTransaction `json:"internalTransactions,omitzero"`
	// AccessList is present when the tx's type has one.
	AccessList   []AccessListEntry `json:"accessList,omitzero"`
	NetworkToken *NetworkTokenInfo `json:"networkToken,omitempty"`
}

// ERCTransfer is the SDK's ERCTransfer: one token movement of the tx.
type ERCTransfer struct {
	TransactionHash string `json:"transactionHash"`
	// Type is "ERC20", "ERC721" or "ERC1155".
	Type  string `json:"type"`
	From  string `json:"from"`
	To    string `json:"to"`
	Value string `json:"value"`
	// TokenID is set for ERC-721 and ERC-1155 transfers.
	TokenID        string `json:"tokenId,omitempty"`
	BlockTimestamp uint64 `json:"blockTimestamp"`
	LogIndex       uint32 `json:"logIndex"`
	// The token's metadata, under the member of its standard, when the
	// index has read it from the contract.
	ERC20Token   *ERCToken `json:"erc20Token,omitempty"`
	ERC721Token  *ERCToken `json:"erc721Token,omitempty"`
	ERC1155Token *ERCToken `json:"erc1155Token,omitempty"`
}

// ERCToken is the SDK's ERCToken.
type ERCToken struct {
	Address           string `json:"address"`
	Name              string `json:"name"`
	Symbol            string `json:"symbol"`
	Decimals          uint8  `json:"decimals"`
	ValueWithDecimals string `json:"valueWithDecimals"`
}

// InternalTransaction is the SDK's WebhookInternalTransaction.
type InternalTransaction struct {
	From string `json:"from"`
	To   string `json:"to"`
	// InternalTxType is the frame's opcode: "CALL", "CREATE", ...
	InternalTxType  string `json:"internalTxType"`
	Value           string `json:"value"`
	GasUsed         string `json:"gasUsed"`
	GasLimit        string `json:"gasLimit"`
	TransactionHash string `json:"transactionHash"`
}

// AccessListEntry is the SDK's AccessListData: one address of an access
// list with its storage keys.
type AccessListEntry struct {
	AccessAddresses string   `json:"accessAddresses"`
	StorageKeys     []string `json:"storageKeys"`
}

// NetworkTokenInfo is the SDK's NetworkTokenInfo: the tx's value in the
// chain's native token.
type NetworkTokenInfo struct {
	TokenName         string `json:"tokenName,omitempty"`
	TokenSymbol       string `json:"tokenSymbol,omitempty"`
	TokenDecimals     uint8  `json:"tokenDecimals"`
	ValueWithDecimals string `json:"valueWithDecimals"`
}

// Log is the SDK's Log. Absent topics are omitted (the SDK refuses null);
// a log without topics (LOG0) has topic0 "".
type Log struct {
	Address          string `json:"address"`
	Topic0           string `json:"topic0"`
	Topic1           string `json:"topic1,omitempty"`
	Topic2           string `json:"topic2,omitempty"`
	Topic3           string `json:"topic3,omitempty"`
	Data             string `json:"data"`
	TransactionIndex uint32 `json:"transactionIndex"`
	LogIndex         uint32 `json:"logIndex"`
	Removed          bool   `json:"removed"`
}
