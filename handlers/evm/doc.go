// Package evm serves the EVM operations of the Data API for every EVM chain
// the node follows (the C-chain and every subnet-evm chain): transactions,
// transfers, balances, contract metadata, deployments and chains, and the
// metrics service's NFT holders, from the index, with live native balances
// from the node.
package evm
