package primary

import (
	"errors"
	"net/http"
	"strconv"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

const (
	pTxsPath = "/v1/networks/local/blockchains/p-chain/transactions"
	xTxsPath = "/v1/networks/local/blockchains/x-chain/transactions"
	cTxsPath = "/v1/networks/local/blockchains/c-chain/transactions"
)

// Required members of the OpenAPI schemas, which the official SDK checks.
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

// txsByHash indexes a transactions page by txHash.
func txsByHash(t *testing.T, body map[string]any) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, tx := range handlertest.Objects(t, body["transactions"]) {
		out[tx["txHash"].(string)] = tx
	}
	return out
}

func amountsOf(t *testing.T, v any) []string {
	t.Helper()
	var out []string
	for _, a := range handlertest.Objects(t, v) {
		out = append(out, a["amount"].(string))
	}
	return out
}

func TestListPChainTxsShapes(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, pTxsPath+"?pageSize=100")
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])
	require.NotContains(t, body, "nextPageToken")
	txs := txsByHash(t, body)
	require.Len(t, txs, 7+handlertest.PagingTxs)
	for _, tx := range txs {
		requireKeys(t, tx, pTxRequired...)
		for _, u := range append(handlertest.Objects(t, tx["consumedUtxos"]), handlertest.Objects(t, tx["emittedUtxos"])...) {
			requireKeys(t, u, pUTXORequired...)
			requireKeys(t, u["asset"].(map[string]any), assetRequired...)
		}
	}
	node := fakenet.Info()
	alice := handlertest.Bech32Of(t, handlertest.PAlice)

	imp := txs[handlertest.FixtureTxID(netinfo.P, 1).String()]
	require.Equal(t, "ImportTx", imp["txType"])
	require.Equal(t, node.ChainID(netinfo.X).String(), imp["sourceChain"])
	require.Equal(t, "0x6869", imp["memo"])
	require.Equal(t, node.ChainID(netinfo.P).String(), imp["destinationChain"], "an import names both ends, as C-chain atomic txs do")
	consumed := handlertest.Objects(t, imp["consumedUtxos"])[0]
	require.Equal(t, node.ChainID(netinfo.X).String(), consumed["createdOnChainId"])
	require.Equal(t, node.ChainID(netinfo.P).String(), consumed["consumedOnChainId"])
	require.Equal(t, []any{alice}, consumed["addresses"], "bare bech32, as the hosted API shows UTXO addresses")
	require.Equal(t, "1000000000", consumed["amount"])
	require.Equal(t, map[string]any{"assetId": fakenet.AVAXAssetID.String(), "name": "Avalanche", "symbol": "AVAX",
		"denomination": float64(9), "type": "secp256k1", "amount": "1000000000"}, consumed["asset"])
	require.Equal(t, []string{"999000000"}, amountsOf(t, imp["value"]))
	require.Equal(t, []string{"1000000"}, amountsOf(t, imp["amountBurned"]))
	require.Empty(t, imp["amountStaked"])

	stake := txs[handlertest.FixtureTxID(netinfo.P, 2).String()]
	require.Equal(t, "AddPermissionlessValidatorTx", stake["txType"])
	require.Equal(t, handlertest.NodeID, stake["nodeId"])
	require.Equal(t, node.ChainID(netinfo.P).String(), stake["subnetId"], "the primary network")
	require.Equal(t, "2", stake["delegationFeePercent"])
	require.Equal(t, []any{alice}, stake["rewardAddresses"])
	require.Equal(t, map[string]any{"publicKey": "0xb105", "proofOfPossession": "0x9009"}, stake["blsCredentials"])
	require.InDelta(t, float64(handlertest.BlockTime(2)), stake["startTimestamp"], 0)
	require.InDelta(t, float64(handlertest.BlockTime(5)), stake["endTimestamp"], 0)
	require.Equal(t, []string{"500000000"}, amountsOf(t, stake["amountStaked"]))
	require.Equal(t, []string{"1000000"}, amountsOf(t, stake["amountBurned"]))
	require.NotContains(t, stake, "estimatedReward", "unknown: omitted")
	emitted := handlertest.Objects(t, stake["emittedUtxos"])
	require.Equal(t, "TRANSFER", emitted[0]["utxoType"])
	require.InDelta(t, 1_700_000_000, emitted[0]["stakeableLocktime"], 0)
	require.Equal(t, false, emitted[0]["staked"])
	require.Equal(t, "STAKE", emitted[1]["utxoType"])
	require.Equal(t, true, emitted[1]["staked"])
	require.InDelta(t, float64(handlertest.BlockTime(2)), emitted[1]["utxoStartTimestamp"], 0)
	require.Equal(t, "0x000001", emitted[1]["utxoBytes"])
	require.NotContains(t, emitted[1], "consumingTxHash", "unspent")

	subnet := txs[handlertest.FixtureTxID(netinfo.P, 3).String()]
	require.Equal(t, map[string]any{"locktime": float64(0), "threshold": float64(1), "addresses": []any{alice}},
		subnet["subnetOwnershipInfo"])
	require.Equal(t, []any{}, subnet["consumedUtxos"])
	chain := txs[handlertest.FixtureTxID(netinfo.P, 31).String()]
	info := chain["blockchainInfo"].(map[string]any)
	require.Equal(t, "dispatch", info["chainName"])
	require.Equal(t, map[string]any{"config": map[string]any{"chainId": float64(779672)}, "gasLimit": "0x7A1200"},
		info["genesisData"], "JSON genesis is an object")

	convert := txs[handlertest.FixtureTxID(netinfo.P, 4).String()]
	require.Equal(t, map[string]any{"blockchainId": ids.ID{'m'}.String(), "contractAddress": handlertest.EVMAddr},
		convert["l1ValidatorManagerDetails"])
	l1 := handlertest.Objects(t, convert["l1ValidatorDetails"])[0]
	require.Equal(t, handlertest.Validation.String(), l1["validationId"])
	require.Equal(t, "0x"+handlertest.Validation.Hex(), l1["validationIdHex"])
	require.InDelta(t, 100, l1["remainingBalance"], 0)
	require.NotContains(t, l1, "balanceChange")
	require.Equal(t, []string{"100"}, amountsOf(t, convert["amountL1ValidatorBalanceBurned"]))
	require.Equal(t, []string{"900"}, amountsOf(t, convert["amountBurned"]), "2000 in, 1000 out, 100 to the L1 balance")

	reward := txs[handlertest.FixtureTxID(netinfo.P, 5).String()]
	require.Equal(t, handlertest.FixtureTxID(netinfo.P, 2).String(), reward["stakingTxHash"])
	require.Empty(t, reward["amountBurned"], "a reward burns nothing")
	rewardUTXO := handlertest.Objects(t, reward["emittedUtxos"])[0]
	require.Equal(t, "VALIDATOR", rewardUTXO["rewardType"])
	require.Equal(t, handlertest.FixtureTxID(netinfo.P, 5).String(), rewardUTXO["txHash"], "created by the RewardValidatorTx")
	require.Equal(t, handlertest.FixtureTxID(netinfo.P, 2).Prefix(2).String(), rewardUTXO["utxoId"])

	top := txs[handlertest.FixtureTxID(netinfo.P, 6).String()]
	require.InDelta(t, 50, handlertest.Objects(t, top["l1ValidatorDetails"])[0]["balanceChange"], 0)
	require.Equal(t, []string{"50"}, amountsOf(t, top["amountL1ValidatorBalanceBurned"]))
	require.Equal(t, []string{"10"}, amountsOf(t, top["amountBurned"]))
	spentUTXO := handlertest.Objects(t, top["consumedUtxos"])[0]
	require.Equal(t, handlertest.FixtureTxID(netinfo.P, 6).String(), spentUTXO["consumingTxHash"])
	require.Equal(t, "6", spentUTXO["consumingBlockNumber"])
	require.InDelta(t, float64(handlertest.BlockTime(6)), spentUTXO["consumingBlockTimestamp"], 0)
}

