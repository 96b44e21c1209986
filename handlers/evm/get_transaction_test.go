package evm

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
)

// expand replaces the fixtures' names in a JSON template ({alice}, {wavax},
// ...) by their EIP-55 addresses and hashes.
func expand(template string) string {
	return strings.NewReplacer(
		"{alice}", handlertest.Alice.Hex(), "{bob}", handlertest.Bob.Hex(), "{carol}", handlertest.Carol.Hex(), "{wavax}", handlertest.Wavax.Hex(),
		"{kitties}", handlertest.Kitties.Hex(), "{items}", handlertest.Items.Hex(), "{punks}", handlertest.Punks.Hex(), "{mystery}", handlertest.Mystery.Hex(),
		"{child}", handlertest.Child.Hex(), "{tx1}", handlertest.TxHashN(1).Hex(), "{tx4}", handlertest.TxHashN(4).Hex(),
		"{block10}", handlertest.HashN(0xb1, 10).Hex(), "{block13}", handlertest.HashN(0xb1, 13).Hex(),
	).Replace(template)
}

func TestGetTransactionShape(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	rec := srv.Get(t, "/v1/chains/43112/transactions/"+handlertest.TxHashN(4).Hex())
	handlertest.RequireJSON(t, rec, http.StatusOK, nil)
	require.JSONEq(t, expand(`{
		"nativeTransaction": {
			"blockNumber": "13", "blockTimestamp": 1700000026, "blockHash": "{block13}", "chainId": "43112",
			"blockIndex": 2, "txHash": "{tx4}", "txStatus": "1", "txType": 2,
			"gasLimit": "100000", "gasUsed": "60000", "gasPrice": "27000000000", "nonce": "4",
			"from": {"address": "{bob}"},
			"to": {"address": "{kitties}", "name": "Kitties", "symbol": "KIT"},
			"method": {"callType": "CONTRACT_CALL", "methodHash": "0x42842e0e",
				"methodName": "safeTransferFrom(address,address,uint256)"},
			"value": "0", "input": "0x42842e0e00", "baseFeePerGas": "25000000000",
			"maxFeePerGas": "50000000000", "maxPriorityFeePerGas": "2000000000"
		},
		"networkTokenDetails": {"networkToken": {"name": "Avalanche", "symbol": "AVAX", "decimals": 18}},
		"erc20Transfers": [{
			"from": {"address": "{bob}"}, "to": {"address": "{carol}"}, "logIndex": 7, "value": "1000000000000000",
			"erc20Token": {"address": "{wavax}", "name": "Wrapped AVAX", "symbol": "WAVAX", "decimals": 18, "ercType": "ERC-20"}
		}],
		"erc721Transfers": [{
			"from": {"address": "{bob}"}, "to": {"address": "{alice}"}, "logIndex": 5,
			"erc721Token": {"address": "{kitties}", "name": "Kitties", "symbol": "KIT", "ercType": "ERC-721",
				"tokenId": "7", "tokenUri": "", "metadata": {"indexStatus": "unindexed"}}
		}],
		"erc1155Transfers": [{
			"from": {"address": "{bob}"}, "to": {"address": "{alice}"}, "logIndex": 6, "value": "10",
			"erc1155Token": {"address": "{items}", "ercType": "ERC-1155", "tokenId": "3", "tokenUri": "",
				"metadata": {"indexStatus": "unindexed"}}
		}],
		"internalTransactions": [
			{"from": {"address": "{kitties}", "name": "Kitties", "symbol": "KIT"}, "to": {"address": "{alice}"},
				"internalTxType": "CALL", "value": "1000", "isReverted": false, "gasUsed": "0", "gasLimit": "2300"},
			{"from": {"address": "{mystery}"}, "to": {"address": "{bob}"},
				"internalTxType": "UNKNOWN", "value": "5", "isReverted": true, "gasUsed": "0", "gasLimit": "0"}
		]
	}`), rec.Body.String())
}

