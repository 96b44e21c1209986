package primary

import "encoding/json"

// blockchainReply is the OpenAPI's Blockchain. createBlockNumber is the
// P-chain height of the block that created it; evmChainId is read from
// the genesis when it is an EVM genesis (config.chainId); genesisData is
// the genesis as BlockchainInfo shows it (genesisData), omitted for the
// P-chain, which has none.
type blockchainReply struct {
	CreateBlockTimestamp int64           `json:"createBlockTimestamp"`
	CreateBlockNumber    string          `json:"createBlockNumber"`
	BlockchainID         string          `json:"blockchainId"`
	VMID                 string          `json:"vmId"`
	SubnetID             string          `json:"subnetId"`
	BlockchainName       string          `json:"blockchainName"`
	EVMChainID           *uint64         `json:"evmChainId,omitempty"`
	GenesisData          json.RawMessage `json:"genesisData,omitempty"`
}

// subnetReply is the OpenAPI's Subnet. createBlockIndex is the P-chain
// height of the block that created it. The deprecated ownerAddresses,
// threshold and locktime repeat subnetOwnershipInfo (both required).
type subnetReply struct {
	CreateBlockTimestamp        int64                      `json:"createBlockTimestamp"`
	CreateBlockIndex            string                     `json:"createBlockIndex"`
	SubnetID                    string                     `json:"subnetId"`
	OwnerAddresses              []string                   `json:"ownerAddresses"`
	Threshold                   uint32                     `json:"threshold"`
	Locktime                    uint64                     `json:"locktime"`
	SubnetOwnershipInfo         subnetOwnershipInfo        `json:"subnetOwnershipInfo"`
	IsL1                        bool                       `json:"isL1"`
	L1ConversionTransactionHash string                     `json:"l1ConversionTransactionHash,omitempty"`
	L1ValidatorManagerDetails   *l1ValidatorManagerDetails `json:"l1ValidatorManagerDetails,omitempty"`
	Blockchains                 []blockchainReply          `json:"blockchains"`
}

// listBlockchainsResponse is the OpenAPI's ListBlockchainsResponse.
type listBlockchainsResponse struct {
	NextPageToken string            `json:"nextPageToken,omitempty"`
	Blockchains   []blockchainReply `json:"blockchains"`
}

// listSubnetsResponse is the OpenAPI's ListSubnetsResponse.
type listSubnetsResponse struct {
	NextPageToken string        `json:"nextPageToken,omitempty"`
	Subnets       []subnetReply `json:"subnets"`
}
