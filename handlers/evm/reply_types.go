package evm

// Response shapes of the EVM endpoints, after the OpenAPI schemas of the
// same names (the spec wins where they differ: Price.value is a string,
// indexStatus is lower case). Required fields are plain values, always
// present; optional ones are pointers or omitempty, omitted and never null.
// Big numbers are decimal strings, timestamps integers, addresses EIP-55.
// shaper.go fills them; no endpoint builds these shapes on its own.

// richAddress is the OpenAPI's RichAddress (the spec's Party).
type richAddress struct {
	Name     string `json:"name,omitempty"`
	Symbol   string `json:"symbol,omitempty"`
	Decimals *uint8 `json:"decimals,omitempty"`
	LogoURI  string `json:"logoUri,omitempty"`
	Address  string `json:"address"`
}

// nativeTransaction is the OpenAPI's NativeTransaction.
type nativeTransaction struct {
	BlockNumber    string      `json:"blockNumber"`
	BlockTimestamp uint64      `json:"blockTimestamp"`
	BlockHash      string      `json:"blockHash"`
	ChainID        string      `json:"chainId"`
	BlockIndex     uint32      `json:"blockIndex"`
	TxHash         string      `json:"txHash"`
	TxStatus       string      `json:"txStatus"`
	TxType         uint8       `json:"txType"`
	GasLimit       string      `json:"gasLimit"`
	GasUsed        string      `json:"gasUsed"`
	GasPrice       string      `json:"gasPrice"`
	Nonce          string      `json:"nonce"`
	From           richAddress `json:"from"`
	To             richAddress `json:"to"`
	Method         txMethod    `json:"method"`
	Value          string      `json:"value"`
}

// fullNativeTransaction is the OpenAPI's FullNativeTransactionDetails: what
// the deployment and transaction endpoints show of a transaction.
type fullNativeTransaction struct {
	nativeTransaction
	Input                string `json:"input"`
	BaseFeePerGas        string `json:"baseFeePerGas"`
	MaxFeePerGas         string `json:"maxFeePerGas,omitempty"`
	MaxPriorityFeePerGas string `json:"maxPriorityFeePerGas,omitempty"`
}

// transferBlock is what the token transfers list adds to each transfer
// (Erc20Transfer vs Erc20TransferDetails, ...). A nil *transferBlock
// embedded in a transfer adds nothing to its JSON.
type transferBlock struct {
	BlockNumber    string `json:"blockNumber"`
	BlockTimestamp uint64 `json:"blockTimestamp"`
	BlockHash      string `json:"blockHash"`
	TxHash         string `json:"txHash"`
}

// erc20Token is the OpenAPI's Erc20Token.
type erc20Token struct {
	Address  string `json:"address"`
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals uint8  `json:"decimals"`
	LogoURI  string `json:"logoUri,omitempty"`
	ErcType  string `json:"ercType"`
	Price    *price `json:"price,omitempty"`
}

// nftMetadata is the OpenAPI's Erc721TokenMetadata and Erc1155TokenMetadata:
// ERC-721 tokens carry attributes, ERC-1155 tokens decimals and properties.
type nftMetadata struct {
	IndexStatus                  string `json:"indexStatus"`
	MetadataLastUpdatedTimestamp int64  `json:"metadataLastUpdatedTimestamp,omitempty"`
	Name                         string `json:"name,omitempty"`
	ImageURI                     string `json:"imageUri,omitempty"`
	Description                  string `json:"description,omitempty"`
	AnimationURI                 string `json:"animationUri,omitempty"`
	ExternalURL                  string `json:"externalUrl,omitempty"`
	Background                   string `json:"background,omitempty"`
	Attributes                   string `json:"attributes,omitempty"`
	Decimals                     *uint8 `json:"decimals,omitempty"`
	Properties                   string `json:"properties,omitempty"`
}

// erc721Token is the OpenAPI's Erc721Token.
type erc721Token struct {
	Address      string      `json:"address"`
	Name         string      `json:"name"`
	Symbol       string      `json:"symbol"`
	ErcType      string      `json:"ercType"`
	TokenID      string      `json:"tokenId"`
	TokenURI     string      `json:"tokenUri"`
	Metadata     nftMetadata `json:"metadata"`
	OwnerAddress string      `json:"ownerAddress,omitempty"`
}

// erc1155Token is the OpenAPI's Erc1155Token.
type erc1155Token struct {
	Address  string      `json:"address"`
	ErcType  string      `json:"ercType"`
	TokenID  string      `json:"tokenId"`
	TokenURI string      `json:"tokenUri"`
	Metadata nftMetadata `json:"metadata"`
}

// transferBase is what every token transfer shows: who, and where in the
// block's logs.
type transferBase struct {
	*transferBlock
	From     richAddress `json:"from"`
	To       richAddress `json:"to"`
	LogIndex uint32      `json:"logIndex"`
}

// erc20Transfer is the OpenAPI's Erc20TransferDetails, or Erc20Transfer
// when transferBlock is set.
type erc20Transfer struct {
	transferBase
	Value      string     `json:"value"`
	Erc20Token erc20Token `json:"erc20Token"`
}

// erc721Transfer is the OpenAPI's Erc721TransferDetails, or Erc721Transfer
// when transferBlock is set.
type erc721Transfer struct {
	transferBase
	Erc721Token erc721Token `json:"erc721Token"`
}

// erc1155Transfer is the OpenAPI's Erc1155TransferDetails, or
// Erc1155Transfer when transferBlock is set.
type erc1155Transfer struct {
	transferBase
	Value        string       `json:"value"`
	Erc1155Token erc1155Token `json:"erc1155Token"`
}

