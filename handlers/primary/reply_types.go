package primary

import "encoding/json"

// Response shapes of the primary-network operations
// (listLatestPrimaryNetworkTransactions, getBalancesByAddresses,
// listPrimaryNetworkBlocksByNodeId), after the hosted API's OpenAPI schemas of
// the same names: the spec only shows the P-chain shapes, and the SDK validates
// X- and C-chain replies against these. As in the EVM replies, required fields
// are plain values, always present; optional ones are pointers or omitempty,
// omitted and never null. shaper.go and tx_shaper.go fill them.

// primaryChainInfo is the OpenAPI's PrimaryNetworkChainInfo.
type primaryChainInfo struct {
	ChainName string `json:"chainName"` // p-chain, x-chain, c-chain
	Network   string `json:"network"`
}

// assetAmount is the OpenAPI's AssetAmount.
type assetAmount struct {
	AssetID      string `json:"assetId"`
	Name         string `json:"name"`
	Symbol       string `json:"symbol"`
	Denomination uint8  `json:"denomination"`
	Type         string `json:"type"` // secp256k1 or nft
	Amount       string `json:"amount"`
}

// pChainUTXO is the OpenAPI's PChainUtxo.
type pChainUTXO struct {
	Addresses         []string    `json:"addresses"`
	Asset             assetAmount `json:"asset"`
	ConsumedOnChainID string      `json:"consumedOnChainId"`
	CreatedOnChainID  string      `json:"createdOnChainId"`
	UTXOID            string      `json:"utxoId"`
	// Amount and AssetID repeat asset.amount and asset.assetId (deprecated
	// in the OpenAPI but still required).
	Amount         string `json:"amount"`
	AssetID        string `json:"assetId"`
	BlockNumber    string `json:"blockNumber"`
	BlockTimestamp int64  `json:"blockTimestamp"`
	OutputIndex    uint32 `json:"outputIndex"`
	TxHash         string `json:"txHash"`
	UTXOType       string `json:"utxoType"` // STAKE or TRANSFER

	ConsumingTxHash         string  `json:"consumingTxHash,omitempty"`
	UTXOBytes               string  `json:"utxoBytes,omitempty"`
	ConsumingBlockNumber    string  `json:"consumingBlockNumber,omitempty"`
	ConsumingBlockTimestamp *int64  `json:"consumingBlockTimestamp,omitempty"`
	PlatformLocktime        *uint64 `json:"platformLocktime,omitempty"`
	RewardType              string  `json:"rewardType,omitempty"`
	StakeableLocktime       *uint64 `json:"stakeableLocktime,omitempty"`
	Staked                  *bool   `json:"staked,omitempty"`
	Threshold               *uint32 `json:"threshold,omitempty"`
	UTXOEndTimestamp        *int64  `json:"utxoEndTimestamp,omitempty"`
	UTXOStartTimestamp      *int64  `json:"utxoStartTimestamp,omitempty"`
}

// utxo is the OpenAPI's Utxo: the X-chain's and the C-chain's UTXO shape.
type utxo struct {
	Addresses         []string    `json:"addresses"`
	Asset             assetAmount `json:"asset"`
	ConsumedOnChainID string      `json:"consumedOnChainId"`
	CreatedOnChainID  string      `json:"createdOnChainId"`
	UTXOID            string      `json:"utxoId"`
	CreationTxHash    string      `json:"creationTxHash"`
	Locktime          uint64      `json:"locktime"`
	OutputIndex       string      `json:"outputIndex"`
	Threshold         uint32      `json:"threshold"`
	Timestamp         int64       `json:"timestamp"`
	UTXOType          string      `json:"utxoType"`

	ConsumingTxHash      string  `json:"consumingTxHash,omitempty"`
	UTXOBytes            string  `json:"utxoBytes,omitempty"`
	ConsumingTxTimestamp *int64  `json:"consumingTxTimestamp,omitempty"`
	GroupID              *uint32 `json:"groupId,omitempty"`
	Payload              string  `json:"payload,omitempty"`
}

// utxoCredential is the OpenAPI's UtxoCredential. The index keeps no
// signatures, so the lists that require it are empty.
type utxoCredential struct {
	Signature string `json:"signature,omitempty"`
	PublicKey string `json:"publicKey,omitempty"`
}

