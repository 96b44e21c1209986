package primary

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func TestGetSubnetByIDRoute(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withRegistry(t, handlertest.NewFakes()))
	path := func(n string) string { return "/v1/networks/" + n + "/subnets/" + testL1Subnet.String() }
	cases := networkCasesFor(path, servedBy("subnetId"))
	p := "/v1/networks/local/subnets/"
	cases = append(cases,
		handlertest.OK("primary network", p+constants.PrimaryNetworkID.String(), "blockchains"),
		handlertest.Invalid("not cb58", p+"nope", "invalid subnetId 'nope'", "cb58"),
		handlertest.Invalid("hex", p+"0x"+testL1Subnet.Hex(), "invalid subnetId"),
		handlertest.Invalid("network first", "/v1/networks/mainnet/subnets/nope", "network"),
		handlertest.Failing("unknown", p+ids.ID{9}.String(), http.StatusNotFound, "subnet "+ids.ID{9}.String()+" not found"),
	)
	handlertest.RunRouteCases(t, srv, cases)
}

func TestGetSubnetByIDShape(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withRegistry(t, handlertest.NewFakes()))
	var got map[string]any
	handlertest.RequireJSON(t, srv.Get(t, "/v1/networks/local/subnets/"+testL1Subnet.String()), http.StatusOK, &got)
	owners := []any{mustBech32(t, ids.ShortID{1}), mustBech32(t, ids.ShortID{2})}
	require.Equal(t, map[string]any{
		"createBlockTimestamp": 200.0, "createBlockIndex": "7", "subnetId": testL1Subnet.String(),
		"ownerAddresses": owners, "threshold": 1.0, "locktime": 3.0,
		"subnetOwnershipInfo":         map[string]any{"addresses": owners, "threshold": 1.0, "locktime": 3.0},
		"isL1":                        true,
		"l1ConversionTransactionHash": testConvertTx.String(),
		"l1ValidatorManagerDetails": map[string]any{"blockchainId": testEVMChain.String(),
			"contractAddress": "0xaBcd000000000000000000000000000000000001"},
		"blockchains": []any{map[string]any{
			"createBlockTimestamp": 210.0, "createBlockNumber": "8", "blockchainId": testEVMChain.String(),
			"vmId": ids.ID{'s', 'e', 'v', 'm'}.String(), "subnetId": testL1Subnet.String(), "blockchainName": "l1evm",
			"evmChainId": 99999.0, "genesisData": handlertest.DecodeJSON(t, testEVMGenesis),
		}},
	}, got)

	// A subnet that is no L1 has none of the L1 members; the primary
	// network has no owner and its three chains.
	got = nil
	handlertest.RequireJSON(t, srv.Get(t, "/v1/networks/local/subnets/"+testPlainSubnet.String()), http.StatusOK, &got)
	require.Equal(t, false, got["isL1"])
	require.NotContains(t, got, "l1ConversionTransactionHash")
	require.NotContains(t, got, "l1ValidatorManagerDetails")
	got = nil
	handlertest.RequireJSON(t, srv.Get(t, "/v1/networks/local/subnets/"+constants.PrimaryNetworkID.String()), http.StatusOK, &got)
	require.Equal(t, map[string]any{"addresses": []any{}, "threshold": 0.0, "locktime": 0.0}, got["subnetOwnershipInfo"])
	require.Len(t, got["blockchains"], 3)
	handlertest.RequireNoNulls(t, got)
}

// mustBech32 is addr on the local network, as the replies show owners.
func mustBech32(t *testing.T, addr ids.ShortID) string {
	t.Helper()
	s, err := address.FormatBech32("local", addr[:])
	require.NoError(t, err)
	return s
}
