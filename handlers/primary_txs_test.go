package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"testing"

	"github.com/avadata/avadata/handlers/api"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

const (
	pTxsPath = "/v1/networks/local/blockchains/p-chain/transactions"
	xTxsPath = "/v1/networks/local/blockchains/x-chain/transactions"
	cTxsPath = "/v1/networks/local/blockchains/c-chain/transactions"
)

// Required members of the OpenAPI schemas (sdk-conformance §8).
var (
	pTxRequired = []string{"txHash", "txType", "blockTimestamp", "blockNumber", "blockHash", "consumedUtxos",
		"emittedUtxos", "value", "amountBurned", "amountStaked", "amountL1ValidatorBalanceBurned"}
	pUTXORequired = []string{"addresses", "asset", "consumedOnChainId", "createdOnChainId", "utxoId", "amount",
		"assetId", "blockNumber", "blockTimestamp", "outputIndex", "txHash", "utxoType"}
	xTxRequired = []string{"txHash", "chainFormat", "timestamp", "txType", "memo", "consumedUtxos", "emittedUtxos",
		"amountUnlocked", "amountCreated", "blockHeight", "blockHash"}
	utxoRequired = []string{"addresses", "asset", "consumedOnChainId", "createdOnChainId", "utxoId", "creationTxHash",
		"locktime", "outputIndex", "threshold", "timestamp", "utxoType"}
	cTxRequired = []string{"txHash", "blockHeight", "blockHash", "timestamp", "memo", "amountUnlocked",
		"amountCreated", "sourceChain", "destinationChain", "txType"}
	assetRequired = []string{"assetId", "name", "symbol", "denomination", "type", "amount"}
)

func requireKeys(t *testing.T, obj map[string]any, keys ...string) {
	t.Helper()
	for _, k := range keys {
		require.Contains(t, obj, k, "%v", obj)
	}
}

func objects(t *testing.T, v any) []map[string]any {
	t.Helper()
	list, ok := v.([]any)
	require.True(t, ok, "not a list: %v", v)
	out := make([]map[string]any, len(list))
	for i, item := range list {
		out[i] = item.(map[string]any)
	}
	return out
}

// txsByHash indexes a transactions page by txHash.
func txsByHash(t *testing.T, body map[string]any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, tx := range objects(t, body["transactions"]) {
		out[tx["txHash"].(string)] = tx
	}
	return out
}

// txHeights lists the block heights of a page (blockNumber or blockHeight).
func txHeights(t *testing.T, body map[string]any) []string {
	t.Helper()
	var out []string
	for _, tx := range objects(t, body["transactions"]) {
		if n, ok := tx["blockNumber"].(string); ok {
			out = append(out, n)
		} else {
			out = append(out, strconv.FormatFloat(tx["blockHeight"].(float64), 'f', -1, 64))
		}
	}
	return out
}

func bech32Of(t *testing.T, a ids.ShortID) string {
	t.Helper()
	s, err := address.FormatBech32("local", a[:])
	require.NoError(t, err)
	return s
}

func amountsOf(t *testing.T, v any) []string {
	t.Helper()
	var out []string
	for _, a := range objects(t, v) {
		out = append(out, a["amount"].(string))
	}
	return out
}

