// Package evmdata is the neutral domain model of one EVM chain's accepted
// data: what a source reads from the node and derives (blocks, transactions
// with their receipts, token transfers, internal transactions, contract
// creations), what the store writes and what the handlers serve. It depends
// on nothing of avadata's, so every layer along the data's path can share it
// without the store owning the model.
package evmdata
