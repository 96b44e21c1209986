package primary

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

const (
	pUTXOsPath = "/v1/networks/local/blockchains/p-chain/utxos"
	xUTXOsPath = "/v1/networks/local/blockchains/x-chain/utxos"
	cUTXOsPath = "/v1/networks/local/blockchains/c-chain/utxos"
)

func newUTXOTestAPI(t *testing.T) *handlertest.API {
	return newTestAPI(t, handlertest.Config(), handlertest.WithFixtures(t, handlertest.NewFakes()))
}

func alice(t *testing.T) string { return handlertest.Bech32Of(t, handlertest.PAlice) }

// listedUTXOs pages through a listing to its end, pageSize at a time.
func listedUTXOs(t *testing.T, srv *handlertest.API, path string) []map[string]any {
	t.Helper()
	var out []map[string]any
	next := path
	for range 50 {
		body := srv.GetBody(t, next)
		handlertest.RequireNoNulls(t, body)
		out = append(out, handlertest.Objects(t, body["utxos"])...)
		if _, more := body["nextPageToken"]; !more {
			return out
		}
		next = handlertest.WithToken(path, body)
	}
	t.Fatal("the listing does not end")
	return nil
}

func utxoField(list []map[string]any, name string) []any {
	out := make([]any, len(list))
	for i, u := range list {
		out[i] = u[name]
	}
	return out
}

func TestGetPChainUtxos(t *testing.T) {
	srv := newUTXOTestAPI(t)
	path := pUTXOsPath + "?addresses=P-" + alice(t)
	body := srv.GetBody(t, path)
	require.Equal(t, map[string]any{"chainName": "p-chain", "network": "local"}, body["chainInfo"])
	utxos := handlertest.Objects(t, body["utxos"])
	// Newest first: the IncreaseL1ValidatorBalanceTx change, the reward, then
	// the AddPermissionlessValidatorTx's stake and change (one block).
	require.Equal(t, []any{"940", "7000"}, utxoField(utxos[:2], "amount"))
	require.ElementsMatch(t, []any{"500000000", "498000000"}, utxoField(utxos[2:], "amount"))

	stakeTx := handlertest.FixtureTxID(netinfo.P, 2)
	var stake, change, reward map[string]any
	for _, u := range utxos {
		switch u["utxoId"] {
		case stakeTx.Prefix(1).String():
			stake = u
		case stakeTx.Prefix(0).String():
			change = u
		case stakeTx.Prefix(2).String():
			reward = u
		}
	}
	p := fakenet.Info().ChainID(netinfo.P).String()
	require.Equal(t, map[string]any{
		"addresses": []any{alice(t)},
		"asset": map[string]any{"assetId": fakenet.AVAXAssetID.String(), "name": "Avalanche", "symbol": "AVAX",
			"denomination": float64(9), "type": "secp256k1", "amount": "500000000"},
		"amount": "500000000", "assetId": fakenet.AVAXAssetID.String(),
		"consumedOnChainId": p, "createdOnChainId": p, "utxoId": stakeTx.Prefix(1).String(),
		"txHash": stakeTx.String(), "blockNumber": "2", "blockTimestamp": float64(handlertest.BlockTime(2)),
		"outputIndex": float64(1), "utxoType": "STAKE", "staked": true, "threshold": float64(1),
		"platformLocktime": float64(0), "utxoBytes": "0x000001",
		"utxoStartTimestamp": float64(handlertest.BlockTime(2)), "utxoEndTimestamp": float64(handlertest.BlockTime(5)),
	}, stake)
	require.Equal(t, float64(1_700_000_000), change["stakeableLocktime"])
	require.Equal(t, "TRANSFER", change["utxoType"])
	require.Equal(t, "VALIDATOR", reward["rewardType"])
	require.Equal(t, handlertest.FixtureTxID(netinfo.P, 5).String(), reward["txHash"], "a reward's creating tx is the RewardValidatorTx")

	q := srv.Fakes.Primary.UTXOQueries[0]
	require.Equal(t, pdata.UTXOQuery{Addresses: []ids.ShortID{handlertest.PAlice}, Desc: true, Limit: 10, MaxScanned: maxScannedUTXOs}, q)

	// Spent ones too: the imported export (created on X), the import's
	// output, the converted subnet's input and its change.
	all := listedUTXOs(t, srv, path+"&includeSpent=true&pageSize=2")
	require.Len(t, all, 8)
	spent := 0
	for _, u := range all {
		if u["consumingTxHash"] != nil {
			spent++
			require.Contains(t, u, "consumingBlockNumber")
			require.Contains(t, u, "consumingBlockTimestamp")
		}
	}
	require.Equal(t, 4, spent)
	require.Equal(t, utxoField(utxos, "utxoId"), utxoField(listedUTXOs(t, srv, path+"&pageSize=1"), "utxoId"), "pages of 1")
}

