package handlers

import (
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
)

func deploymentPath(addr common.Address) string {
	return "/v1/chains/43112/contracts/" + addr.Hex() + "/transactions:getDeployment"
}

func metadataPath(addr common.Address) string { return "/v1/chains/43112/addresses/" + addr.Hex() }

func TestGetDeployment(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, testConfig(), backend, nil)
	body := getBody(t, srv, deploymentPath(wavax))
	tx := body["nativeTransaction"].(map[string]any)
	require.Equal(t, txHashN(1).Hex(), tx["txHash"])
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
		"a wallet":          {alice, []string{"is not a contract known to the index of chain 43112"}},
		"creation not seen": {mystery, []string{"deployment of contract " + mystery.Hex() + " was not seen"}},
	} {
		t.Run(name, func(t *testing.T) {
			requireDataError(t, srv.get(t, deploymentPath(tt.addr)), http.StatusNotFound, tt.fragments...)
		})
	}
}

func TestGetDeploymentOfAFactoryChild(t *testing.T) {
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, testConfig(), backend, nil)
	body := getBody(t, srv, deploymentPath(child))
	require.Equal(t, txHashN(4).Hex(), body["nativeTransaction"].(map[string]any)["txHash"],
		"a contract made by a factory shows the transaction that called the factory")

	// The index knows the deployment but not its transaction (a pruned or
	// inconsistent index): still a 404, not a 500.
	backend.evm.txs[netinfo.C] = backend.evm.txs[netinfo.C][:3]
	requireDataError(t, srv.get(t, deploymentPath(child)), http.StatusNotFound,
		"deployment transaction "+txHashN(4).Hex(), "is not in the index")
}

func TestGetDeploymentPrices(t *testing.T) {
	cfg := testConfig()
	cfg.EVM.Prices = &fakePrices{}
	backend := withFixtures(t, newFakeBackend())
	srv := newTestAPI(t, cfg, backend, nil)
	body := getBody(t, srv, deploymentPath(wavax)+"?currency=EUR")
	require.Equal(t, map[string]any{
		"networkToken": map[string]any{"name": "Avalanche", "symbol": "AVAX", "decimals": 18.0},
		"currentPrice": map[string]any{"currencyCode": "eur", "value": "30.25"},
	}, body["networkTokenDetails"], "no historical price for a transaction younger than a day")

	srv.clock.Advance(48 * time.Hour)
	body = getBody(t, srv, deploymentPath(wavax))
	require.Equal(t, map[string]any{"currencyCode": "usd", "value": "12"},
		body["networkTokenDetails"].(map[string]any)["historicalPrice"])
}

func TestGetContractMetadata(t *testing.T) {
	cfg := testConfig()
	curated, err := parseCuratedContracts([]byte(`{"43112": {"` + wavax.Hex() + `": {
		"description": "Wrapped AVAX, one for one.", "officialSite": "https://wavax.example", "email": "hi@wavax.example",
		"color": "#E84142", "logoAsset": {"assetId": "logo-1", "imageUri": "https://wavax.example/logo.png"},
		"bannerAsset": {"imageUri": "https://wavax.example/banner.png"},
		"resourceLinks": [{"type": "Website", "url": "https://wavax.example"}, {"type": "Github", "url": "https://github.com/x/wavax"}],
		"tags": ["defi", "wrapped"]
	}, "` + alice.Hex() + `": {"description": "Not a contract, but curated."}}}`))
	require.NoError(t, err)
	cfg.EVM.CuratedContracts = curated
	srv := newTestAPI(t, cfg, withFixtures(t, newFakeBackend()), nil)

	require.Equal(t, decodeJSON(t, expand(`{
		"address": "{wavax}", "ercType": "ERC-20", "name": "Wrapped AVAX", "symbol": "WAVAX", "decimals": 18,
		"description": "Wrapped AVAX, one for one.", "officialSite": "https://wavax.example", "email": "hi@wavax.example",
		"color": "#E84142", "logoAsset": {"assetId": "logo-1", "imageUri": "https://wavax.example/logo.png"},
		"bannerAsset": {"imageUri": "https://wavax.example/banner.png"},
		"resourceLinks": [{"type": "Website", "url": "https://wavax.example"}, {"type": "Github", "url": "https://github.com/x/wavax"}],
		"tags": ["defi", "wrapped"],
		"deploymentDetails": {"txHash": "{tx1}", "deployerAddress": "{alice}"}
	}`)), getBody(t, srv, metadataPath(wavax)))

	require.Equal(t, decodeJSON(t, expand(`{"address": "{kitties}", "ercType": "ERC-721", "name": "Kitties", "symbol": "KIT"}`)),
		getBody(t, srv, metadataPath(kitties)), "no decimals outside ERC-20, nothing curated, no deployment seen")
	require.Equal(t, decodeJSON(t, expand(`{"address": "{items}", "ercType": "ERC-1155", "name": "Items", "symbol": "ITM"}`)),
		getBody(t, srv, metadataPath(items)))
	require.Equal(t, decodeJSON(t, expand(`{"address": "{child}", "ercType": "UNKNOWN",
		"deploymentDetails": {"txHash": "{tx4}", "deployerAddress": "{alice}", "deployerContractAddress": "{kitties}"}}`)),
		getBody(t, srv, metadataPath(child)), "a contract of no known standard, deployed by a factory")
	require.Equal(t, decodeJSON(t, expand(`{"address": "{alice}", "ercType": "UNKNOWN", "description": "Not a contract, but curated."}`)),
		getBody(t, srv, metadataPath(alice)), "the operator's word makes an address a contract")

	requireDataError(t, srv.get(t, metadataPath(bob)), http.StatusNotFound, "is not a contract known to the index")
	requireDataError(t, srv.get(t, "/v1/chains/779672/addresses/"+wavax.Hex()), http.StatusNotFound,
		"of chain 779672 ('dispatch')") // curated entries and contracts are per chain
}

func TestCuratedLogoInRichAddresses(t *testing.T) {
	cfg := testConfig()
	cfg.EVM.CuratedContracts = CuratedContracts{43112: {wavax: {LogoAsset: &ImageAsset{ImageURI: "https://wavax.example/logo.png"}}}}
	srv := newTestAPI(t, cfg, withFixtures(t, newFakeBackend()), nil)
	body := getBody(t, srv, "/v1/chains/43112/transactions/"+txHashN(3).Hex())
	to := body["nativeTransaction"].(map[string]any)["to"].(map[string]any)
	require.Equal(t, "https://wavax.example/logo.png", to["logoUri"])
	token := body["erc20Transfers"].([]any)[0].(map[string]any)["erc20Token"].(map[string]any)
	require.Equal(t, "https://wavax.example/logo.png", token["logoUri"])
}