// internalTransaction is the OpenAPI's InternalTransactionDetails.
type internalTransaction struct {
	From           richAddress `json:"from"`
	To             richAddress `json:"to"`
	InternalTxType string      `json:"internalTxType"`
	Value          string      `json:"value"`
	IsReverted     bool        `json:"isReverted"`
	GasUsed        string      `json:"gasUsed"`
	GasLimit       string      `json:"gasLimit"`
}

// txLists are the lists a transaction entry carries. A token list is
// omitted when empty, as optional members are: a client reads a present
// list as token activity. internalTransactions is omitted when the block
// was not traced, so "none" and "unknown" stay apart, except in an
// address's entries, which omit it when empty too (addressEntryLists).
type txLists struct {
	Erc20Transfers       []erc20Transfer        `json:"erc20Transfers,omitempty"`
	Erc721Transfers      []erc721Transfer       `json:"erc721Transfers,omitempty"`
	Erc1155Transfers     []erc1155Transfer      `json:"erc1155Transfers,omitempty"`
	InternalTransactions *[]internalTransaction `json:"internalTransactions,omitempty"`
}

// transactionDetails is the OpenAPI's TransactionDetails (spec: address
// transaction entry).
type transactionDetails struct {
	NativeTransaction nativeTransaction `json:"nativeTransaction"`
	txLists
}

// networkToken is the OpenAPI's NetworkToken.
type networkToken struct {
	Name        string `json:"name"`
	Symbol      string `json:"symbol"`
	Decimals    uint8  `json:"decimals"`
	LogoURI     string `json:"logoUri,omitempty"`
	Description string `json:"description,omitempty"`
}

// networkTokenDetails is the OpenAPI's NetworkTokenDetails.
type networkTokenDetails struct {
	NetworkToken    networkToken `json:"networkToken"`
	CurrentPrice    *price       `json:"currentPrice,omitempty"`
	HistoricalPrice *price       `json:"historicalPrice,omitempty"`
}

// getTransactionResponse is the OpenAPI's GetTransactionResponse: the body
// of the deployment and transaction endpoints. teleporterMessageInfo is
// never set: avadata does not decode Teleporter messages.
type getTransactionResponse struct {
	NativeTransaction   fullNativeTransaction `json:"nativeTransaction"`
	NetworkTokenDetails networkTokenDetails   `json:"networkTokenDetails"`
	txLists
}

// nativeTokenBalance is the OpenAPI's NativeTokenBalance.
type nativeTokenBalance struct {
	networkToken
	ChainID      string `json:"chainId"`
	Price        *price `json:"price,omitempty"`
	Balance      string `json:"balance"`
	BalanceValue *price `json:"balanceValue,omitempty"`
}

// evmBlock is the OpenAPI's EvmBlock, and GetEvmBlockResponse (the same
// members).
type evmBlock struct {
	ChainID                    string  `json:"chainId"`
	BlockNumber                string  `json:"blockNumber"`
	BlockTimestamp             uint64  `json:"blockTimestamp"`
	BlockTimestampMilliseconds *uint64 `json:"blockTimestampMilliseconds,omitempty"`
	BlockMinDelayExcess        *uint64 `json:"blockMinDelayExcess,omitempty"`
	BlockHash                  string  `json:"blockHash"`
	TxCount                    uint64  `json:"txCount"`
	BaseFee                    string  `json:"baseFee"`
	GasUsed                    string  `json:"gasUsed"`
	GasLimit                   string  `json:"gasLimit"`
	GasCost                    string  `json:"gasCost"`
	ParentHash                 string  `json:"parentHash"`
	FeesSpent                  string  `json:"feesSpent"`
	// CumulativeTransactions is omitted while the chain's index starts
	// above genesis: it would count from the first indexed block, not
	// the chain's total (history.go).
	CumulativeTransactions string `json:"cumulativeTransactions,omitempty"`
}

// listEvmBlocksResponse is the OpenAPI's ListEvmBlocksResponse.
type listEvmBlocksResponse struct {
	Blocks        []evmBlock `json:"blocks"`
	NextPageToken string     `json:"nextPageToken,omitempty"`
}

// listNativeTransactionsResponse is the OpenAPI's
// ListNativeTransactionsResponse.
type listNativeTransactionsResponse struct {
	Transactions  []nativeTransaction `json:"transactions"`
	NextPageToken string              `json:"nextPageToken,omitempty"`
}

// internalTransactionEntry is the OpenAPI's InternalTransaction: an internal
// transaction with its block and transaction (listInternalTransactions).
// transferBlock has exactly the four block and tx fields it adds.
type internalTransactionEntry struct {
	transferBlock
	internalTransaction
}

// erc20TokenV2 is the OpenAPI's Erc20TokenV2. tokenReputation is required
// and nullable; avadata has no source of reputations, so it is always null
// ("unknown", in the OpenAPI's words).
type erc20TokenV2 struct {
	erc20Token
	TokenReputation *string `json:"tokenReputation"`
}

// erc20TransferV2 is the OpenAPI's Erc20TransferDetailsV2.
type erc20TransferV2 struct {
	transferBase
	Value      string       `json:"value"`
	Erc20Token erc20TokenV2 `json:"erc20Token"`
}

// transactionDetailsV2 is the OpenAPI's TransactionDetailsV2: an address
// transaction entry of listTransactionsV2; every empty list is omitted.
type transactionDetailsV2 struct {
	NativeTransaction    nativeTransaction     `json:"nativeTransaction"`
	Erc20Transfers       []erc20TransferV2     `json:"erc20Transfers,omitempty"`
	Erc721Transfers      []erc721Transfer      `json:"erc721Transfers,omitempty"`
	Erc1155Transfers     []erc1155Transfer     `json:"erc1155Transfers,omitempty"`
	InternalTransactions []internalTransaction `json:"internalTransactions,omitempty"`
}