func TestListPChainTxsShapes(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, pTxsPath+"?pageSize=100")
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])
	require.NotContains(t, body, "nextPageToken")
	txs := txsByHash(t, body)
	require.Len(t, txs, 7+pagingTxs)
	for _, tx := range txs {
		requireKeys(t, tx, pTxRequired...)
		for _, u := range append(objects(t, tx["consumedUtxos"]), objects(t, tx["emittedUtxos"])...) {
			requireKeys(t, u, pUTXORequired...)
			requireKeys(t, u["asset"].(map[string]any), assetRequired...)
		}
	}
	node := localInfo()
	alice := bech32Of(t, pAlice)

	imp := txs[fixtureTxID(netinfo.P, 1).String()]
	require.Equal(t, "ImportTx", imp["txType"])
	require.Equal(t, node.ChainID(netinfo.X).String(), imp["sourceChain"])
	require.Equal(t, "0x6869", imp["memo"])
	require.Equal(t, node.ChainID(netinfo.P).String(), imp["destinationChain"], "an import names both ends, as C-chain atomic txs do")
	consumed := objects(t, imp["consumedUtxos"])[0]
	require.Equal(t, node.ChainID(netinfo.X).String(), consumed["createdOnChainId"])
	require.Equal(t, node.ChainID(netinfo.P).String(), consumed["consumedOnChainId"])
	require.Equal(t, []any{alice}, consumed["addresses"], "bare bech32, as the hosted API shows UTXO addresses")
	require.Equal(t, "1000000000", consumed["amount"])
	require.Equal(t, map[string]any{"assetId": testAVAXAssetID.String(), "name": "Avalanche", "symbol": "AVAX",
		"denomination": float64(9), "type": "secp256k1", "amount": "1000000000"}, consumed["asset"])
	require.Equal(t, []string{"999000000"}, amountsOf(t, imp["value"]))
	require.Equal(t, []string{"1000000"}, amountsOf(t, imp["amountBurned"]))
	require.Empty(t, imp["amountStaked"])

	stake := txs[fixtureTxID(netinfo.P, 2).String()]
	require.Equal(t, "AddPermissionlessValidatorTx", stake["txType"])
	require.Equal(t, testNodeID, stake["nodeId"])
	require.Equal(t, node.ChainID(netinfo.P).String(), stake["subnetId"], "the primary network")
	require.Equal(t, "2", stake["delegationFeePercent"])
	require.Equal(t, []any{alice}, stake["rewardAddresses"])
	require.Equal(t, map[string]any{"publicKey": "0xb105", "proofOfPossession": "0x9009"}, stake["blsCredentials"])
	require.InDelta(t, float64(blockTime(2)), stake["startTimestamp"], 0)
	require.InDelta(t, float64(blockTime(5)), stake["endTimestamp"], 0)
	require.Equal(t, []string{"500000000"}, amountsOf(t, stake["amountStaked"]))
	require.Equal(t, []string{"1000000"}, amountsOf(t, stake["amountBurned"]))
	require.NotContains(t, stake, "estimatedReward", "unknown: omitted")
	emitted := objects(t, stake["emittedUtxos"])
	require.Equal(t, "TRANSFER", emitted[0]["utxoType"])
	require.InDelta(t, 1_700_000_000, emitted[0]["stakeableLocktime"], 0)
	require.Equal(t, false, emitted[0]["staked"])
	require.Equal(t, "STAKE", emitted[1]["utxoType"])
	require.Equal(t, true, emitted[1]["staked"])
	require.InDelta(t, float64(blockTime(2)), emitted[1]["utxoStartTimestamp"], 0)
	require.Equal(t, "0x000001", emitted[1]["utxoBytes"])
	require.NotContains(t, emitted[1], "consumingTxHash", "unspent")

	subnet := txs[fixtureTxID(netinfo.P, 3).String()]
	require.Equal(t, map[string]any{"locktime": float64(0), "threshold": float64(1), "addresses": []any{alice}},
		subnet["subnetOwnershipInfo"])
	require.Equal(t, []any{}, subnet["consumedUtxos"])
	chain := txs[fixtureTxID(netinfo.P, 31).String()]
	info := chain["blockchainInfo"].(map[string]any)
	require.Equal(t, "dispatch", info["chainName"])
	require.Equal(t, map[string]any{"config": map[string]any{"chainId": float64(779672)}, "gasLimit": "0x7A1200"},
		info["genesisData"], "JSON genesis is an object")

	convert := txs[fixtureTxID(netinfo.P, 4).String()]
	require.Equal(t, map[string]any{"blockchainId": ids.ID{'m'}.String(), "contractAddress": testEVMAddr},
		convert["l1ValidatorManagerDetails"])
	l1 := objects(t, convert["l1ValidatorDetails"])[0]
	require.Equal(t, testValidation.String(), l1["validationId"])
	require.Equal(t, "0x"+testValidation.Hex(), l1["validationIdHex"])
	require.InDelta(t, 100, l1["remainingBalance"], 0)
	require.NotContains(t, l1, "balanceChange")
	require.Equal(t, []string{"100"}, amountsOf(t, convert["amountL1ValidatorBalanceBurned"]))
	require.Equal(t, []string{"900"}, amountsOf(t, convert["amountBurned"]), "2000 in, 1000 out, 100 to the L1 balance")

	reward := txs[fixtureTxID(netinfo.P, 5).String()]
	require.Equal(t, fixtureTxID(netinfo.P, 2).String(), reward["stakingTxHash"])
	require.Empty(t, reward["amountBurned"], "a reward burns nothing")
	rewardUTXO := objects(t, reward["emittedUtxos"])[0]
	require.Equal(t, "VALIDATOR", rewardUTXO["rewardType"])
	require.Equal(t, fixtureTxID(netinfo.P, 5).String(), rewardUTXO["txHash"], "created by the RewardValidatorTx")
	require.Equal(t, fixtureTxID(netinfo.P, 2).Prefix(2).String(), rewardUTXO["utxoId"])

	top := txs[fixtureTxID(netinfo.P, 6).String()]
	require.InDelta(t, 50, objects(t, top["l1ValidatorDetails"])[0]["balanceChange"], 0)
	require.Equal(t, []string{"50"}, amountsOf(t, top["amountL1ValidatorBalanceBurned"]))
	require.Equal(t, []string{"10"}, amountsOf(t, top["amountBurned"]))
	spentUTXO := objects(t, top["consumedUtxos"])[0]
	require.Equal(t, fixtureTxID(netinfo.P, 6).String(), spentUTXO["consumingTxHash"])
	require.Equal(t, "6", spentUTXO["consumingBlockNumber"])
	require.InDelta(t, float64(blockTime(6)), spentUTXO["consumingBlockTimestamp"], 0)
}

