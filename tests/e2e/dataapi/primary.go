package dataapi

import (
	"strconv"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"
)

// The primary network's replies as the tests read them: the shapes of the
// OpenAPI document (PChainTransaction, XChainLinearTransaction,
// CChainImport/ExportTransaction, the three balance shapes,
// PrimaryNetworkBlock), decoded loosely enough that one struct takes all
// three chains' variants.

// AssetAmount is AssetAmount, AggregatedAssetAmount and the
// *SharedAsset* variants in one.
type AssetAmount struct {
	AssetID           string `json:"assetId"`
	Name              string `json:"name"`
	Symbol            string `json:"symbol"`
	Denomination      int    `json:"denomination"`
	Type              string `json:"type"`
	Amount            string `json:"amount"`
	UTXOCount         *int   `json:"utxoCount"`
	SharedWithChainID string `json:"sharedWithChainId"`
	Status            string `json:"status"`
}

// UTXO is PChainUtxo and Utxo (X and C) in one. outputIndex is a number
// on P and a string on X/C, so it stays raw.
type UTXO struct {
	Addresses         []string    `json:"addresses"`
	Asset             AssetAmount `json:"asset"`
	UTXOID            string      `json:"utxoId"`
	TxHash            string      `json:"txHash"`         // P
	CreationTxHash    string      `json:"creationTxHash"` // X, C
	ConsumingTxHash   string      `json:"consumingTxHash"`
	CreatedOnChainID  string      `json:"createdOnChainId"`
	ConsumedOnChainID string      `json:"consumedOnChainId"`
	PlatformLocktime  *uint64     `json:"platformLocktime"`  // P
	StakeableLocktime *uint64     `json:"stakeableLocktime"` // P
	Locktime          *uint64     `json:"locktime"`          // X, C
	Threshold         int         `json:"threshold"`
	UTXOType          string      `json:"utxoType"`
}

// PrimaryTx is one item of transactions[] on any of the three chains.
type PrimaryTx struct {
	TxHash           string  `json:"txHash"`
	TxType           string  `json:"txType"`
	BlockNumber      string  `json:"blockNumber"`    // P
	BlockTimestamp   *int64  `json:"blockTimestamp"` // P
	BlockHeight      *uint64 `json:"blockHeight"`    // X, C
	Timestamp        *int64  `json:"timestamp"`      // X, C
	BlockHash        string  `json:"blockHash"`
	ConsumedUTXOs    []UTXO  `json:"consumedUtxos"`
	EmittedUTXOs     []UTXO  `json:"emittedUtxos"`
	SourceChain      string  `json:"sourceChain"`
	DestinationChain string  `json:"destinationChain"`
	Memo             string  `json:"memo"`
	// EstimatedReward: P staking txs of the primary network.
	EstimatedReward string `json:"estimatedReward"`
	// P: amountBurned; X and C: amountUnlocked - amountCreated.
	AmountBurned   []AssetAmount `json:"amountBurned"`
	AmountUnlocked []AssetAmount `json:"amountUnlocked"`
	AmountCreated  []AssetAmount `json:"amountCreated"`
	EVMInputs      []struct {
		FromAddress string      `json:"fromAddress"`
		Asset       AssetAmount `json:"asset"`
	} `json:"evmInputs"`
	EVMOutputs []struct {
		ToAddress string      `json:"toAddress"`
		Asset     AssetAmount `json:"asset"`
	} `json:"evmOutputs"`
}

// Height is blockNumber (P, a string) or blockHeight (X, C).
func (tx PrimaryTx) Height(t *testing.T) uint64 {
	t.Helper()
	if tx.BlockHeight != nil {
		return *tx.BlockHeight
	}
	n, err := strconv.ParseUint(tx.BlockNumber, 10, 64)
	require.NoError(t, err, "%s: blockNumber %q", tx.TxHash, tx.BlockNumber)
	return n
}

// Time is blockTimestamp (P) or timestamp (X, C).
func (tx PrimaryTx) Time(t *testing.T) int64 {
	t.Helper()
	switch {
	case tx.BlockTimestamp != nil:
		return *tx.BlockTimestamp
	case tx.Timestamp != nil:
		return *tx.Timestamp
	}
	t.Fatalf("%s: neither blockTimestamp nor timestamp", tx.TxHash)
	return 0
}

// ChainInfo is a primary-network listing's chainInfo.
type ChainInfo struct {
	ChainName string `json:"chainName"`
	Network   string `json:"network"`
}

// TxPage is a page of listLatestPrimaryNetworkTransactions (or of
// listActivePrimaryNetworkStakingTransactions).
type TxPage struct {
	Transactions  []PrimaryTx `json:"transactions"`
	NextPageToken string      `json:"nextPageToken"`
	ChainInfo     ChainInfo   `json:"chainInfo"`
}

// Balances is the union of PChainBalance, XChainBalances and
// CChainAtomicBalances.
type Balances struct {
	Balances  map[string][]AssetAmount `json:"balances"`
	ChainInfo ChainInfo                `json:"chainInfo"`
}

// Block is PrimaryNetworkBlock.
type Block struct {
	BlockNumber     string   `json:"blockNumber"`
	BlockHash       string   `json:"blockHash"`
	ParentHash      string   `json:"parentHash"`
	BlockTimestamp  int64    `json:"blockTimestamp"`
	BlockType       string   `json:"blockType"`
	TxCount         int      `json:"txCount"`
	Transactions    []string `json:"transactions"`
	BlockSizeBytes  int      `json:"blockSizeBytes"`
	ProposerDetails *struct {
		ProposerID           string `json:"proposerId"`
		ProposerParentID     string `json:"proposerParentId"`
		ProposerNodeID       string `json:"proposerNodeId"`
		ProposerPChainHeight uint64 `json:"proposerPChainHeight"`
		ProposerTimestamp    int64  `json:"proposerTimestamp"`
	} `json:"proposerDetails"`
}

// BlockPage is a page of listPrimaryNetworkBlocksByNodeId.
type BlockPage struct {
	Blocks        []Block   `json:"blocks"`
	NextPageToken string    `json:"nextPageToken"`
	ChainInfo     ChainInfo `json:"chainInfo"`
}

// Amounts turns AssetAmount items into asset → amount, requiring each
// asset at most once and every amount a decimal string.
func Amounts(t *testing.T, what string, items []AssetAmount) map[ids.ID]uint64 {
	t.Helper()
	out := map[ids.ID]uint64{}
	for _, a := range items {
		id, err := ids.FromString(a.AssetID)
		require.NoError(t, err, "%s: assetId %q", what, a.AssetID)
		n, err := strconv.ParseUint(a.Amount, 10, 64)
		require.NoError(t, err, "%s: amount %q of %s", what, a.Amount, a.AssetID)
		_, dup := out[id]
		require.False(t, dup, "%s: asset %s listed twice", what, id)
		if n != 0 {
			out[id] = n
		}
	}
	return out
}
