package pdata

import (
	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/txsig"
)

// Tx is one accepted primary-network transaction, decoded, with every effect
// it had on the UTXO set already decided (a proposal tx carries the effects
// of its accepted option, see Outcome).
type Tx struct {
	ID ids.ID
	// Type is the Data API's PrimaryNetworkTxType name (AddValidatorTx,
	// BaseTx, CreateAssetTx, ImportTx, ...).
	Type string
	// Bytes are the signed tx bytes as accepted: platformvm or avm tx codec,
	// or coreth's atomic tx codec for C-chain atomic txs.
	Bytes   []byte
	Outcome Outcome
	Memo    []byte

	// Consumed are the UTXOs the tx spends, in input order (imported ones
	// included: they come from SourceChain's atomic memory).
	Consumed []Input
	// Produced are the UTXOs the tx creates: outputs, exports (spendable on
	// DestinationChain), stake, returned stake and rewards (which carry the
	// staking tx's ID, see UTXO), asset states and operation outputs.
	Produced []UTXO
	// Unstaked are stake UTXOs this tx ends the staking period of
	// (RewardValidatorTx): from then on they are ordinary UTXOs again.
	Unstaked []ids.ID

	SourceChain      ids.ID // ImportTx
	DestinationChain ids.ID // ExportTx

	// EVMInputs and EVMOutputs are the C-chain side of an atomic tx.
	EVMInputs  []EVMAmount
	EVMOutputs []EVMAmount

	Staker *Staker // validator and delegator txs
	// RewardOf is the staking tx a RewardValidatorTx ends.
	RewardOf ids.ID
	// NodeID is the node a RewardValidatorTx rewards (known once its
	// staking tx is read) or a RemoveSubnetValidatorTx removes.
	NodeID ids.NodeID

	Subnet      ids.ID  // the subnet a subnet tx acts on (or creates)
	SubnetOwner *Owners // CreateSubnetTx, TransferSubnetOwnershipTx
	Blockchain  *Blockchain
	// L1Validators are the validators a ConvertSubnetToL1Tx,
	// RegisterL1ValidatorTx, SetL1ValidatorWeightTx,
	// IncreaseL1ValidatorBalanceTx or DisableL1ValidatorTx names.
	L1Validators []L1Validator
	L1Manager    *L1Manager // ConvertSubnetToL1Tx
	// ValidationID is the L1 validation an L1 validator tx acts on (for
	// ConvertSubnetToL1Tx, one per validator, see L1Validators).
	ValidationID ids.ID

	Asset *Asset // CreateAssetTx: the asset it creates

	// L1Refund says the last of Produced is an L1 validator's refunded
	// balance (DisableL1ValidatorTx, SetL1ValidatorWeightTx to 0), which
	// P-chain state pays, not the tx's inputs.
	L1Refund bool
}

// Input is one spent UTXO as the spending tx names it.
type Input struct {
	UTXOID      ids.ID // avax.UTXOID.InputID(): TxID.Prefix(OutputIndex)
	TxID        ids.ID
	OutputIndex uint32
	Asset       ids.ID
	Amount      uint64
	// Signers are the addresses whose signatures the credential of this
	// input holds (recovered from the signatures when asked); they stand
	// for the spender when the spent UTXO's own row is not known yet.
	Signers *txsig.Signers
}

// EVMAmount is one C-chain account credit or debit of an atomic tx.
type EVMAmount struct {
	Address [20]byte
	Asset   ids.ID
	Amount  uint64
}

// Owners are the addresses that may spend an output, or own a reward or a
// subnet.
type Owners struct {
	Threshold uint32
	Locktime  uint64
	Addrs     []ids.ShortID
}

// Staker is what a validator or delegator tx adds.
type Staker struct {
	Delegator bool
	NodeID    ids.NodeID
	Subnet    ids.ID
	Start     int64 // Unix seconds; post-Durango: the chain time at acceptance
	End       int64
	Weight    uint64
	// DelegationShares is the validator's fee in parts per million.
	DelegationShares uint32
	RewardsOwner     *Owners // validation rewards (validator) or rewards (delegator)
	// DelegationRewardsOwner receives a validator's delegation fees.
	DelegationRewardsOwner *Owners
	BLSPublicKey           []byte // compressed, 48 bytes; nil when none
	BLSProofOfPossession   []byte // 96 bytes; nil when none
	// Stake are the IDs of the stake UTXOs (staking tx, len(Outs)+i).
	Stake []ids.ID
	// PendingPriority is the staker's txs.Priority in platformvm's pending
	// set (0 for a staker with none): before Durango, stakers that start
	// at one time are promoted in this order, and each promotion's reward
	// depends on the supply the ones before it left.
	PendingPriority uint8
}

// Blockchain is what a CreateChainTx creates.
type Blockchain struct {
	ID      ids.ID // the CreateChainTx's ID
	Name    string
	VMID    ids.ID
	Genesis []byte
}

// L1Validator is one L1 validator as an L1 tx names it.
type L1Validator struct {
	ValidationID          ids.ID
	NodeID                ids.NodeID
	Subnet                ids.ID
	Weight                uint64
	Balance               uint64 // ConvertSubnetToL1Tx and RegisterL1ValidatorTx: the initial balance
	BalanceChange         uint64 // IncreaseL1ValidatorBalanceTx
	BLSPublicKey          []byte
	BLSProofOfPossession  []byte
	RemainingBalanceOwner *Owners
	DeactivationOwner     *Owners
}

// L1Manager is the validator manager a ConvertSubnetToL1Tx names.
type L1Manager struct {
	BlockchainID ids.ID
	Address      []byte
}

// Asset describes an X-chain asset (or AVAX).
type Asset struct {
	ID           ids.ID
	Name         string
	Symbol       string
	Denomination uint8
	// Type is the Data API's PrimaryNetworkAssetType: "secp256k1" or "nft".
	Type string
}
