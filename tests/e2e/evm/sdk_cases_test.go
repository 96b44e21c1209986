package evm

// The SDK calls of TestEVMSDKConformance (sdk_test.go): what each call
// sends, built from the shared fixture's real addresses, blocks and tokens,
// and what it must come to.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// sdkCheck is one SDK call and what it must come to.
type sdkCheck = harness.SDKCheck

// sdkReq is an SDK request object.
type sdkReq = harness.SDKReq

// sdkCall is a call that must succeed.
func sdkCall(name, fn string, req sdkReq) sdkCheck { return harness.SDKSucceeds(name, fn, req) }

// sdkBad is a call that must fail with the typed error class and status.
func sdkBad(name, fn string, req sdkReq, class string, status int) sdkCheck {
	return harness.SDKFails(name, fn, req, class, status)
}

// networkSDKChecks are the calls about the whole network: every followed
// chain, an address across chains, the service's health, an export.
func networkSDKChecks(fixtures []*evmFixture) []sdkCheck {
	f := fixtures[0]
	me := f.ewoq.Address().Hex()
	var chains []string
	for _, g := range fixtures {
		chains = append(chains, g.chainID())
	}
	first, last := f.blockTime(f.firstBlock), f.blockTime(f.lastBlock)
	export := sdkReq{"type": "TRANSACTION_EXPORT_EVM", "firstDate": first.Format(time.DateOnly),
		"lastDate": last.Format(time.DateOnly), "options": sdkReq{"addresses": []string{me}, "includeChains": chains}}
	result := sdkCheck{SDKCase: harness.SDKCase{
		Name: "export result", Func: "dataOperationsGetResult", Request: sdkReq{},
		RequestFrom: &harness.SDKRequestFrom{Case: "export", Path: "operationId", Param: "operationId"},
		PollUntil:   &harness.SDKPollUntil{Path: "operationStatus", NotIn: []string{"RUNNING"}, TimeoutMs: 90_000, IntervalMs: 500},
	}, Check: func(t *testing.T, result json.RawMessage) {
		var op struct {
			OperationStatus string `json:"operationStatus"`
			Metadata        struct {
				DownloadURL string `json:"downloadUrl"`
			} `json:"metadata"`
		}
		require.NoError(t, json.Unmarshal(result, &op))
		require.Contains(t, []string{"COMPLETED", "COMPLETED_WITH_WARNING"}, op.OperationStatus, "the export finished: %s", result)
		require.NotEmpty(t, op.Metadata.DownloadURL, "a finished export has a download URL: %s", result)
	}}
	return []sdkCheck{
		sdkCall("supported chains", "dataEvmChainsList", sdkReq{}).Some(),
		sdkCall("latest blocks of all chains", "dataEvmBlocksListLatestAllChains", sdkReq{"pageSize": 5}).Some(),
		sdkCall("latest transactions of all chains", "dataEvmTransactionsListLatestAllChains", sdkReq{"pageSize": 5}).Some(),
		sdkCall("latest failed transactions of all chains", "dataEvmTransactionsListLatestAllChains", sdkReq{"status": "failed", "pageSize": 5}).Some(),
		sdkCall("all latest blocks (deprecated alias)", "dataEvmChainsListAllLatestBlocks", sdkReq{"pageSize": 5}).Some(),
		sdkCall("all latest transactions (deprecated alias)", "dataEvmChainsListAllLatestTransactions", sdkReq{"pageSize": 5}).Some(),
		sdkCall("address chains", "dataEvmAddressChainsList", sdkReq{"address": me}).Some(),
		sdkCall("address chains (deprecated alias)", "dataEvmChainsGetAddressChains", sdkReq{"address": me}).Some(),
		sdkBad("address chains of a malformed address", "dataEvmAddressChainsList", sdkReq{"address": "0x1234"}, "BadRequestError", 400),
		sdkCall("health check", "dataHealthCheck", sdkReq{}),
		sdkCall("live check", "dataLiveCheck", sdkReq{}),
		sdkCall("export", "dataOperationsExportTransactions", export).Keyed(),
		result.Keyed(),
		sdkBad("export without an API key", "dataOperationsExportTransactions", export, "UnauthorizedError", 401),
		sdkBad("result of an unknown export", "dataOperationsGetResult", sdkReq{"operationId": "no-such-operation"}, "NotFoundError", 404).Keyed(),
	}
}