func TestListXChainTxsShapes(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, xTxsPath+"?addresses=X-"+handlertest.Bech32Of(t, handlertest.PAlice))
	require.Equal(t, []string{"2", "1", "0"}, handlertest.TxHeights(t, body))
	require.Equal(t, "x-chain", body["chainInfo"].(map[string]any)["chainName"])
	txs := txsByHash(t, body)
	for _, tx := range txs {
		requireKeys(t, tx, xTxRequired...)
		require.Equal(t, "linear", tx["chainFormat"])
		for _, u := range append(handlertest.Objects(t, tx["consumedUtxos"]), handlertest.Objects(t, tx["emittedUtxos"])...) {
			requireKeys(t, u, utxoRequired...)
		}
	}
	genesis := txs[handlertest.FixtureTxID(netinfo.X, 0).String()]
	require.Equal(t, "0x67656e65736973", genesis["memo"])
	require.Equal(t, map[string]any{"assetId": fakenet.AVAXAssetID.String(), "name": "Avalanche", "symbol": "AVAX",
		"denomination": float64(9), "type": "secp256k1", "createdAtTimestamp": float64(handlertest.BlockTime(0)), "cap": "fixed"},
		genesis["assetCreated"])

	nft := txs[handlertest.FixtureTxID(netinfo.X, 1).String()]
	require.Equal(t, "", nft["memo"], "memo is required: empty when none")
	out := handlertest.Objects(t, nft["emittedUtxos"])[0]
	require.Equal(t, "0", out["outputIndex"], "a string in the X-chain's Utxo")
	require.Equal(t, "nft_transfer", out["utxoType"])
	require.Equal(t, "nft", out["asset"].(map[string]any)["type"])
	require.InDelta(t, 7, out["groupId"], 0)
	require.Equal(t, "0x6b69747479", out["payload"])

	export := txs[handlertest.FixtureTxID(netinfo.X, 2).String()]
	require.Equal(t, constantsPChainID(), export["destinationChain"], "the P-chain's ID is all zeros, still shown")
	require.Equal(t, []string{"5000000000"}, amountsOf(t, export["amountUnlocked"]))
	require.Equal(t, []string{"4999000000"}, amountsOf(t, export["amountCreated"]))
	exported := handlertest.Objects(t, export["emittedUtxos"])[1]
	require.Equal(t, constantsPChainID(), exported["consumedOnChainId"])
	require.Equal(t, handlertest.FixtureTxID(netinfo.P, 1).String(), exported["consumingTxHash"])
}