func TestListXChainTxsShapes(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, xTxsPath+"?addresses=X-"+bech32Of(t, pAlice))
	require.Equal(t, []string{"2", "1", "0"}, txHeights(t, body))
	require.Equal(t, "x-chain", body["chainInfo"].(map[string]any)["chainName"])
	txs := txsByHash(t, body)
	for _, tx := range txs {
		requireKeys(t, tx, xTxRequired...)
		require.Equal(t, "linear", tx["chainFormat"])
		for _, u := range append(objects(t, tx["consumedUtxos"]), objects(t, tx["emittedUtxos"])...) {
			requireKeys(t, u, utxoRequired...)
		}
	}
	genesis := txs[fixtureTxID(netinfo.X, 0).String()]
	require.Equal(t, "0x67656e65736973", genesis["memo"])
	require.Equal(t, map[string]any{"assetId": testAVAXAssetID.String(), "name": "Avalanche", "symbol": "AVAX",
		"denomination": float64(9), "type": "secp256k1", "createdAtTimestamp": float64(blockTime(0)), "cap": "fixed"},
		genesis["assetCreated"])

	nft := txs[fixtureTxID(netinfo.X, 1).String()]
	require.Equal(t, "", nft["memo"], "memo is required: empty when none")
	out := objects(t, nft["emittedUtxos"])[0]
	require.Equal(t, "0", out["outputIndex"], "a string in the X-chain's Utxo")
	require.Equal(t, "nft_transfer", out["utxoType"])
	require.Equal(t, "nft", out["asset"].(map[string]any)["type"])
	require.InDelta(t, 7, out["groupId"], 0)
	require.Equal(t, "0x6b69747479", out["payload"])

	export := txs[fixtureTxID(netinfo.X, 2).String()]
	require.Equal(t, constantsPChainID(), export["destinationChain"], "the P-chain's ID is all zeros, still shown")
	require.Equal(t, []string{"5000000000"}, amountsOf(t, export["amountUnlocked"]))
	require.Equal(t, []string{"4999000000"}, amountsOf(t, export["amountCreated"]))
	exported := objects(t, export["emittedUtxos"])[1]
	require.Equal(t, constantsPChainID(), exported["consumedOnChainId"])
	require.Equal(t, fixtureTxID(netinfo.P, 1).String(), exported["consumingTxHash"])
}

