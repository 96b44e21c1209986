package explorer

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPrimaryAddressPageTabs(t *testing.T) {
	avax := `"assetId":"` + assetID + `","name":"Avalanche","symbol":"AVAX","denomination":9,"type":"secp256k1"`
	pAddr := "P-" + addrA
	balances := jsonOf(t, `{"balances":{"unlockedUnstaked":[{`+avax+`,"amount":"1500000000","utxoCount":2}],
		"unlockedStaked":[],"lockedPlatform":[{`+avax+`,"amount":"250000000","utxoCount":1}],"lockedStakeable":[],"lockedStaked":[],"pendingStaked":[],
		"atomicMemoryUnlocked":[{`+avax+`,"amount":"100000000","utxoCount":1,"sharedWithChainId":"`+cChainID+`","status":"pendingImport"}],
		"atomicMemoryLocked":[]},"chainInfo":{"chainName":"p-chain","network":"local"}}`)
	utxo := `{"utxoId":"` + txID2 + `","addresses":["` + addrA + `"],"asset":{` + avax + `,"amount":"5"},"amount":"5","assetId":"` + assetID + `",
		"consumedOnChainId":"` + pChainID + `","createdOnChainId":"` + pChainID + `","blockNumber":"3","blockTimestamp":1,"outputIndex":0,
		"txHash":"` + txID1 + `","utxoType":"TRANSFER","threshold":1}`
	h := newTestExplorer(t, Config{}, fakeAPI{
		primaryAPI + "p-chain/balances?addresses=" + pAddr:                                   balances,
		primaryAPI + "p-chain/utxos?addresses=" + pAddr + "&pageSize=25":                     jsonOf(t, `{"utxos":[`+utxo+`],"chainInfo":{},"nextPageToken":"n1"}`),
		primaryAPI + "p-chain/utxos?addresses=" + pAddr + "&includeSpent=true&pageSize=25":   jsonOf(t, `{"utxos":[],"chainInfo":{}}`),
		primaryAPI + "p-chain/transactions?addresses=" + pAddr + "&pageSize=25":              jsonOf(t, `{"transactions":[{"txHash":"`+txID1+`","txType":"BaseTx","blockNumber":"3","blockTimestamp":1}],"chainInfo":{}}`),
		primaryAPI + "c-chain/balances?addresses=0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC": jsonOf(t, `{"balances":{"atomicMemoryUnlocked":[],"atomicMemoryLocked":[]},"chainInfo":{}}`),
	}, nil)

	body := pageBody(t, h, "/p-chain/address/"+pAddr, http.StatusOK)
	for _, c := range balanceCategories("p-chain") { // every category shows, empty ones too
		require.Contains(t, body, `<tr data-category="`+c[0]+`"`)
	}
	require.Equal(t, 8, strings.Count(body, `<tr data-category=`))
	require.Contains(t, body, `<tr data-category="lockedPlatform" data-asset="`+assetID+`" data-shared="">`)
	require.Contains(t, body, `data-amount="1500000000">1.5</span>`)
	require.Contains(t, body, `<td class="num" data-field="utxoCount">2</td>`)
	require.Contains(t, body, explorerLink("/c-chain")) // the atomic memory's counterparty
	require.Contains(t, body, "pendingImport")

	body = pageBody(t, h, "/p-chain/address/"+pAddr+"?tab=utxos", http.StatusOK)
	require.Contains(t, body, `<tr data-utxo="`+txID2+`">`)
	require.Contains(t, body, `id="toggle-spent" href="/ext/bc/data/explorer/p-chain/address/`+pAddr+`?includeSpent=true&amp;tab=utxos"`)
	require.Contains(t, body, `rel="next" href="/ext/bc/data/explorer/p-chain/address/`+pAddr+`?page=n1&amp;tab=utxos"`)
	body = pageBody(t, h, "/p-chain/address/"+pAddr+"?tab=utxos&includeSpent=true", http.StatusOK)
	require.Contains(t, body, "Unspent and spent UTXOs")

	body = pageBody(t, h, "/p-chain/address/"+pAddr+"?tab=history", http.StatusOK)
	require.Contains(t, body, explorerLink("/p-chain/tx/"+txID1))

	body = pageBody(t, h, "/c-chain/address/0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", http.StatusOK)
	require.Equal(t, 2, strings.Count(body, `<tr data-category=`))

	require.Contains(t, pageBody(t, h, "/p-chain/address/a,b", http.StatusBadRequest), "one address per page")
}