// blsCredentials is the OpenAPI's BlsCredentials.
type blsCredentials struct {
	PublicKey         string `json:"publicKey"`
	ProofOfPossession string `json:"proofOfPossession"`
}

// subnetOwnershipInfo is the OpenAPI's SubnetOwnershipInfo.
type subnetOwnershipInfo struct {
	Locktime  uint64   `json:"locktime"`
	Threshold uint32   `json:"threshold"`
	Addresses []string `json:"addresses"`
}

// blockchainInfo is the OpenAPI's BlockchainInfo. GenesisData is the
// genesis as a JSON object when it is one (EvmGenesisDto), else a string.
type blockchainInfo struct {
	ChainName   string          `json:"chainName"`
	VMID        string          `json:"vmId"`
	GenesisData json.RawMessage `json:"genesisData,omitempty"`
}

// l1ValidatorManagerDetails is the OpenAPI's L1ValidatorManagerDetails.
type l1ValidatorManagerDetails struct {
	BlockchainID    string `json:"blockchainId"`
	ContractAddress string `json:"contractAddress"`
}

// l1ValidatorDetails is the OpenAPI's L1ValidatorDetailsTransaction. Its
// blsCredentials is an object of unspecified members (the SDK strips them);
// the public key and proof of possession go there, as in BlsCredentials.
type l1ValidatorDetails struct {
	ValidationID     string          `json:"validationId"`
	ValidationIDHex  string          `json:"validationIdHex"`
	NodeID           string          `json:"nodeId"`
	SubnetID         string          `json:"subnetId"`
	Weight           uint64          `json:"weight"`
	RemainingBalance uint64          `json:"remainingBalance"`
	BalanceChange    *uint64         `json:"balanceChange,omitempty"`
	BLSCredentials   *blsCredentials `json:"blsCredentials,omitempty"`
}

// pChainTransaction is the OpenAPI's PChainTransaction.
type pChainTransaction struct {
	TxHash                         string        `json:"txHash"`
	TxType                         string        `json:"txType"`
	BlockTimestamp                 int64         `json:"blockTimestamp"`
	BlockNumber                    string        `json:"blockNumber"`
	BlockHash                      string        `json:"blockHash"`
	ConsumedUTXOs                  []pChainUTXO  `json:"consumedUtxos"`
	EmittedUTXOs                   []pChainUTXO  `json:"emittedUtxos"`
	Value                          []assetAmount `json:"value"`
	AmountBurned                   []assetAmount `json:"amountBurned"`
	AmountStaked                   []assetAmount `json:"amountStaked"`
	AmountL1ValidatorBalanceBurned []assetAmount `json:"amountL1ValidatorBalanceBurned"`

	SourceChain               string                     `json:"sourceChain,omitempty"`
	DestinationChain          string                     `json:"destinationChain,omitempty"`
	StartTimestamp            *int64                     `json:"startTimestamp,omitempty"`
	EndTimestamp              *int64                     `json:"endTimestamp,omitempty"`
	DelegationFeePercent      string                     `json:"delegationFeePercent,omitempty"`
	EstimatedReward           string                     `json:"estimatedReward,omitempty"`
	NodeID                    string                     `json:"nodeId,omitempty"`
	SubnetID                  string                     `json:"subnetId,omitempty"`
	L1ValidatorManagerDetails *l1ValidatorManagerDetails `json:"l1ValidatorManagerDetails,omitempty"`
	L1ValidatorDetails        []l1ValidatorDetails       `json:"l1ValidatorDetails,omitempty"`
	RewardAddresses           []string                   `json:"rewardAddresses,omitempty"`
	Memo                      string                     `json:"memo,omitempty"`
	StakingTxHash             string                     `json:"stakingTxHash,omitempty"`
	RewardTxHash              string                     `json:"rewardTxHash,omitempty"`
	SubnetOwnershipInfo       *subnetOwnershipInfo       `json:"subnetOwnershipInfo,omitempty"`
	BLSCredentials            *blsCredentials            `json:"blsCredentials,omitempty"`
	BlockchainInfo            *blockchainInfo            `json:"blockchainInfo,omitempty"`
}

