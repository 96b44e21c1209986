package dataapi

import (
	"encoding/json"

	"github.com/ava-labs/libevm/common"
)

// The EVM operations' replies. Optional fields are pointers: the tests
// check absent ones are omitted, never null.

// Party is the OpenAPI's RichAddress.
type Party struct {
	Address  string  `json:"address"`
	Name     *string `json:"name"`
	Symbol   *string `json:"symbol"`
	Decimals *int    `json:"decimals"`
	LogoURI  *string `json:"logoUri"`
}

// Method is NativeTransaction.method.
type Method struct {
	CallType   string  `json:"callType"`
	MethodHash string  `json:"methodHash"`
	MethodName *string `json:"methodName"`
}

// NativeTx is NativeTransaction; the last four fields are what
// getDeploymentTransaction and getTransaction add.
type NativeTx struct {
	BlockNumber          string  `json:"blockNumber"`
	BlockTimestamp       int64   `json:"blockTimestamp"`
	BlockHash            string  `json:"blockHash"`
	ChainID              string  `json:"chainId"`
	BlockIndex           int     `json:"blockIndex"`
	TxHash               string  `json:"txHash"`
	TxStatus             string  `json:"txStatus"`
	TxType               int     `json:"txType"`
	GasLimit             string  `json:"gasLimit"`
	GasUsed              string  `json:"gasUsed"`
	GasPrice             string  `json:"gasPrice"`
	Nonce                string  `json:"nonce"`
	From                 Party   `json:"from"`
	To                   Party   `json:"to"`
	Method               *Method `json:"method"`
	Value                string  `json:"value"`
	Input                *string `json:"input"`
	BaseFeePerGas        *string `json:"baseFeePerGas"`
	MaxFeePerGas         *string `json:"maxFeePerGas"`
	MaxPriorityFeePerGas *string `json:"maxPriorityFeePerGas"`
}

// Token is erc20Token, erc721Token and erc1155Token in one.
type Token struct {
	Address      string          `json:"address"`
	Name         *string         `json:"name"`
	Symbol       *string         `json:"symbol"`
	Decimals     *int            `json:"decimals"`
	ErcType      string          `json:"ercType"`
	TokenID      *string         `json:"tokenId"`
	TokenURI     *string         `json:"tokenUri"`
	Metadata     json.RawMessage `json:"metadata"`
	OwnerAddress *string         `json:"ownerAddress"`
	ChainID      *string         `json:"chainId"`
}

// Transfer is Erc20Transfer, Erc721Transfer and Erc1155Transfer in one;
// the block fields are set in listTransfers.
type Transfer struct {
	BlockNumber    *string `json:"blockNumber"`
	BlockTimestamp *int64  `json:"blockTimestamp"`
	BlockHash      *string `json:"blockHash"`
	TxHash         *string `json:"txHash"`
	From           Party   `json:"from"`
	To             Party   `json:"to"`
	LogIndex       int     `json:"logIndex"`
	Value          *string `json:"value"`
	Erc20Token     *Token  `json:"erc20Token"`
	Erc721Token    *Token  `json:"erc721Token"`
	Erc1155Token   *Token  `json:"erc1155Token"`
}

// InternalTx is InternalTransaction.
type InternalTx struct {
	From           Party  `json:"from"`
	To             Party  `json:"to"`
	InternalTxType string `json:"internalTxType"`
	Value          string `json:"value"`
	IsReverted     bool   `json:"isReverted"`
	GasUsed        string `json:"gasUsed"`
	GasLimit       string `json:"gasLimit"`
}

// TxDetails is an entry of listTransactions and the reply of
// getDeploymentTransaction and getTransaction (GetTransactionResponse).
type TxDetails struct {
	NativeTransaction    NativeTx      `json:"nativeTransaction"`
	Erc20Transfers       []Transfer    `json:"erc20Transfers"`
	Erc721Transfers      []Transfer    `json:"erc721Transfers"`
	Erc1155Transfers     []Transfer    `json:"erc1155Transfers"`
	InternalTransactions *[]InternalTx `json:"internalTransactions"`
	NetworkTokenDetails  *struct {
		NetworkToken NetworkToken `json:"networkToken"`
	} `json:"networkTokenDetails"`
}

// NetworkToken is the chain's native token.
type NetworkToken struct {
	Name     string `json:"name"`
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
}

// NativeBalance is nativeTokenBalance.
type NativeBalance struct {
	NetworkToken
	ChainID string `json:"chainId"`
	Balance string `json:"balance"`
}

// Contract is getContractMetadata's reply.
type Contract struct {
	Address           string  `json:"address"`
	ErcType           string  `json:"ercType"`
	Name              *string `json:"name"`
	Symbol            *string `json:"symbol"`
	Decimals          *int    `json:"decimals"`
	DeploymentDetails *struct {
		TxHash                  string  `json:"txHash"`
		DeployerAddress         string  `json:"deployerAddress"`
		DeployerContractAddress *string `json:"deployerContractAddress"`
	} `json:"deploymentDetails"`
}

// Holder is one entry of the NFT holders list (nfts:listHolders on the
// Metrics API).
type Holder struct {
	Address string `json:"address"`
	SortKey uint64 `json:"sortKey"`
}

// Chain is one entry of supportedChains, and getChainInfo's reply.
type Chain struct {
	ChainID         string       `json:"chainId"`
	Status          string       `json:"status"`
	ChainName       string       `json:"chainName"`
	PlatformChainID *string      `json:"platformChainId"`
	SubnetID        *string      `json:"subnetId"`
	VMName          string       `json:"vmName"`
	RPCURL          string       `json:"rpcUrl"`
	NetworkToken    NetworkToken `json:"networkToken"`
}

// NFTHolders is the reply of nfts:listHolders.
type NFTHolders struct {
	Addresses         []Holder `json:"addresses"`
	NFTCollectionName *string  `json:"nftCollectionName"`
	NFTSymbol         *string  `json:"nftSymbol"`
	TotalHolders      uint64   `json:"totalHolders"`
	TotalTokens       uint64   `json:"totalTokens"`
}

// TxHashes lists the tx hashes of entries.
func TxHashes(entries []TxDetails) []common.Hash {
	out := make([]common.Hash, len(entries))
	for i, e := range entries {
		out[i] = common.HexToHash(e.NativeTransaction.TxHash)
	}
	return out
}
