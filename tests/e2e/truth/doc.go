// Package truth is what the node itself says, read over its own APIs and
// decoded here, independently of avadata's parsers: the ground truth every
// end-to-end test compares avadata's answers with, never an earlier answer
// of avadata. It holds what several test packages read: heights and
// JSON-RPC calls (node.go), the primary network's blocks, txs, UTXOs and
// balances (primary.go), and an EVM chain's blocks, receipts and traces
// (evm.go).
package truth