// xChainAssetDetails is the OpenAPI's XChainAssetDetails.
type xChainAssetDetails struct {
	AssetID            string `json:"assetId"`
	Name               string `json:"name"`
	Symbol             string `json:"symbol"`
	Denomination       uint8  `json:"denomination"`
	Type               string `json:"type"`
	CreatedAtTimestamp int64  `json:"createdAtTimestamp"`
	Cap                string `json:"cap"` // fixed or variable
}

// xChainTxFields are what the OpenAPI's XChainLinearTransaction and
// XChainNonLinearTransaction share.
type xChainTxFields struct {
	TxHash           string              `json:"txHash"`
	ChainFormat      string              `json:"chainFormat"` // linear or non-linear
	Timestamp        int64               `json:"timestamp"`
	TxType           string              `json:"txType"`
	Memo             string              `json:"memo"`
	ConsumedUTXOs    []utxo              `json:"consumedUtxos"`
	EmittedUTXOs     []utxo              `json:"emittedUtxos"`
	AmountUnlocked   []assetAmount       `json:"amountUnlocked"`
	AmountCreated    []assetAmount       `json:"amountCreated"`
	SourceChain      string              `json:"sourceChain,omitempty"`
	DestinationChain string              `json:"destinationChain,omitempty"`
	AssetCreated     *xChainAssetDetails `json:"assetCreated,omitempty"`
}

// xChainLinearTransaction is the OpenAPI's XChainLinearTransaction: a tx of
// a block (the genesis txs included, in block 0).
type xChainLinearTransaction struct {
	xChainTxFields
	BlockHeight uint64 `json:"blockHeight"`
	BlockHash   string `json:"blockHash"`
}

// xChainNonLinearTransaction is the OpenAPI's XChainNonLinearTransaction: a
// tx of the pre-Cortina DAG, accepted in vertices rather than a block.
type xChainNonLinearTransaction struct {
	xChainTxFields
	Vertices []transactionVertexDetail `json:"vertices"`
}

// transactionVertexDetail is the OpenAPI's TransactionVertexDetail.
type transactionVertexDetail struct {
	Hash      string `json:"hash"`
	Height    uint64 `json:"height"` // the vertex's DAG height
	Timestamp int64  `json:"timestamp"`
}

// evmInput is the OpenAPI's EVMInput.
type evmInput struct {
	FromAddress string           `json:"fromAddress"`
	Asset       assetAmount      `json:"asset"`
	Credentials []utxoCredential `json:"credentials"`
}

// evmOutput is the OpenAPI's EVMOutput.
type evmOutput struct {
	ToAddress string      `json:"toAddress"`
	Asset     assetAmount `json:"asset"`
}

// cChainAtomicBase is what the OpenAPI's CChainImportTransaction and
// CChainExportTransaction share.
type cChainAtomicBase struct {
	TxHash           string        `json:"txHash"`
	BlockHeight      uint64        `json:"blockHeight"`
	BlockHash        string        `json:"blockHash"`
	Timestamp        int64         `json:"timestamp"`
	Memo             string        `json:"memo"`
	AmountUnlocked   []assetAmount `json:"amountUnlocked"`
	AmountCreated    []assetAmount `json:"amountCreated"`
	SourceChain      string        `json:"sourceChain"`
	DestinationChain string        `json:"destinationChain"`
	TxType           string        `json:"txType"` // ImportTx or ExportTx
}

// cChainImportTransaction is the OpenAPI's CChainImportTransaction.
type cChainImportTransaction struct {
	cChainAtomicBase
	EVMOutputs    []evmOutput `json:"evmOutputs"`
	ConsumedUTXOs []utxo      `json:"consumedUtxos"`
}

// cChainExportTransaction is the OpenAPI's CChainExportTransaction.
type cChainExportTransaction struct {
	cChainAtomicBase
	EVMInputs    []evmInput `json:"evmInputs"`
	EmittedUTXOs []utxo     `json:"emittedUtxos"`
}

// listPrimaryTxsResponse is ListPChainTransactionsResponse,
// ListXChainTransactionsResponse or ListCChainAtomicTransactionsResponse:
// Transactions holds the chain's tx shapes.
type listPrimaryTxsResponse struct {
	Transactions  []any            `json:"transactions"`
	ChainInfo     primaryChainInfo `json:"chainInfo"`
	NextPageToken string           `json:"nextPageToken,omitempty"`
}

// aggregatedAssetAmount is the OpenAPI's AggregatedAssetAmount.
type aggregatedAssetAmount struct {
	assetAmount
	UTXOCount int `json:"utxoCount"`
}