func constantsPChainID() string { return fakenet.Info().ChainID(netinfo.P).String() }

func TestListCChainAtomicTxs(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, cTxsPath+"?addresses="+handlertest.EVMAddr)
	require.Equal(t, []string{"101", "100"}, handlertest.TxHeights(t, body))
	txs := txsByHash(t, body)
	node := fakenet.Info()

	export := txs[handlertest.FixtureTxID(netinfo.C, 101).String()]
	requireKeys(t, export, append(cTxRequired, "evmInputs", "emittedUtxos")...)
	require.NotContains(t, export, "evmOutputs")
	require.Equal(t, "ExportTx", export["txType"])
	require.Equal(t, hexID(handlertest.FixtureBlockID(netinfo.C, 101)), export["blockHash"], "C-chain block hashes are 0x hex")
	require.Equal(t, node.ChainID(netinfo.C).String(), export["sourceChain"])
	require.Equal(t, node.ChainID(netinfo.X).String(), export["destinationChain"])
	in := handlertest.Objects(t, export["evmInputs"])[0]
	require.Equal(t, handlertest.EVMAddr, in["fromAddress"])
	require.Equal(t, []any{}, in["credentials"])
	require.Equal(t, "1001000", in["asset"].(map[string]any)["amount"])
	require.Equal(t, []string{"1001000"}, amountsOf(t, export["amountUnlocked"]))
	require.Equal(t, []string{"1000000"}, amountsOf(t, export["amountCreated"]))

	imp := txs[handlertest.FixtureTxID(netinfo.C, 100).String()]
	requireKeys(t, imp, append(cTxRequired, "evmOutputs", "consumedUtxos")...)
	require.NotContains(t, imp, "evmInputs")
	require.Equal(t, "ImportTx", imp["txType"])
	require.Equal(t, node.ChainID(netinfo.X).String(), imp["sourceChain"])
	require.Equal(t, node.ChainID(netinfo.C).String(), imp["destinationChain"])
	require.Equal(t, handlertest.EVMAddr, handlertest.Objects(t, imp["evmOutputs"])[0]["toAddress"])
	consumed := handlertest.Objects(t, imp["consumedUtxos"])[0]
	requireKeys(t, consumed, utxoRequired...)
	require.Equal(t, node.ChainID(netinfo.C).String(), consumed["consumedOnChainId"])

	// The 0x address reached the reader as its 20 bytes; a lower-case 0x
	// address and the bech32 owner of the imported UTXO find the same txs.
	q := lastTxQuery(t, srv)
	require.Equal(t, []ids.ShortID{handlertest.CAlice}, q.Addresses)
	lower := srv.GetBody(t, cTxsPath+"?addresses=0x71c7656ec7ab88b098defb751b7401b5f6d8976f")
	require.Equal(t, []string{"101", "100"}, handlertest.TxHeights(t, lower))
	require.Equal(t, []string{"100"}, handlertest.TxHeights(t, srv.GetBody(t, cTxsPath+"?addresses=C-"+handlertest.Bech32Of(t, handlertest.PAlice)+"&txTypes=ImportTx")))
}

