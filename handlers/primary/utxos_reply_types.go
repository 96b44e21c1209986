package primary

// Response shapes of the UTXO and address-activity operations
// (getUtxosByAddresses, getLastActivityTimestampByAddresses,
// getChainIdsForAddresses and their V2 forms), after the OpenAPI's schemas
// of the same names.

// listPChainUTXOsResponse is the OpenAPI's ListPChainUtxosResponse.
type listPChainUTXOsResponse struct {
	NextPageToken string           `json:"nextPageToken,omitempty"`
	UTXOs         []pChainUTXO     `json:"utxos"`
	ChainInfo     primaryChainInfo `json:"chainInfo"`
}

// listUTXOsResponse is the OpenAPI's ListUtxosResponse (X- and C-chain).
type listUTXOsResponse struct {
	NextPageToken string           `json:"nextPageToken,omitempty"`
	UTXOs         []utxo           `json:"utxos"`
	ChainInfo     primaryChainInfo `json:"chainInfo"`
}

// lastActivityTimestamp is the OpenAPI's LastActivityTimestamp.
type lastActivityTimestamp struct {
	Timestamp   int64  `json:"timestamp"`
	BlockNumber string `json:"blockNumber"`
	TxHash      string `json:"txHash"`
	UTXOID      string `json:"utxoId"`
	IsConsumed  bool   `json:"isConsumed"`
	ChainName   string `json:"chainName"` // p-chain, x-chain, c-chain
	Network     string `json:"network"`   // mainnet or fuji (PrimaryNetworkType)
}

// chainAddressChainIDMapListResponse is the OpenAPI's
// ChainAddressChainIdMapListResponse.
type chainAddressChainIDMapListResponse struct {
	Addresses []chainAddressChainIDMap `json:"addresses"`
}

// chainAddressChainIDMap is the OpenAPI's ChainAddressChainIdMap.
type chainAddressChainIDMap struct {
	Address       string   `json:"address"`
	BlockchainIDs []string `json:"blockchainIds"`
}