func constantsPChainID() string { return localInfo().ChainID(netinfo.P).String() }

func TestListCChainAtomicTxs(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, cTxsPath+"?addresses="+testEVMAddr)
	require.Equal(t, []string{"101", "100"}, txHeights(t, body))
	txs := txsByHash(t, body)
	node := localInfo()

	export := txs[fixtureTxID(netinfo.C, 101).String()]
	requireKeys(t, export, append(cTxRequired, "evmInputs", "emittedUtxos")...)
	require.NotContains(t, export, "evmOutputs")
	require.Equal(t, "ExportTx", export["txType"])
	require.Equal(t, hexID(fixtureBlockID(netinfo.C, 101)), export["blockHash"], "C-chain block hashes are 0x hex")
	require.Equal(t, node.ChainID(netinfo.C).String(), export["sourceChain"])
	require.Equal(t, node.ChainID(netinfo.X).String(), export["destinationChain"])
	in := objects(t, export["evmInputs"])[0]
	require.Equal(t, testEVMAddr, in["fromAddress"])
	require.Equal(t, []any{}, in["credentials"])
	require.Equal(t, "1001000", in["asset"].(map[string]any)["amount"])
	require.Equal(t, []string{"1001000"}, amountsOf(t, export["amountUnlocked"]))
	require.Equal(t, []string{"1000000"}, amountsOf(t, export["amountCreated"]))

	imp := txs[fixtureTxID(netinfo.C, 100).String()]
	requireKeys(t, imp, append(cTxRequired, "evmOutputs", "consumedUtxos")...)
	require.NotContains(t, imp, "evmInputs")
	require.Equal(t, "ImportTx", imp["txType"])
	require.Equal(t, node.ChainID(netinfo.X).String(), imp["sourceChain"])
	require.Equal(t, node.ChainID(netinfo.C).String(), imp["destinationChain"])
	require.Equal(t, testEVMAddr, objects(t, imp["evmOutputs"])[0]["toAddress"])
	consumed := objects(t, imp["consumedUtxos"])[0]
	requireKeys(t, consumed, utxoRequired...)
	require.Equal(t, node.ChainID(netinfo.C).String(), consumed["consumedOnChainId"])

	// The 0x address reached the reader as its 20 bytes; a lower-case 0x
	// address and the bech32 owner of the imported UTXO find the same txs.
	q := lastTxQuery(t, srv)
	require.Equal(t, []ids.ShortID{cAlice}, q.Addresses)
	lower := getBody(t, srv, cTxsPath+"?addresses=0x71c7656ec7ab88b098defb751b7401b5f6d8976f")
	require.Equal(t, []string{"101", "100"}, txHeights(t, lower))
	require.Equal(t, []string{"100"}, txHeights(t, getBody(t, srv, cTxsPath+"?addresses=C-"+bech32Of(t, pAlice)+"&txTypes=ImportTx")))
}

func lastTxQuery(t *testing.T, srv *testAPI) pdata.TxQuery {
	t.Helper()
	f := srv.backend.primary
	f.mu.Lock()
	defer f.mu.Unlock()
	require.NotEmpty(t, f.txQueries)
	return f.txQueries[len(f.txQueries)-1]
}

