package primary

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// A registry as the store keeps it: the primary network with the P-, X-
// and C-chain at genesis, an L1 (converted, its owner transferred) with an
// EVM chain, and a plain subnet with a chain of another VM.
var (
	testL1Subnet    = ids.ID{'l', '1'}
	testPlainSubnet = ids.ID{'s', 'n'}
	testEVMChain    = ids.ID{'e', 'v', 'm'}
	testOtherChain  = ids.ID{'o', 't', 'h'}
	testConvertTx   = ids.ID{'c', 'v', 't'}
	testManager     = []byte{0xAB, 0xCD, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01}
)

const testEVMGenesis = `{"config":{"chainId":99999,"feeConfig":{"gasLimit":8000000}},"alloc":{},"gasLimit":"0x7a1200"}`

func withRegistry(t *testing.T, fakes *handlertest.Fakes) *handlertest.Fakes {
	t.Helper()
	node := fakenet.Info()
	f := fakes.Primary
	f.AddSubnet(pdata.Subnet{ID: constants.PrimaryNetworkID, CreatedTime: 100})
	f.AddBlockchain(pdata.IndexedBlockchain{Subnet: constants.PrimaryNetworkID, CreatedTime: 100,
		Blockchain: pdata.Blockchain{ID: constants.PlatformChainID, Name: "P-Chain", VMID: constants.PlatformVMID}})
	f.AddBlockchain(pdata.IndexedBlockchain{Subnet: constants.PrimaryNetworkID, CreatedTime: 100, Created: pdata.TxPos{Index: 5},
		Blockchain: pdata.Blockchain{ID: node.ChainID(netinfo.X), Name: "X-Chain", VMID: constants.AVMID, Genesis: []byte{0, 1, 0xFF}}})
	f.AddBlockchain(pdata.IndexedBlockchain{Subnet: constants.PrimaryNetworkID, CreatedTime: 100, Created: pdata.TxPos{Index: 6},
		Blockchain: pdata.Blockchain{ID: node.ChainID(netinfo.C), Name: "C-Chain", VMID: constants.EVMID, Genesis: []byte(`{"config":{"chainId":43112}}`)}})
	owner := pdata.Owners{Threshold: 1, Locktime: 3, Addrs: []ids.ShortID{{1}, {2}}}
	f.AddSubnet(pdata.Subnet{ID: testL1Subnet, Created: pdata.TxPos{Height: 7}, CreatedTime: 200, Owner: owner,
		ConversionTx: testConvertTx, Manager: &pdata.L1Manager{BlockchainID: testEVMChain, Address: testManager}})
	f.AddBlockchain(pdata.IndexedBlockchain{Subnet: testL1Subnet, Created: pdata.TxPos{Height: 8}, CreatedTime: 210,
		Blockchain: pdata.Blockchain{ID: testEVMChain, Name: "l1evm", VMID: ids.ID{'s', 'e', 'v', 'm'}, Genesis: []byte(testEVMGenesis)}})
	f.AddSubnet(pdata.Subnet{ID: testPlainSubnet, Created: pdata.TxPos{Height: 9}, CreatedTime: 300,
		Owner: pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{{3}}}})
	f.AddBlockchain(pdata.IndexedBlockchain{Subnet: testPlainSubnet, Created: pdata.TxPos{Height: 9, Index: 1}, CreatedTime: 300,
		Blockchain: pdata.Blockchain{ID: testOtherChain, Name: "other", VMID: ids.ID{'o'}, Genesis: []byte("plain text")}})
	return fakes
}

// registryListRouteCases are the cases of listSubnets or listBlockchains
// (/v1/networks/{network}/<key>, whose reply lists <key>).
func registryListRouteCases(key string) []handlertest.RouteCase {
	path := func(n string) string { return "/v1/networks/" + n + "/" + key }
	p := path("local")
	return append(networkCasesFor(path, servedBy(key)),
		handlertest.OK("all params", p+"?pageSize=10000&sortOrder=asc", key),
		handlertest.OK("sortOrder any case", p+"?sortOrder=DESC&pageSize=1", key),
		handlertest.Invalid("pageSize too large", p+"?pageSize=10001", "pageSize", "between 1 and 10000"),
		handlertest.Invalid("pageSize zero", p+"?pageSize=0", "pageSize"),
		handlertest.Invalid("pageSize not a number", p+"?pageSize=x", "pageSize"),
		handlertest.Invalid("sortOrder", p+"?sortOrder=up", "sortOrder"),
		handlertest.Invalid("pageToken", p+"?pageToken=x", "invalid pageToken"),
	)
}

// pageAll follows nextPageToken from path until the last page and returns
// every item of key, each as its idKey member.
func pageAll(t *testing.T, srv *handlertest.API, path, key, idKey string) []string {
	t.Helper()
	var got []string
	next := path
	for range 100 {
		body := srv.GetBody(t, next)
		for _, item := range body[key].([]any) {
			got = append(got, item.(map[string]any)[idKey].(string))
		}
		token, ok := body["nextPageToken"].(string)
		if !ok {
			return got
		}
		next = path + "&pageToken=" + url.QueryEscape(token)
	}
	t.Fatalf("%s: no last page", path)
	return nil
}

// requireRegistryNotFound checks a 404 in the spec's error body.
func requireRegistryNotFound(t *testing.T, srv *handlertest.API, path string, fragments ...string) {
	t.Helper()
	handlertest.RequireDataError(t, srv.Get(t, path), http.StatusNotFound, fragments...)
}

func TestEVMChainIDOf(t *testing.T) {
	id := evmChainIDOf([]byte(" " + testEVMGenesis))
	require.NotNil(t, id)
	require.Equal(t, uint64(99999), *id)
	require.Nil(t, evmChainIDOf([]byte(`{"config":{}}`)))
	require.Nil(t, evmChainIDOf([]byte{0, 1}))
	require.Nil(t, evmChainIDOf(nil))
}
