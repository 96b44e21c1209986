package primary

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/netinfo"
)

const (
	pActivityPath = "/v1/networks/local/blockchains/p-chain/lastActivityTimestampByAddresses"
	xActivityPath = "/v1/networks/local/blockchains/x-chain/lastActivityTimestampByAddresses"
)

func TestGetLastActivityTimestampByAddresses(t *testing.T) {
	srv := newUTXOTestAPI(t)
	last := handlertest.FixtureTxID(netinfo.P, 6) // the IncreaseL1ValidatorBalanceTx
	want := map[string]any{
		"timestamp": float64(handlertest.BlockTime(6)), "blockNumber": "6", "txHash": last.String(),
		"utxoId": last.Prefix(0).String(), "isConsumed": false, "chainName": "p-chain", "network": "local",
	}
	require.Equal(t, want, srv.GetBody(t, pActivityPath+"?addresses=P-"+alice(t)))

	var post map[string]any
	handlertest.RequireJSON(t, srv.Request(t, http.MethodPost, pActivityPath, `{"addresses": "`+alice(t)+`"}`), http.StatusOK, &post)
	require.Equal(t, want, post)

	body := srv.GetBody(t, "/v1/networks/testnet/blockchains/x-chain/lastActivityTimestampByAddresses?addresses="+alice(t))
	require.Equal(t, "fuji", body["network"], "PrimaryNetworkType knows fuji, not testnet")
	require.Equal(t, "x-chain", body["chainName"])
}

func TestGetLastActivityTimestampBadInput(t *testing.T) {
	srv := newUTXOTestAPI(t)
	nobody := handlertest.Bech32Addr(t, "local", 0x77)
	post := handlertest.Invalid("V2 without addresses", pActivityPath, "addresses is required")
	post.Method, post.Body = http.MethodPost, `{"addresses": ""}`
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("no addresses", pActivityPath, "addresses is required"),
		handlertest.Invalid("bad address", xActivityPath+"?addresses=X-avax1", "invalid addresses"),
		post,
		handlertest.Failing("no activity", xActivityPath+"?addresses="+nobody, http.StatusNotFound, "no activity", "x-chain"),
	})
}
