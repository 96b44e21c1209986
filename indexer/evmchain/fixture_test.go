package evmchain

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/nodeapi"
)

// The fixture is block 42 of a C-chain as coreth answers for it (testdata/):
// eth_getBlockByNumber(42, true), eth_getBlockReceipts(42) and
// debug_traceBlockByNumber(42, callTracer). Its txs, in order:
//
//	0 legacy value transfer EWOQ -> Bob
//	1 EIP-1559 ERC-20 transfer, with a malformed Transfer and an Approval log
//	2 contract creation whose constructor CREATE2s a child
//	3 ERC-721 mint
//	4 ERC-1155 TransferSingle, TransferBatch and a malformed TransferBatch
//	5 reverted ERC-20 transfer with an inner value call
//	6 call to a forwarder: nested value calls, CREATE2, a reverted frame
//	  with a CREATE below it, a STATICCALL, a DELEGATECALL, a failed CREATE
const fixtureHeight = 42

var (
	// Addresses of the fixture (read-only).
	addrEWOQ        = common.HexToAddress("0x8db97c7cece249c2b98bdc0226cc4c2a57bf52fc")
	addrBob         = common.HexToAddress("0x5b38da6a701c568545dcfcb03fcb875f56beddc4")
	addrERC20       = common.HexToAddress("0x17aab10608a1a6e8a6c1bd2d2e5c0f6c2b4a7e31")
	addrERC721      = common.HexToAddress("0x2c6a8e7b1f0d3e4c5b6a79808f9e0d1c2b3a4958")
	addrERC1155     = common.HexToAddress("0x3d7b9f8c2e1d4f5a6b7c8d9e0f1a2b3c4d5e6f70")
	addrForwarder   = common.HexToAddress("0x4e8cafb3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7")
	addrNewContract = common.HexToAddress("0x52c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a09")
	addrNewChild    = common.HexToAddress("0x6f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6")
	addrSink        = common.HexToAddress("0x7a6b5c4d3e2f10fedcba9876543210fedcba9876")
	addrChild2      = common.HexToAddress("0x8b7c6d5e4f30a1b2c3d4e5f60718293a4b5c6d7e")
	addrReverter    = common.HexToAddress("0x9c8d7e6f5a4b3c2d1e0f1a2b3c4d5e6f7a8b9c0d")
)

// readFixture decodes testdata/name into v.
func readFixture(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v), name)
}

// fixture returns fresh copies of the fixture's block data and traces.
func fixture(t testing.TB) (nodeapi.EVMBlockData, []nodeapi.EVMTxTrace) {
	t.Helper()
	var data nodeapi.EVMBlockData
	readFixture(t, "block.json", &data.Block)
	readFixture(t, "receipts.json", &data.Receipts)
	var traces []nodeapi.EVMTxTrace
	readFixture(t, "traces.json", &traces)
	return data, traces
}
