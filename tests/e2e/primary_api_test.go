package e2e

import (
	"context"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"
)

// avadata's primary-network endpoints as the tests read them: the shapes of
// the OpenAPI document (PChainTransaction, XChainLinearTransaction,
// CChainImport/ExportTransaction, the three balance shapes,
// PrimaryNetworkBlock), decoded loosely enough that one struct takes all
// three chains' variants.

// primaryNetwork is the {network} path value of the local network: the
// node's network name, as handlers/chains.go resolves it.
const primaryNetwork = "local"

// primaryIndexTimeout bounds waiting for avadata to index the scenario.
const primaryIndexTimeout = 2 * time.Minute

// primaryURL builds /v1/networks/local/blockchains/{chain}/{rest}?{q}.
func primaryURL(chain, rest string, q url.Values) string {
	u := env.base + "/v1/networks/" + primaryNetwork + "/blockchains/" + chain + "/" + rest
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	return u
}

// chainAlias maps "P"/"X"/"C" to the Data API alias.
func chainAlias(chain string) string {
	return map[string]string{"P": "p-chain", "X": "x-chain", "C": "c-chain"}[chain]
}

// apiAssetAmount is AssetAmount, AggregatedAssetAmount and the
// *SharedAsset* variants in one.
type apiAssetAmount struct {
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

// apiUTXO is PChainUtxo and Utxo (X and C) in one. outputIndex is a number
// on P and a string on X/C, so it stays raw.
type apiUTXO struct {
	Addresses         []string       `json:"addresses"`
	Asset             apiAssetAmount `json:"asset"`
	UTXOID            string         `json:"utxoId"`
	TxHash            string         `json:"txHash"`         // P
	CreationTxHash    string         `json:"creationTxHash"` // X, C
	ConsumingTxHash   string         `json:"consumingTxHash"`
	CreatedOnChainID  string         `json:"createdOnChainId"`
	ConsumedOnChainID string         `json:"consumedOnChainId"`
	PlatformLocktime  *uint64        `json:"platformLocktime"`  // P
	StakeableLocktime *uint64        `json:"stakeableLocktime"` // P
	Locktime          *uint64        `json:"locktime"`          // X, C
	Threshold         int            `json:"threshold"`
	UTXOType          string         `json:"utxoType"`
}

// apiPrimaryTx is one item of transactions[] on any of the three chains.
type apiPrimaryTx struct {
	TxHash           string    `json:"txHash"`
	TxType           string    `json:"txType"`
	BlockNumber      string    `json:"blockNumber"`    // P
	BlockTimestamp   *int64    `json:"blockTimestamp"` // P
	BlockHeight      *uint64   `json:"blockHeight"`    // X, C
	Timestamp        *int64    `json:"timestamp"`      // X, C
	BlockHash        string    `json:"blockHash"`
	ConsumedUTXOs    []apiUTXO `json:"consumedUtxos"`
	EmittedUTXOs     []apiUTXO `json:"emittedUtxos"`
	SourceChain      string    `json:"sourceChain"`
	DestinationChain string    `json:"destinationChain"`
	Memo             string    `json:"memo"`
	// EstimatedReward: P staking txs of the primary network.
	EstimatedReward string `json:"estimatedReward"`
	// P: amountBurned; X and C: amountUnlocked - amountCreated.
	AmountBurned   []apiAssetAmount `json:"amountBurned"`
	AmountUnlocked []apiAssetAmount `json:"amountUnlocked"`
	AmountCreated  []apiAssetAmount `json:"amountCreated"`
	EVMInputs      []struct {
		FromAddress string         `json:"fromAddress"`
		Asset       apiAssetAmount `json:"asset"`
	} `json:"evmInputs"`
	EVMOutputs []struct {
		ToAddress string         `json:"toAddress"`
		Asset     apiAssetAmount `json:"asset"`
	} `json:"evmOutputs"`
}

// height is blockNumber (P, a string) or blockHeight (X, C).
func (tx apiPrimaryTx) height(t *testing.T) uint64 {
	t.Helper()
	if tx.BlockHeight != nil {
		return *tx.BlockHeight
	}
	n, err := strconv.ParseUint(tx.BlockNumber, 10, 64)
	require.NoError(t, err, "%s: blockNumber %q", tx.TxHash, tx.BlockNumber)
	return n
}

// time is blockTimestamp (P) or timestamp (X, C).
func (tx apiPrimaryTx) time(t *testing.T) int64 {
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

type apiChainInfo struct {
	ChainName string `json:"chainName"`
	Network   string `json:"network"`
}

type apiTxPage struct {
	Transactions  []apiPrimaryTx `json:"transactions"`
	NextPageToken string         `json:"nextPageToken"`
	ChainInfo     apiChainInfo   `json:"chainInfo"`
}

// apiBalances is the union of PChainBalance, XChainBalances and
// CChainAtomicBalances.
type apiBalances struct {
	Balances  map[string][]apiAssetAmount `json:"balances"`
	ChainInfo apiChainInfo                `json:"chainInfo"`
}

type apiBlock struct {
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

type apiBlockPage struct {
	Blocks        []apiBlock   `json:"blocks"`
	NextPageToken string       `json:"nextPageToken"`
	ChainInfo     apiChainInfo `json:"chainInfo"`
}

// listPrimaryTxs pages through endpoint 4 with q (pageToken added per page)
// and returns every item in order, failing on a repeated txHash.
func listPrimaryTxs(t *testing.T, ctx context.Context, chain string, q url.Values) []apiPrimaryTx {
	t.Helper()
	var all []apiPrimaryTx
	seen := map[string]bool{}
	q = cloneValues(q)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "%s transactions: paging does not end", chain)
		var page apiTxPage
		getOK(t, ctx, primaryURL(chainAlias(chain), "transactions", q), &page)
		require.Equal(t, apiChainInfo{ChainName: chainAlias(chain), Network: primaryNetwork}, page.ChainInfo, "%s chainInfo", chain)
		for _, tx := range page.Transactions {
			require.False(t, seen[tx.TxHash], "%s transactions %v: %s repeated across pages", chain, q, tx.TxHash)
			seen[tx.TxHash] = true
			all = append(all, tx)
		}
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

// listBlocksByNode pages through endpoint 14.
func listBlocksByNode(t *testing.T, ctx context.Context, chain, nodeID string, q url.Values) []apiBlock {
	t.Helper()
	var all []apiBlock
	q = cloneValues(q)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "%s blocks: paging does not end", chain)
		var page apiBlockPage
		getOK(t, ctx, primaryURL(chainAlias(chain), "nodes/"+nodeID+"/blocks", q), &page)
		require.Equal(t, apiChainInfo{ChainName: chainAlias(chain), Network: primaryNetwork}, page.ChainInfo, "%s chainInfo", chain)
		all = append(all, page.Blocks...)
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

func cloneValues(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// waitPrimaryIndexed waits until avadata has indexed P, X and C up to the
// node's current heights, which hold every scenario tx.
func waitPrimaryIndexed(t *testing.T, ctx context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, primaryIndexTimeout)
	defer cancel()
	heights := map[string]uint64{}
	for _, c := range []string{"P", "X", "C"} {
		heights[c] = nodeHeight(t, ctx, env.uri, c)
	}
	waitIndexed(t, ctx, env.base, heights)
}

// primaryFixture is the scenario, indexed.
func primaryFixture(t *testing.T) (*primaryScenario, context.Context) {
	t.Helper()
	s := primaryScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel)
	waitPrimaryIndexed(t, ctx)
	return s, ctx
}

// amounts turns AssetAmount items into asset → amount, requiring each
// asset at most once and every amount a decimal string.
func amounts(t *testing.T, what string, items []apiAssetAmount) map[ids.ID]uint64 {
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

// requireStatus GETs u and requires status code want, returning the reply.
func requireStatus(t *testing.T, ctx context.Context, u string, want int) reply {
	t.Helper()
	r := evmGet(t, ctx, u)
	require.Equal(t, want, r.status, "GET %s: %s", u, r.body)
	return r
}