func lastTxQuery(t *testing.T, srv *handlertest.API) pdata.TxQuery {
	t.Helper()
	f := srv.Fakes.Primary
	f.Mu.Lock()
	defer f.Mu.Unlock()
	require.NotEmpty(t, f.TxQueries)
	return f.TxQueries[len(f.TxQueries)-1]
}

func TestListPrimaryTxsPaging(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	bob := pTxsPath + "?addresses=" + handlertest.Bech32Of(t, handlertest.PBob)
	for _, order := range []string{"desc", "asc"} {
		t.Run(order, func(t *testing.T) {
			path := bob + "&sortOrder=" + order
			var heights []string
			var sizes []int
			body := srv.GetBody(t, path)
			for {
				page := handlertest.TxHeights(t, body)
				heights = append(heights, page...)
				sizes = append(sizes, len(page))
				if _, more := body["nextPageToken"]; !more {
					break
				}
				body = srv.GetBody(t, handlertest.WithToken(path, body))
			}
			require.Equal(t, []int{10, 10, 5}, sizes)
			want := make([]string, handlertest.PagingTxs)
			for i := range want {
				want[i] = strconv.Itoa(10 + i)
				if order == "desc" {
					want[i] = strconv.Itoa(10 + handlertest.PagingTxs - 1 - i)
				}
			}
			require.Equal(t, want, heights, "every tx once, in order")
		})
	}

	first := srv.GetBody(t, bob)
	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(bob+"&txTypes=BaseTx", first)), http.StatusBadRequest, "invalid pageToken", "other parameters")
	handlertest.RequireDataError(t, srv.Get(t, handlertest.WithToken(xTxsPath+"?addresses="+handlertest.Bech32Of(t, handlertest.PBob), first)), http.StatusBadRequest, "invalid pageToken")
	q := lastTxQuery(t, srv)
	require.Equal(t, maxPageUTXOs, q.MaxUTXOs, "the reader may stop a page early")
}

