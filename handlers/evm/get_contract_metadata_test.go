package evm

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

func deploymentPath(addr common.Address) string {
	return "/v1/chains/43112/contracts/" + addr.Hex() + "/transactions:getDeployment"
}

func metadataPath(addr common.Address) string { return "/v1/chains/43112/addresses/" + addr.Hex() }

func TestGetDeployment(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	body := srv.GetBody(t, deploymentPath(handlertest.Wavax))
	tx := body["nativeTransaction"].(map[string]any)
	require.Equal(t, handlertest.TxHashN(1).Hex(), tx["txHash"])
	require.Equal(t, "0x6080604052", tx["input"])
	require.Equal(t, "25000000000", tx["baseFeePerGas"])
	require.Equal(t, "50000000000", tx["maxFeePerGas"])
	require.Equal(t, "2000000000", tx["maxPriorityFeePerGas"])
	require.Equal(t, map[string]any{"networkToken": map[string]any{"name": "Avalanche", "symbol": "AVAX", "decimals": 18.0}},
		body["networkTokenDetails"], "no price source: no prices")
	require.NotContains(t, body, "teleporterMessageInfo")

	for name, tt := range map[string]struct {
		addr      common.Address
		fragments []string
	}{
		"a wallet":          {handlertest.Alice, []string{"is not a contract known to the index of chain 43112"}},
		"creation not seen": {handlertest.Mystery, []string{"deployment of contract " + handlertest.Mystery.Hex() + " was not seen"}},
	} {
		t.Run(name, func(t *testing.T) {
			handlertest.RequireDataError(t, srv.Get(t, deploymentPath(tt.addr)), http.StatusNotFound, tt.fragments...)
		})
	}
}

func TestGetDeploymentOfAFactoryChild(t *testing.T) {
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), backend)
	body := srv.GetBody(t, deploymentPath(handlertest.Child))
	require.Equal(t, handlertest.TxHashN(4).Hex(), body["nativeTransaction"].(map[string]any)["txHash"],
		"a contract made by a factory shows the transaction that called the factory")

	// The index knows the deployment but not its transaction (a pruned or
	// inconsistent index): still a 404, not a 500.
	backend.EVM.Txs[netinfo.C] = backend.EVM.Txs[netinfo.C][:3]
	handlertest.RequireDataError(t, srv.Get(t, deploymentPath(handlertest.Child)), http.StatusNotFound,
		"deployment transaction "+handlertest.TxHashN(4).Hex(), "is not in the index")
}

func TestGetDeploymentPrices(t *testing.T) {
	cfg := newTestConfig()
	cfg.EVM.Prices = &fakePrices{}
	backend := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, cfg, backend)
	body := srv.GetBody(t, deploymentPath(handlertest.Wavax)+"?currency=EUR")
	require.Equal(t, map[string]any{
		"networkToken": map[string]any{"name": "Avalanche", "symbol": "AVAX", "decimals": 18.0},
		"currentPrice": map[string]any{"currencyCode": "eur", "value": "30.25"},
	}, body["networkTokenDetails"], "no historical price for a transaction younger than a day")

	srv.Clock.Advance(48 * time.Hour)
	body = srv.GetBody(t, deploymentPath(handlertest.Wavax))
	require.Equal(t, map[string]any{"currencyCode": "usd", "value": "12"},
		body["networkTokenDetails"].(map[string]any)["historicalPrice"])
}