func TestListPrimaryTxsPaging(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	bob := pTxsPath + "?addresses=" + bech32Of(t, pBob)
	for _, order := range []string{"desc", "asc"} {
		t.Run(order, func(t *testing.T) {
			path := bob + "&sortOrder=" + order
			var heights []string
			var sizes []int
			body := getBody(t, srv, path)
			for {
				page := txHeights(t, body)
				heights = append(heights, page...)
				sizes = append(sizes, len(page))
				if _, more := body["nextPageToken"]; !more {
					break
				}
				body = getBody(t, srv, withToken(path, body))
			}
			require.Equal(t, []int{10, 10, 5}, sizes)
			want := make([]string, pagingTxs)
			for i := range want {
				want[i] = strconv.Itoa(10 + i)
				if order == "desc" {
					want[i] = strconv.Itoa(10 + pagingTxs - 1 - i)
				}
			}
			require.Equal(t, want, heights, "every tx once, in order")
		})
	}

	first := getBody(t, srv, bob)
	requireDataError(t, srv.get(t, withToken(bob+"&txTypes=BaseTx", first)), http.StatusBadRequest, "invalid pageToken", "other parameters")
	requireDataError(t, srv.get(t, withToken(xTxsPath+"?addresses="+bech32Of(t, pBob), first)), http.StatusBadRequest, "invalid pageToken")
	q := lastTxQuery(t, srv)
	require.Equal(t, maxPageUTXOs, q.MaxUTXOs, "the reader may stop a page early")
}

// TestListPrimaryTxsUTXOThreshold checks rule 3: a page stops before the tx
// that would take its UTXOs past the threshold, and the next one resumes
// with it.
func TestListPrimaryTxsUTXOThreshold(t *testing.T) {
	backend := newFakeBackend()
	for h := uint64(1); h <= 4; h++ {
		id := fixtureTxID(netinfo.P, h)
		var produced []pdata.IndexedUTXO
		for i := range uint32(400) {
			produced = append(produced, newUTXO(netinfo.P, id, i, pBob, 1, h))
		}
		backend.primary.addTx(indexedTx(netinfo.P, h, 0, &pdata.Tx{ID: id, Type: "RewardValidatorTx"}, nil, produced))
	}
	backend.primary.addTx(indexedTx(netinfo.P, 0, 0, &pdata.Tx{ID: ids.ID{'h', 'u', 'g', 'e'}, Type: "BaseTx"}, nil,
		make([]pdata.IndexedUTXO, 1500)))
	srv := newTestAPI(t, testConfig(), backend, nil)
	path := pTxsPath + "?pageSize=10"
	var pages [][]string
	body := getBody(t, srv, path)
	for {
		pages = append(pages, txHeights(t, body))
		if _, more := body["nextPageToken"]; !more {
			break
		}
		body = getBody(t, srv, withToken(path, body))
	}
	require.Equal(t, [][]string{{"4", "3"}, {"2", "1"}, {"0"}}, pages,
		"400 + 400 UTXOs fit under 1000, a third tx would not; a tx past the threshold alone still gets its page")
	require.Equal(t, maxPageUTXOs, backend.primary.txQueries[0].MaxUTXOs)
}

func TestListPrimaryTxsTimestamps(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	bob := pTxsPath + "?addresses=" + bech32Of(t, pBob)
	span := func(start, end int64) string {
		return bob + "&startTimestamp=" + strconv.FormatInt(start, 10) + "&endTimestamp=" + strconv.FormatInt(end, 10)
	}
	require.Equal(t, []string{"14", "13", "12"}, txHeights(t, getBody(t, srv, span(blockTime(12), blockTime(14)))),
		"both ends inclusive")
	q := lastTxQuery(t, srv)
	require.Equal(t, uint64(12), q.FromHeight)
	require.Equal(t, uint64(15), q.ToHeight)
	require.Equal(t, []string{"13"}, txHeights(t, getBody(t, srv, span(blockTime(12)+1, blockTime(13)+9))))
	require.Empty(t, txHeights(t, getBody(t, srv, span(blockTime(12)+1, blockTime(12)+2))), "no block in between")
	require.Empty(t, txHeights(t, getBody(t, srv, span(0, pGenesisTime-1))), "before genesis")

	// The genesis block's time decides alone whether its txs are in range.
	x := xTxsPath + "?addresses=" + bech32Of(t, pAlice)
	require.Equal(t, []string{"0"}, txHeights(t, getBody(t, srv, x+"&endTimestamp="+strconv.FormatInt(pGenesisTime, 10))))
	require.Equal(t, []string{"2", "1"}, txHeights(t, getBody(t, srv, x+"&startTimestamp="+strconv.FormatInt(pGenesisTime+1, 10))))
}

