// Package primary serves the primary network's operations of the Data API:
// P-chain, X-chain (linear and DAG) and C-chain atomic transactions with
// their UTXOs, balances, blocks (latest, by ID or height, by proposer) and
// X-chain vertices (latest, by height, by ID), and
// staking (validators, delegators, rewards, staking transactions), from the
// index, with live P-chain state for active validations.
package primary