// TestListPrimaryTxsUTXOThreshold checks the spec's performance threshold: a
// page stops before the tx that would take its UTXOs past the threshold, and
// the next one resumes with it.
func TestListPrimaryTxsUTXOThreshold(t *testing.T) {
	backend := handlertest.NewFakes()
	for h := uint64(1); h <= 4; h++ {
		id := handlertest.FixtureTxID(netinfo.P, h)
		var produced []pdata.IndexedUTXO
		for i := range uint32(400) {
			produced = append(produced, handlertest.NewUTXO(netinfo.P, id, i, handlertest.PBob, 1, h))
		}
		backend.Primary.AddTx(handlertest.IndexedTx(netinfo.P, h, 0, &pdata.Tx{ID: id, Type: "RewardValidatorTx"}, nil, produced))
	}
	backend.Primary.AddTx(handlertest.IndexedTx(netinfo.P, 0, 0, &pdata.Tx{ID: ids.ID{'h', 'u', 'g', 'e'}, Type: "BaseTx"}, nil,
		make([]pdata.IndexedUTXO, 1500)))
	srv := newTestAPI(t, handlertest.Config(), backend)
	path := pTxsPath + "?pageSize=10"
	var pages [][]string
	body := srv.GetBody(t, path)
	for {
		pages = append(pages, handlertest.TxHeights(t, body))
		if _, more := body["nextPageToken"]; !more {
			break
		}
		body = srv.GetBody(t, handlertest.WithToken(path, body))
	}
	require.Equal(t, [][]string{{"4", "3"}, {"2", "1"}, {"0"}}, pages,
		"400 + 400 UTXOs fit under 1000, a third tx would not; a tx past the threshold alone still gets its page")
	require.Equal(t, maxPageUTXOs, backend.Primary.TxQueries[0].MaxUTXOs)
}

func TestListPrimaryTxsTimestamps(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	bob := pTxsPath + "?addresses=" + handlertest.Bech32Of(t, handlertest.PBob)
	span := func(start, end int64) string {
		return bob + "&startTimestamp=" + strconv.FormatInt(start, 10) + "&endTimestamp=" + strconv.FormatInt(end, 10)
	}
	require.Equal(t, []string{"14", "13", "12"}, handlertest.TxHeights(t, srv.GetBody(t, span(handlertest.BlockTime(12), handlertest.BlockTime(14)))),
		"both ends inclusive")
	q := lastTxQuery(t, srv)
	require.Equal(t, uint64(12), q.FromHeight)
	require.Equal(t, uint64(15), q.ToHeight)
	require.Equal(t, []string{"13"}, handlertest.TxHeights(t, srv.GetBody(t, span(handlertest.BlockTime(12)+1, handlertest.BlockTime(13)+9))))
	require.Empty(t, handlertest.TxHeights(t, srv.GetBody(t, span(handlertest.BlockTime(12)+1, handlertest.BlockTime(12)+2))), "no block in between")
	require.Empty(t, handlertest.TxHeights(t, srv.GetBody(t, span(0, handlertest.PGenesisTime-1))), "before genesis")

	// The genesis block's time decides alone whether its txs are in range.
	x := xTxsPath + "?addresses=" + handlertest.Bech32Of(t, handlertest.PAlice)
	require.Equal(t, []string{"0"}, handlertest.TxHeights(t, srv.GetBody(t, x+"&endTimestamp="+strconv.FormatInt(handlertest.PGenesisTime, 10))))
	require.Equal(t, []string{"2", "1"}, handlertest.TxHeights(t, srv.GetBody(t, x+"&startTimestamp="+strconv.FormatInt(handlertest.PGenesisTime+1, 10))))
}