// chainSDKChecks are the calls about one EVM chain.
func chainSDKChecks(t *testing.T, f *evmFixture) []sdkCheck {
	chain := f.chainID()
	at := func(r sdkReq) sdkReq { r["chainId"] = chain; return r }
	me, user := f.ewoq.Address().Hex(), f.user.Address().Hex()
	erc20, erc721, erc1155, factory := f.erc20.Hex(), f.erc721.Hex(), f.erc1155.Hex(), f.factory.Hex()
	first, last := f.firstBlock, f.lastBlock
	window := func(r sdkReq) sdkReq { r["startBlock"], r["endBlock"] = first, last; return r }
	transferTx := f.truthTx(t, "ERC-20 transfer")
	unknownHash := common.HexToHash("0xab" + strings.Repeat("0", 60) + "42").Hex()
	nft := f.erc721IDs[0].String()
	var checks []sdkCheck
	add := func(cs ...sdkCheck) {
		for _, c := range cs {
			c.Name = f.name() + ": " + c.Name
			if c.RequestFrom != nil {
				c.RequestFrom.Case = f.name() + ": " + c.RequestFrom.Case
			}
			checks = append(checks, c)
		}
	}

	// Served before issue 17.
	add(
		sdkCall("chain info", "dataEvmChainsGet", at(sdkReq{})),
		sdkCall("chain info by blockchain ID", "dataEvmChainsGet", sdkReq{"chainId": f.chain.BlockchainID.String()}),
		sdkCall("transactions of EWOQ", "dataEvmAddressTransactionsList", at(sdkReq{"address": me, "pageSize": 10})).Some().AllPages(20),
		sdkCall("transactions of EWOQ, oldest first in the window", "dataEvmAddressTransactionsList",
			at(window(sdkReq{"address": me, "sortOrder": "asc", "pageSize": 5}))).Some().AllPages(20),
		sdkCall("transactions of a recipient", "dataEvmAddressTransactionsList", at(sdkReq{"address": f.recipients[0].Hex()})).Some().AllPages(5),
		sdkCall("transactions of the factory", "dataEvmAddressTransactionsList", at(sdkReq{"address": factory})).Some().AllPages(5),
		sdkCall("token transfers of the ERC-20", "dataEvmContractsListTransfers", at(sdkReq{"address": erc20, "pageSize": 2})).Some().AllPages(20),
		sdkCall("token transfers of the ERC-721", "dataEvmContractsListTransfers", at(window(sdkReq{"address": erc721}))).Some().AllPages(5),
		sdkCall("token transfers of the ERC-1155", "dataEvmContractsListTransfers", at(sdkReq{"address": erc1155})).Some().AllPages(5),
		sdkCall("native balance of EWOQ", "dataEvmAddressBalancesGetNative", at(sdkReq{"address": me})),
		sdkCall("native balance of the user in usd", "dataEvmAddressBalancesGetNative", at(sdkReq{"address": user, "currency": "usd"})),
		sdkCall("native balance of the user at the first block", "dataEvmAddressBalancesGetNative",
			at(sdkReq{"address": user, "blockNumber": fmt.Sprint(first)})),
		sdkCall("ERC-721 balances of EWOQ", "dataEvmAddressBalancesListErc721", at(sdkReq{"address": me, "pageSize": 2})).Some().AllPages(10),
		sdkCall("ERC-721 balances of the user in the ERC-721", "dataEvmAddressBalancesListErc721",
			at(sdkReq{"address": user, "contractAddress": erc721})).Some(),
		sdkCall("metadata of the ERC-20", "dataEvmContractsGetMetadata", at(sdkReq{"address": erc20})),
		sdkCall("metadata of the ERC-721", "dataEvmContractsGetMetadata", at(sdkReq{"address": erc721})),
		sdkCall("metadata of the ERC-1155", "dataEvmContractsGetMetadata", at(sdkReq{"address": erc1155})),
		sdkCall("metadata of the factory", "dataEvmContractsGetMetadata", at(sdkReq{"address": factory})),
		sdkCall("metadata of a factory's child", "dataEvmContractsGetMetadata", at(sdkReq{"address": f.children[0].addr.Hex()})),
		sdkCall("deployment of the ERC-20", "dataEvmContractsGetDeploymentTransaction", at(sdkReq{"address": erc20, "currency": "usd"})),
		sdkCall("deployment of a factory's child", "dataEvmContractsGetDeploymentTransaction", at(sdkReq{"address": f.children[0].addr.Hex()})),
		sdkBad("unknown chain", "dataEvmAddressTransactionsList", sdkReq{"chainId": "999999", "address": me}, "BadRequestError", 400),
		sdkBad("malformed address", "dataEvmAddressTransactionsList", at(sdkReq{"address": "0x1234"}), "BadRequestError", 400),
		sdkBad("pageSize 101", "dataEvmAddressTransactionsList", at(sdkReq{"address": me, "pageSize": 101}), "BadRequestError", 400),
		sdkBad("unknown transaction", "dataEvmTransactionsGet", at(sdkReq{"txHash": unknownHash}), "NotFoundError", 404),
		sdkBad("deployment of an EOA", "dataEvmContractsGetDeploymentTransaction", at(sdkReq{"address": me}), "NotFoundError", 404),
		sdkBad("metadata of an EOA", "dataEvmContractsGetMetadata", at(sdkReq{"address": me}), "NotFoundError", 404),
	)
	for _, label := range []string{
		"ERC-20 transfer", "ERC-20 transferFrom by user", "ERC-721 safeTransferFrom", "ERC-1155 safeBatchTransferFrom",
		"Forwarder.split", "Factory.create", "Factory.create short of gas (status 0)", "Reverter.tryInner (caught inner revert)",
		"legacy value to recipient 0",
	} {
		add(sdkCall("transaction "+label, "dataEvmTransactionsGet", at(sdkReq{"txHash": f.truthTx(t, label).Hash.Hex()})))
	}
	add(sdkCall("deployment transaction of the ERC-721", "dataEvmTransactionsGet", at(sdkReq{"txHash": f.deployments[f.erc721].Hex()})))

	// Issue 17.
	add(
		sdkCall("latest blocks", "dataEvmBlocksListLatest", at(sdkReq{"pageSize": 5})).Some(),
		sdkCall("block by number", "dataEvmBlocksGet", at(sdkReq{"blockId": fmt.Sprint(transferTx.Block.Number)})),
		sdkCall("block by hash", "dataEvmBlocksGet", at(sdkReq{"blockId": transferTx.Block.Hash.Hex()})),
		sdkCall("transactions of a block (the SDK's default pageSize, 0)", "dataEvmBlocksListTransactions",
			at(sdkReq{"blockId": fmt.Sprint(transferTx.Block.Number)})),
		sdkCall("transactions of a block by hash", "dataEvmBlocksListTransactions",
			at(sdkReq{"blockId": transferTx.Block.Hash.Hex(), "pageSize": 10})).Some(),
		sdkBad("block past the head", "dataEvmBlocksGet", at(sdkReq{"blockId": fmt.Sprint(last + 1_000_000)}), "NotFoundError", 404),
		sdkBad("block of a malformed id", "dataEvmBlocksGet", at(sdkReq{"blockId": "latest-ish"}), "BadRequestError", 400),
		sdkCall("latest transactions", "dataEvmTransactionsListLatest", at(sdkReq{"pageSize": 5})).Some(),
		sdkCall("latest successful transactions", "dataEvmTransactionsListLatest", at(sdkReq{"status": "success"})).Some(),
		sdkCall("latest failed transactions", "dataEvmTransactionsListLatest", at(sdkReq{"status": "failed"})).Some(),
		sdkCall("native transactions of EWOQ", "dataEvmAddressTransactionsListNative", at(window(sdkReq{"address": me}))).Some().AllPages(20),
		sdkCall("ERC-20 transactions of the user", "dataEvmAddressTransactionsListErc20", at(window(sdkReq{"address": user}))).Some().AllPages(5),
		sdkCall("ERC-721 transactions of EWOQ", "dataEvmAddressTransactionsListErc721", at(window(sdkReq{"address": me, "pageSize": 2}))).Some().AllPages(10),
		sdkCall("ERC-1155 transactions of EWOQ", "dataEvmAddressTransactionsListErc1155", at(window(sdkReq{"address": me}))).Some().AllPages(5),
		sdkCall("internal transactions of recipient 1", "dataEvmAddressTransactionsListInternal",
			at(window(sdkReq{"address": f.recipients[1].Hex()}))).Some().AllPages(5),
		sdkCall("internal transactions of the factory", "dataEvmAddressTransactionsListInternal", at(sdkReq{"address": factory})).Some().AllPages(5),
		sdkBad("native transactions, startBlock after endBlock", "dataEvmAddressTransactionsListNative",
			at(sdkReq{"address": me, "startBlock": last, "endBlock": first - 1}), "BadRequestError", 400),
		sdkCall("ERC-20 balances of EWOQ", "dataEvmAddressBalancesListErc20", at(sdkReq{"address": me})).Some().AllPages(5),
		sdkCall("ERC-20 balances of the user at the last block, in usd", "dataEvmAddressBalancesListErc20",
			at(sdkReq{"address": user, "blockNumber": fmt.Sprint(last), "contractAddresses": erc20, "filterSpamTokens": false, "currency": "usd"})).Some(),
		sdkCall("ERC-1155 balances of EWOQ", "dataEvmAddressBalancesListErc1155", at(sdkReq{"address": me})).Some().AllPages(5),
		sdkCall("ERC-1155 balances of recipient 2 at the last block", "dataEvmAddressBalancesListErc1155",
			at(sdkReq{"address": f.recipients[2].Hex(), "blockNumber": fmt.Sprint(last), "contractAddress": erc1155})).Some(),
		sdkBad("ERC-20 balances at a malformed block", "dataEvmAddressBalancesListErc20",
			at(sdkReq{"address": me, "blockNumber": "yesterday"}), "BadRequestError", 400),
		sdkCall("collectibles of EWOQ", "dataEvmAddressBalancesListCollectibles", at(sdkReq{"address": me, "pageSize": 2})).Some().AllPages(10),
		sdkCall("collectibles of the user in the ERC-1155", "dataEvmAddressBalancesListCollectibles",
			at(sdkReq{"address": user, "contractAddress": erc1155})).Some(),
		sdkCall("tokens of the ERC-721", "dataNftsList", at(sdkReq{"address": erc721, "pageSize": 2})).Some().AllPages(10),
		sdkCall("tokens of the ERC-1155", "dataNftsList", at(sdkReq{"address": erc1155})).Some().AllPages(5),
		sdkCall("ERC-721 token details", "dataNftsGet", at(sdkReq{"address": erc721, "tokenId": nft})),
		sdkCall("ERC-1155 token details", "dataNftsGet", at(sdkReq{"address": erc1155, "tokenId": f.erc1155IDs[0].String()})),
		sdkBad("details of an unminted token", "dataNftsGet", at(sdkReq{"address": erc721, "tokenId": "999999"}), "NotFoundError", 404),
		sdkBad("details of a token of an ERC-20", "dataNftsGet", at(sdkReq{"address": erc20, "tokenId": "1"}), "BadRequestError", 400),
		sdkCall("reindex an ERC-721 token", "dataNftsReindex", at(sdkReq{"address": erc721, "tokenId": nft})).Keyed(),
		sdkBad("reindex without an API key", "dataNftsReindex", at(sdkReq{"address": erc721, "tokenId": nft}), "UnauthorizedError", 401),
		sdkCall("deployments by the factory", "dataEvmAddressContractsListDeployments", at(sdkReq{"address": factory})).Some().AllPages(5),
		sdkCall("deployments by EWOQ", "dataEvmAddressContractsListDeployments", at(sdkReq{"address": me, "pageSize": 2})).Some().AllPages(10),
	)
	return checks
}

// truthTx is the ground truth of the fixture's transaction labelled label.
func (f *evmFixture) truthTx(t *testing.T, label string) *truth.EVMTx {
	t.Helper()
	for _, tx := range f.txs {
		if tx.label == label {
			got, found := f.truth.Tx(tx.hash)
			require.True(t, found, "%s: %s (%s) is not in the ground truth", f.name(), label, tx.hash)
			return got
		}
	}
	t.Fatalf("%s: the fixture sent no transaction labelled %q", f.name(), label)
	return nil
}

// blockTime is the timestamp of block n of the ground truth.
func (f *evmFixture) blockTime(n uint64) time.Time {
	for _, tx := range f.truth.All() {
		if tx.Block.Number == n {
			return time.Unix(int64(tx.Block.Timestamp), 0).UTC()
		}
	}
	return time.Now().UTC()
}