func TestGetUtxosSortAndFilters(t *testing.T) {
	srv := newUTXOTestAPI(t)
	path := pUTXOsPath + "?addresses=" + alice(t)
	require.Equal(t, []any{"940", "7000", "498000000", "500000000"},
		utxoField(listedUTXOs(t, srv, path+"&sortBy=amount&sortOrder=asc&pageSize=3"), "amount"))
	require.Equal(t, []any{"500000000", "498000000", "7000"},
		utxoField(listedUTXOs(t, srv, path+"&sortBy=AMOUNT&minUtxoAmount=1000"), "amount"))
	q := srv.Fakes.Primary.UTXOQueries[len(srv.Fakes.Primary.UTXOQueries)-1]
	require.True(t, q.ByAmount && q.Desc)
	require.Equal(t, uint64(1000), q.MinAmount)

	x := listedUTXOs(t, srv, xUTXOsPath+"?addresses=X-"+alice(t)+"&assetId="+handlertest.NFTAsset.String())
	require.Len(t, x, 1)
	require.Equal(t, "nft_transfer", x[0]["utxoType"])
	require.Equal(t, "0", x[0]["outputIndex"], "the X-chain's outputIndex is a string")
	require.Equal(t, float64(7), x[0]["groupId"])
	require.Equal(t, "nft", x[0]["asset"].(map[string]any)["type"])
}

func TestGetXAndCChainUtxosWithAtomicMemory(t *testing.T) {
	srv := newUTXOTestAPI(t)
	node := fakenet.Info()
	x := listedUTXOs(t, srv, xUTXOsPath+"?addresses="+alice(t))
	require.Len(t, x, 3, "the NFT, the export's change, the C-chain's export to X")
	fromC := x[0]
	require.Equal(t, handlertest.FixtureTxID(netinfo.C, 101).Prefix(0).String(), fromC["utxoId"])
	require.Equal(t, node.ChainID(netinfo.C).String(), fromC["createdOnChainId"])
	require.Equal(t, node.ChainID(netinfo.X).String(), fromC["consumedOnChainId"])
	require.Equal(t, "transfer", fromC["utxoType"])

	body := srv.GetBody(t, cUTXOsPath+"?addresses=C-"+alice(t))
	require.Equal(t, []any{}, body["utxos"], "the C-chain's only UTXO was imported")
	require.Equal(t, map[string]any{"chainName": "c-chain", "network": "local"}, body["chainInfo"])
	c := listedUTXOs(t, srv, cUTXOsPath+"?addresses="+alice(t)+"&includeSpent=true")
	require.Len(t, c, 1)
	require.Equal(t, handlertest.FixtureTxID(netinfo.C, 100).String(), c[0]["consumingTxHash"])
	require.Contains(t, c[0], "consumingTxTimestamp")
}

func TestGetUtxosWithoutAddresses(t *testing.T) {
	srv := newUTXOTestAPI(t)
	body := srv.GetBody(t, pUTXOsPath)
	require.Equal(t, []any{}, body["utxos"])
	require.Empty(t, srv.Fakes.Primary.UTXOQueries)
}

func TestGetUtxosPageTokenBindsFilters(t *testing.T) {
	srv := newUTXOTestAPI(t)
	path := pUTXOsPath + "?addresses=" + alice(t) + "&pageSize=1"
	body := srv.GetBody(t, path)
	token := handlertest.WithToken(path+"&sortBy=amount", body)
	handlertest.RequireDataError(t, srv.Get(t, token), http.StatusBadRequest, "pageToken")
}

func TestGetUtxosBadInput(t *testing.T) {
	srv := newUTXOTestAPI(t)
	a := alice(t)
	many := a
	for i := range 64 {
		many += "," + handlertest.Bech32Addr(t, "local", byte(i))
	}
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("bad address", pUTXOsPath+"?addresses=avax1nope", "invalid addresses"),
		handlertest.Invalid("fuji address", pUTXOsPath+"?addresses="+handlertest.Bech32Addr(t, "fuji", 1), "invalid addresses", `"fuji"`),
		handlertest.Invalid("0x on x", xUTXOsPath+"?addresses="+handlertest.EVMAddr, "invalid addresses", "EVM address"),
		handlertest.Invalid("too many addresses", pUTXOsPath+"?addresses="+many, "invalid addresses", "more than 64"),
		handlertest.Invalid("bad sortBy", pUTXOsPath+"?addresses="+a+"&sortBy=size", "sortBy", "'timestamp', 'amount'"),
		handlertest.Invalid("bad sortOrder", pUTXOsPath+"?addresses="+a+"&sortOrder=up", "sortOrder"),
		handlertest.Invalid("bad includeSpent", pUTXOsPath+"?addresses="+a+"&includeSpent=yes", "includeSpent", "true or false"),
		handlertest.Invalid("negative minUtxoAmount", pUTXOsPath+"?addresses="+a+"&minUtxoAmount=-1", "minUtxoAmount"),
		handlertest.Invalid("fractional minUtxoAmount", pUTXOsPath+"?addresses="+a+"&minUtxoAmount=1.5", "minUtxoAmount"),
		handlertest.Invalid("bad assetId", xUTXOsPath+"?addresses="+a+"&assetId=AVAX", "assetId"),
		handlertest.Invalid("pageSize 101", pUTXOsPath+"?addresses="+a+"&pageSize=101", "pageSize"),
		handlertest.Invalid("bad pageToken", pUTXOsPath+"?addresses="+a+"&pageToken=xyz", "pageToken"),
		handlertest.Failing("unknown chain", "/v1/networks/local/blockchains/d-chain/utxos", http.StatusBadRequest),
	})
}