func TestListPrimaryTxsByL1Validation(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	path := pTxsPath + "?l1ValidationId=" + testValidation.String()
	body := getBody(t, srv, path)
	require.Equal(t, []string{"6", "4"}, txHeights(t, body), "the txs acting on the validation")
	require.Equal(t, l1ValidatorTxTypes(), lastTxQuery(t, srv).Types, "only L1 validator txs are read")

	require.Equal(t, []string{"6"}, txHeights(t, getBody(t, srv, path+"&txTypes=IncreaseL1ValidatorBalanceTx")))
	require.Equal(t, []string{"4"}, txHeights(t, getBody(t, srv, "/v1/networks/local/blockchains/p-chain/transactions?l1ValidationId=0x"+
		testValidation.Hex()+"&endTimestamp="+strconv.FormatInt(blockTime(5), 10))))

	calls := len(srv.backend.primary.txQueries)
	require.Empty(t, txHeights(t, getBody(t, srv, path+"&txTypes=BaseTx")))
	require.Len(t, srv.backend.primary.txQueries, calls, "no L1 type asked for: nothing to read")
	require.Empty(t, txHeights(t, getBody(t, srv, pTxsPath+"?l1ValidationId="+ids.ID{'x'}.String())))

	// Paging goes on after the last tx read, kept or not.
	one := getBody(t, srv, path+"&pageSize=1")
	require.Equal(t, []string{"6"}, txHeights(t, one))
	two := getBody(t, srv, withToken(path+"&pageSize=1", one))
	require.Equal(t, []string{"4"}, txHeights(t, two))
}

func TestListPrimaryTxsReaderFailure(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	backend.primary.err = errors.New("disk on fire")
	srv := newTestAPI(t, testConfig(), backend, nil)
	msg := requireDataError(t, srv.get(t, pTxsPath), http.StatusInternalServerError)
	require.NotContains(t, msg, "disk on fire", "internal details stay in the log")
}

func TestListPrimaryTxsBadInput(t *testing.T) {
	srv := newTestAPI(t, testConfig(), withFixtures(t, newFakeBackend()), nil)
	runRouteCases(t, srv, []routeCase{
		invalid("mainnet address", pTxsPath+"?addresses="+bech32Addr(t, "avax", 1), "invalid addresses", `"avax"`),
		invalid("fuji address on x", xTxsPath+"?addresses=X-"+bech32Addr(t, "fuji", 1), "invalid addresses", `"fuji"`),
		invalid("0x on the x-chain", xTxsPath+"?addresses="+testEVMAddr, "invalid addresses", "EVM address"),
		invalid("vertex chain", "/v1/networks/local/blockchains/"+testSubnetChainID.String()+"/transactions", "blockchainId"),
		invalid("other network", "/v1/networks/fuji/blockchains/p-chain/transactions", "network"),
	})
}

func TestParsePrimaryAddresses(t *testing.T) {
	s := newTestPrimaryServer(newFakeBackend().readers())
	addr := bech32Of(t, pAlice)
	texts, addrs, err := s.parsePrimaryAddresses(query(t, "addresses=P-"+addr+","+testEVMAddr+",X-"+addr+","+addr), api.ParamAddresses, true)
	require.NoError(t, err)
	require.Equal(t, []string{"P-" + addr, testEVMAddr, "X-" + addr, addr}, texts)
	require.Equal(t, []ids.ShortID{pAlice, cAlice, pAlice, pAlice}, addrs)
	_, _, err = s.parsePrimaryAddresses(query(t, "addresses="+testEVMAddr), api.ParamAddresses, false)
	requireBadRequest(t, err, "EVM address")
}
