package pdata

import (
	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
)

// UTXOKind says how a UTXO came to be.
type UTXOKind uint8

const (
	// KindTransfer is an ordinary output (Data API utxoType TRANSFER).
	KindTransfer UTXOKind = iota
	// KindStake is a staking tx's stake output (utxoType STAKE): staked
	// from the staking tx until the RewardValidatorTx returns it.
	KindStake
	// KindReward is a reward paid by a RewardValidatorTx (see RewardType).
	KindReward
)

// Data API rewardType values.
const (
	RewardValidator    = "VALIDATOR"
	RewardDelegator    = "DELEGATOR"
	RewardValidatorFee = "VALIDATOR_FEE"
)

// UTXO is one UTXO a tx creates.
type UTXO struct {
	ID          ids.ID // avax.UTXOID.InputID()
	TxID        ids.ID // the UTXO ID's tx: rewards and returned stake carry the staking tx's ID
	OutputIndex uint32
	Asset       ids.ID
	Amount      uint64 // 0 for outputs without an amount (NFT, mint and property outputs)
	Owners      Owners
	// StakeableLocktime is a P-chain stakeable.LockOut's lock (0 when the
	// output is not one).
	StakeableLocktime uint64
	// Bytes is the UTXO in the chain's codec (avax.UTXO), the Data API's
	// utxoBytes.
	Bytes []byte
	// OutputType names the output type ("secp256k1fx.TransferOutput",
	// "nftfx.MintOutput", ...); the Data API's asset type follows from it.
	OutputType string
	Kind       UTXOKind
	RewardType string // KindReward: RewardValidator, RewardDelegator or RewardValidatorFee
	// StakeStart and StakeEnd are the staking period of a KindStake UTXO
	// (and of a reward's staker).
	StakeStart, StakeEnd int64
	// Exported says the UTXO goes to DestinationChain's atomic memory
	// instead of staying on the chain that creates it. (A flag, because the
	// P-chain's blockchain ID is ids.Empty: a zero DestinationChain can be
	// a real destination.)
	Exported         bool
	DestinationChain ids.ID
	// Payload is an NFT output's payload.
	Payload []byte
	// GroupID is an NFT output's group.
	GroupID uint32
}

// IndexedUTXO is a UTXO as the index knows it: where and when it was
// created, and where and when it was consumed (zero ConsumingTx: unspent).
type IndexedUTXO struct {
	UTXO
	CreatedOn     netinfo.Chain // the chain of the creating tx
	CreatingTx    ids.ID        // the tx that created it (for rewards: the RewardValidatorTx)
	CreatedHeight uint64
	CreatedTime   int64
	// UnstakedTime is when a stake UTXO's staking period ended (its
	// RewardValidatorTx was accepted); 0 while it is staked.
	UnstakedTime int64

	ConsumedOn      netinfo.Chain
	ConsumingTx     ids.ID
	ConsumingHeight uint64
	ConsumingTime   int64
}

// Spent reports whether the UTXO was consumed.
func (u IndexedUTXO) Spent() bool { return u.ConsumingTx != ids.Empty }