// sharedAssetAmount is the OpenAPI's PChainSharedAsset, and the spec's
// atomic memory balance of every chain (the OpenAPI's
// XChainSharedAssetBalance / CChainSharedAssetBalance lack status).
type sharedAssetAmount struct {
	aggregatedAssetAmount
	SharedWithChainID string `json:"sharedWithChainId"`
	Status            string `json:"status"`
}

// pChainBalance is the OpenAPI's PChainBalance.
type pChainBalance struct {
	UnlockedUnstaked     []aggregatedAssetAmount `json:"unlockedUnstaked"`
	UnlockedStaked       []aggregatedAssetAmount `json:"unlockedStaked"`
	LockedPlatform       []aggregatedAssetAmount `json:"lockedPlatform"`
	LockedStakeable      []aggregatedAssetAmount `json:"lockedStakeable"`
	LockedStaked         []aggregatedAssetAmount `json:"lockedStaked"`
	PendingStaked        []aggregatedAssetAmount `json:"pendingStaked"`
	AtomicMemoryUnlocked []sharedAssetAmount     `json:"atomicMemoryUnlocked"`
	AtomicMemoryLocked   []sharedAssetAmount     `json:"atomicMemoryLocked"`
}

// xChainBalances is the OpenAPI's XChainBalances.
type xChainBalances struct {
	Locked               []aggregatedAssetAmount `json:"locked"`
	Unlocked             []aggregatedAssetAmount `json:"unlocked"`
	AtomicMemoryUnlocked []sharedAssetAmount     `json:"atomicMemoryUnlocked"`
	AtomicMemoryLocked   []sharedAssetAmount     `json:"atomicMemoryLocked"`
}

// cChainAtomicBalances is the OpenAPI's CChainAtomicBalances.
type cChainAtomicBalances struct {
	AtomicMemoryUnlocked []sharedAssetAmount `json:"atomicMemoryUnlocked"`
	AtomicMemoryLocked   []sharedAssetAmount `json:"atomicMemoryLocked"`
}

// primaryBalancesResponse is ListPChainBalancesResponse,
// ListXChainBalancesResponse or ListCChainAtomicBalancesResponse.
type primaryBalancesResponse struct {
	Balances  any              `json:"balances"`
	ChainInfo primaryChainInfo `json:"chainInfo"`
}

// proposerDetails is the OpenAPI's ProposerDetails (every field optional).
type proposerDetails struct {
	ProposerID           string  `json:"proposerId,omitempty"`
	ProposerParentID     string  `json:"proposerParentId,omitempty"`
	ProposerNodeID       string  `json:"proposerNodeId,omitempty"`
	ProposerPChainHeight *uint64 `json:"proposerPChainHeight,omitempty"`
	ProposerTimestamp    *int64  `json:"proposerTimestamp,omitempty"`
}

// primaryNetworkBlock is the OpenAPI's PrimaryNetworkBlock. currentSupply,
// l1ValidatorsAccruedFees and activeL1Validators are the P-chain's state
// after the block, when the index tracks it (omitted otherwise).
type primaryNetworkBlock struct {
	BlockNumber             string           `json:"blockNumber"`
	BlockHash               string           `json:"blockHash"`
	ParentHash              string           `json:"parentHash"`
	BlockTimestamp          int64            `json:"blockTimestamp"`
	BlockType               string           `json:"blockType"`
	TxCount                 int              `json:"txCount"`
	Transactions            []string         `json:"transactions"`
	BlockSizeBytes          int              `json:"blockSizeBytes"`
	L1ValidatorsAccruedFees *uint64          `json:"l1ValidatorsAccruedFees,omitempty"`
	ActiveL1Validators      *uint64          `json:"activeL1Validators,omitempty"`
	CurrentSupply           string           `json:"currentSupply,omitempty"`
	ProposerDetails         *proposerDetails `json:"proposerDetails,omitempty"`
}

// listPrimaryBlocksResponse is the OpenAPI's ListPrimaryNetworkBlocksResponse.
type listPrimaryBlocksResponse struct {
	Blocks        []primaryNetworkBlock `json:"blocks"`
	ChainInfo     primaryChainInfo      `json:"chainInfo"`
	NextPageToken string                `json:"nextPageToken,omitempty"`
}