func TestGetTransactionVariants(t *testing.T) {
	srv := newTestAPI(t, newTestConfig(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	get := func(n uint64) map[string]any {
		return srv.GetBody(t, "/v1/chains/43112/transactions/"+handlertest.TxHashN(n).Hex())
	}
	native := func(body map[string]any) map[string]any { return body["nativeTransaction"].(map[string]any) }

	deploy := native(get(1))
	require.Equal(t, map[string]any{"callType": "CONTRACT_CREATION", "methodHash": "", "methodName": "Contract Created"}, deploy["method"])
	require.Equal(t, map[string]any{"address": handlertest.Wavax.Hex(), "name": "Wrapped AVAX", "symbol": "WAVAX", "decimals": 18.0},
		deploy["to"], "a creation's to is the contract it deployed")
	require.Equal(t, "0x6080604052", deploy["input"])

	legacy := get(5)
	tx := native(legacy)
	require.Equal(t, map[string]any{"callType": "NATIVE_TRANSFER", "methodHash": "", "methodName": "Native Transfer"}, tx["method"])
	require.Equal(t, "25000000000", tx["gasPrice"], "the legacy gas price when the receipt has no effective price")
	require.Equal(t, "0", tx["baseFeePerGas"], "a block without base fee")
	require.Equal(t, 0.0, tx["txType"])
	require.NotContains(t, tx, "maxFeePerGas")
	require.NotContains(t, tx, "maxPriorityFeePerGas")
	require.NotContains(t, legacy, "internalTransactions", "an untraced block: internal transactions are unknown, not none")
	for _, list := range []string{"erc20Transfers", "erc721Transfers", "erc1155Transfers"} {
		require.NotContains(t, legacy, list, "an empty token list is omitted: a client reads a present one as token activity")
	}

	failed := native(get(6))
	require.Equal(t, "0", failed["txStatus"])
	require.Equal(t, map[string]any{"callType": "CONTRACT_CALL", "methodHash": "0x095ea7b3", "methodName": "approve(address,uint256)"},
		failed["method"])

	wrap := get(2)
	require.Equal(t, []any{}, wrap["internalTransactions"], "a traced block without internal transactions: an empty list")
	require.Equal(t, "deposit()", native(wrap)["method"].(map[string]any)["methodName"])

	unknownSelector := handlertest.NewFakes()
	itx := handlertest.FixtureTxs()[2]
	itx.Tx.Input = []byte{0xde, 0xad, 0xbe, 0xef, 0x01}
	unknownSelector.EVM.AddTx(netinfo.C, itx)
	api2 := newTestAPI(t, newTestConfig(), unknownSelector)
	method := native(api2.GetBody(t, "/v1/chains/43112/transactions/"+handlertest.TxHashN(3).Hex()))["method"]
	require.Equal(t, map[string]any{"callType": "CONTRACT_CALL", "methodHash": "0xdeadbeef"}, method,
		"an unknown selector has no methodName")
}

func TestMethodTableSelectors(t *testing.T) {
	table := newMethodTable()
	require.Len(t, table, len(wellKnownMethods()), "no two signatures share a selector")
	for selector, want := range map[[4]byte]string{
		{0xa9, 0x05, 0x9c, 0xbb}: "transfer(address,uint256)",
		{0x23, 0xb8, 0x72, 0xdd}: "transferFrom(address,address,uint256)",
		{0x09, 0x5e, 0xa7, 0xb3}: "approve(address,uint256)",
		{0xa2, 0x2c, 0xb4, 0x65}: "setApprovalForAll(address,bool)",
		{0xf2, 0x42, 0x43, 0x2a}: "safeTransferFrom(address,address,uint256,uint256,bytes)",
		{0x2e, 0xb2, 0xc2, 0xd6}: "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)",
	} {
		require.Equal(t, want, table[selector])
	}
}
