package pdata

import "math/big"

// AvaxSupply is what the index knows of the AVAX supply after the last
// indexed block of each primary-network chain. A nil figure is one the
// index cannot derive: it was not built from that chain's genesis (or the
// network's rules are unknown), so the figure is left out, never guessed.
type AvaxSupply struct {
	// LastBlockTime is the newest of the chains' last indexed block times
	// (Unix seconds; 0 when none is indexed).
	LastBlockTime int64
	// CurrentSupply is platformvm's current supply after the last P-chain
	// block (nAVAX): the genesis supply plus every staking reward minted.
	CurrentSupply *uint64
	// InitialSupply is the supply the P-chain genesis starts from (nAVAX).
	InitialSupply *uint64
	// PTxFees is the AVAX P-chain txs burned (nAVAX), the balances they
	// gave L1 validators left out.
	PTxFees *uint64
	// L1ValidatorFees is the AVAX L1 validators paid in fees from their
	// balances so far (nAVAX).
	L1ValidatorFees *uint64
	// XBurned is the AVAX X-chain txs burned (nAVAX).
	XBurned *uint64
	// CAtomicBurned is the AVAX C-chain atomic txs burned (nAVAX).
	CAtomicBurned *uint64
	// CEVMBurned is the AVAX C-chain EVM txs paid in fees (wei).
	CEVMBurned *big.Int
	// Locked is the AVAX in unspent UTXOs whose time lock had not passed
	// at the time asked (nAVAX).
	Locked *uint64
}