func TestGetContractMetadata(t *testing.T) {
	cfg := newTestConfig()
	curated, err := parseCuratedContracts([]byte(`{"43112": {"` + handlertest.Wavax.Hex() + `": {
		"description": "Wrapped AVAX, one for one.", "officialSite": "https://wavax.example", "email": "hi@wavax.example",
		"color": "#E84142", "logoAsset": {"assetId": "logo-1", "imageUri": "https://wavax.example/logo.png"},
		"bannerAsset": {"imageUri": "https://wavax.example/banner.png"},
		"resourceLinks": [{"type": "Website", "url": "https://wavax.example"}, {"type": "Github", "url": "https://github.com/x/wavax"}],
		"tags": ["defi", "wrapped"]
	}, "` + handlertest.Alice.Hex() + `": {"description": "Not a contract, but curated."}}}`))
	require.NoError(t, err)
	cfg.EVM.CuratedContracts = curated
	srv := newTestAPI(t, cfg, handlertest.WithFixtures(t, handlertest.NewFakes()))

	require.Equal(t, handlertest.DecodeJSON(t, expand(`{
		"address": "{wavax}", "ercType": "ERC-20", "name": "Wrapped AVAX", "symbol": "WAVAX", "decimals": 18,
		"description": "Wrapped AVAX, one for one.", "officialSite": "https://wavax.example", "email": "hi@wavax.example",
		"color": "#E84142", "logoAsset": {"assetId": "logo-1", "imageUri": "https://wavax.example/logo.png"},
		"bannerAsset": {"imageUri": "https://wavax.example/banner.png"},
		"resourceLinks": [{"type": "Website", "url": "https://wavax.example"}, {"type": "Github", "url": "https://github.com/x/wavax"}],
		"tags": ["defi", "wrapped"],
		"deploymentDetails": {"txHash": "{tx1}", "deployerAddress": "{alice}"}
	}`)), srv.GetBody(t, metadataPath(handlertest.Wavax)))

	require.Equal(t, handlertest.DecodeJSON(t, expand(`{"address": "{kitties}", "ercType": "ERC-721", "name": "Kitties", "symbol": "KIT"}`)),
		srv.GetBody(t, metadataPath(handlertest.Kitties)), "no decimals outside ERC-20, nothing curated, no deployment seen")
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{"address": "{items}", "ercType": "ERC-1155", "name": "Items", "symbol": "ITM"}`)),
		srv.GetBody(t, metadataPath(handlertest.Items)))
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{"address": "{child}", "ercType": "UNKNOWN",
		"deploymentDetails": {"txHash": "{tx4}", "deployerAddress": "{alice}", "deployerContractAddress": "{kitties}"}}`)),
		srv.GetBody(t, metadataPath(handlertest.Child)), "a contract of no known standard, deployed by a factory")
	require.Equal(t, handlertest.DecodeJSON(t, expand(`{"address": "{alice}", "ercType": "UNKNOWN", "description": "Not a contract, but curated."}`)),
		srv.GetBody(t, metadataPath(handlertest.Alice)), "the operator's word makes an address a contract")

	handlertest.RequireDataError(t, srv.Get(t, metadataPath(handlertest.Bob)), http.StatusNotFound, "is not a contract known to the index")
	handlertest.RequireDataError(t, srv.Get(t, "/v1/chains/779672/addresses/"+handlertest.Wavax.Hex()), http.StatusNotFound,
		"of chain 779672 ('dispatch')") // curated entries and contracts are per chain
}

func TestCuratedLogoInRichAddresses(t *testing.T) {
	cfg := newTestConfig()
	cfg.EVM.CuratedContracts = CuratedContracts{43112: {handlertest.Wavax: {LogoAsset: &ImageAsset{ImageURI: "https://wavax.example/logo.png"}}}}
	srv := newTestAPI(t, cfg, handlertest.WithFixtures(t, handlertest.NewFakes()))
	body := srv.GetBody(t, "/v1/chains/43112/transactions/"+handlertest.TxHashN(3).Hex())
	to := body["nativeTransaction"].(map[string]any)["to"].(map[string]any)
	require.Equal(t, "https://wavax.example/logo.png", to["logoUri"])
	token := body["erc20Transfers"].([]any)[0].(map[string]any)["erc20Token"].(map[string]any)
	require.Equal(t, "https://wavax.example/logo.png", token["logoUri"])
}

// A contract indexed a moment ago, whose name, symbol and decimals the
// background describer has not stored yet, is answered in full from the
// node: the answer never depends on when the describer gets to it (the
// seed e2e once read the sample's ERC-20 in that gap and got no name).
func TestGetContractMetadataBeforeTheDescriber(t *testing.T) {
	fakes := handlertest.WithFixtures(t, handlertest.NewFakes())
	srv := newTestAPI(t, newTestConfig(), fakes)
	fresh := common.HexToAddress("0x00000000000000000000000000000000000f7e54")
	fakes.EVM.AddContract(netinfo.C, evmdata.Contract{Address: fresh, Kind: evmdata.Erc20, Deployment: &evmdata.Deployment{
		ContractCreation: evmdata.ContractCreation{Address: fresh, Deployer: handlertest.Alice},
		TxHash:           handlertest.TxHashN(1), TxPos: evmdata.TxPos{Block: 10},
	}})
	fakes.EVM.OnChain = map[common.Address]evmdata.Contract{
		fresh: {Name: "Fresh Token", Symbol: "FRSH", Decimals: 6, HasDecimal: true},
	}
	want := handlertest.DecodeJSON(t, expand(`{"address": "`+fresh.Hex()+`", "ercType": "ERC-20",
		"name": "Fresh Token", "symbol": "FRSH", "decimals": 6,
		"deploymentDetails": {"txHash": "{tx1}", "deployerAddress": "{alice}"}}`))
	require.Equal(t, want, srv.GetBody(t, metadataPath(fresh)))
	require.Equal(t, 1, fakes.EVM.Describes)

	// A contract the describer has stored is answered from the index alone.
	srv.GetBody(t, metadataPath(handlertest.Wavax))
	require.Equal(t, 1, fakes.EVM.Describes, "metadata already read: no call to the node")

	// A node that cannot answer leaves the index's answer: the standard
	// and deployment, nothing made up for the rest beyond what it was.
	fakes.EVM.OnChainErr = errors.New("node down")
	body := srv.GetBody(t, metadataPath(fresh))
	require.Equal(t, "ERC-20", body["ercType"])
	require.NotContains(t, body, "name")
	require.Contains(t, body, "deploymentDetails")
}