func TestListPrimaryTxsByL1Validation(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	path := pTxsPath + "?l1ValidationId=" + handlertest.Validation.String()
	body := srv.GetBody(t, path)
	require.Equal(t, []string{"6", "4"}, handlertest.TxHeights(t, body), "the txs acting on the validation")
	require.Equal(t, l1ValidatorTxTypes(), lastTxQuery(t, srv).Types, "only L1 validator txs are read")

	require.Equal(t, []string{"6"}, handlertest.TxHeights(t, srv.GetBody(t, path+"&txTypes=IncreaseL1ValidatorBalanceTx")))
	require.Equal(t, []string{"4"}, handlertest.TxHeights(t, srv.GetBody(t, "/v1/networks/local/blockchains/p-chain/transactions?l1ValidationId=0x"+
		handlertest.Validation.Hex()+"&endTimestamp="+strconv.FormatInt(handlertest.BlockTime(5), 10))))

	calls := len(srv.Fakes.Primary.TxQueries)
	require.Empty(t, handlertest.TxHeights(t, srv.GetBody(t, path+"&txTypes=BaseTx")))
	require.Len(t, srv.Fakes.Primary.TxQueries, calls, "no L1 type asked for: nothing to read")
	require.Empty(t, handlertest.TxHeights(t, srv.GetBody(t, pTxsPath+"?l1ValidationId="+ids.ID{'x'}.String())))

	// Paging goes on after the last tx read, kept or not.
	one := srv.GetBody(t, path+"&pageSize=1")
	require.Equal(t, []string{"6"}, handlertest.TxHeights(t, one))
	two := srv.GetBody(t, handlertest.WithToken(path+"&pageSize=1", one))
	require.Equal(t, []string{"4"}, handlertest.TxHeights(t, two))
}

func TestListPrimaryTxsReaderFailure(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	backend.Primary.Err = errors.New("disk on fire")
	srv := newTestAPI(t, handlertest.Config(), backend)
	msg := handlertest.RequireDataError(t, srv.Get(t, pTxsPath), http.StatusInternalServerError)
	require.NotContains(t, msg, "disk on fire", "internal details stay in the log")
}

func TestListPrimaryTxsBadInput(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("mainnet address", pTxsPath+"?addresses="+handlertest.Bech32Addr(t, "avax", 1), "invalid addresses", `"avax"`),
		handlertest.Invalid("fuji address on x", xTxsPath+"?addresses=X-"+handlertest.Bech32Addr(t, "fuji", 1), "invalid addresses", `"fuji"`),
		handlertest.Invalid("0x on the x-chain", xTxsPath+"?addresses="+handlertest.EVMAddr, "invalid addresses", "EVM address"),
		handlertest.Invalid("vertex chain", "/v1/networks/local/blockchains/"+fakenet.SubnetChainID.String()+"/transactions", "blockchainId"),
		handlertest.Invalid("other network", "/v1/networks/fuji/blockchains/p-chain/transactions", "network"),
	})
}

func TestParsePrimaryAddresses(t *testing.T) {
	s := newTestServer(handlertest.NewCore(handlertest.NewFakes()), handlertest.NewFakes())
	addr := handlertest.Bech32Of(t, handlertest.PAlice)
	texts, addrs, err := s.parsePrimaryAddresses(handlertest.Query(t, "addresses=P-"+addr+","+handlertest.EVMAddr+",X-"+addr+","+addr), api.ParamAddresses, true)
	require.NoError(t, err)
	require.Equal(t, []string{"P-" + addr, handlertest.EVMAddr, "X-" + addr, addr}, texts)
	require.Equal(t, []ids.ShortID{handlertest.PAlice, handlertest.CAlice, handlertest.PAlice, handlertest.PAlice}, addrs)
	_, _, err = s.parsePrimaryAddresses(handlertest.Query(t, "addresses="+handlertest.EVMAddr), api.ParamAddresses, false)
	handlertest.RequireBadRequest(t, err, "EVM address")
}
