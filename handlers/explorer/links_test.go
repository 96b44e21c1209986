package explorer

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
)

// Every tabbed page refuses a tab it does not have: each tab has one URL.
func TestEveryTabbedPageRefusesAnUnknownTab(t *testing.T) {
	replies := evmAPI(t, evmAddressReplies(t))
	replies["/v1/networks/local/subnets/"+testSubnet] = jsonOf(t, `{"subnetId":"`+testSubnet+`","isL1":true}`)
	h := newTestExplorer(t, Config{}, replies, nil)
	for _, path := range []string{
		"/evm/43112",
		"/evm/43112/address/" + testAddr,
		"/evm/43112/token/" + testToken,
		"/validators/" + nodeID,
		"/subnets/" + testSubnet,
		"/p-chain",
		"/x-chain",
		"/c-chain",
		"/p-chain/address/P-" + addrA,
		"/x-chain/address/X-" + addrA,
		"/c-chain/address/C-" + addrA,
	} {
		body := pageBody(t, h, path+"?tab=nope", http.StatusBadRequest)
		require.Contains(t, body, "invalid tab &#39;nope&#39;: this page has the tabs ", path)
	}
}
