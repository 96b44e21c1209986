package explorer

import (
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPrimaryTxPageShowsUTXOsAndEscapesText(t *testing.T) {
	memo := "0x" + hex.EncodeToString([]byte(hostileText))
	asset := `{"assetId":"` + assetID + `","name":"<b>Coin</b>","symbol":"<i>C","denomination":3,"type":"secp256k1","amount":"12345"}`
	xTx := jsonOf(t, `{"txHash":"`+txID1+`","chainFormat":"linear","timestamp":1700000000,"txType":"BaseTx","memo":"`+memo+`",
		"blockHeight":4,"blockHash":"`+blockID1+`",
		"consumedUtxos":[{"utxoId":"`+txID2+`","addresses":["`+addrA+`"],"asset":`+asset+`,"consumedOnChainId":"`+xChainID+`",
			"createdOnChainId":"`+xChainID+`","creationTxHash":"`+txID2+`","consumingTxHash":"`+txID1+`","locktime":0,"outputIndex":"0","threshold":1,"timestamp":1,"utxoType":"TRANSFER"}],
		"emittedUtxos":[{"utxoId":"`+blockID0+`","addresses":["`+addrA+`"],"asset":`+asset+`,"consumedOnChainId":"`+pChainID+`",
			"createdOnChainId":"`+xChainID+`","creationTxHash":"`+txID1+`","locktime":0,"outputIndex":"1","threshold":1,"timestamp":1,"utxoType":"TRANSFER"}],
		"amountUnlocked":[`+asset+`],"amountCreated":[],"sourceChain":"`+xChainID+`","destinationChain":"`+pChainID+`"}`)
	pTx := jsonOf(t, `{"txHash":"`+txID2+`","txType":"AddPermissionlessDelegatorTx","blockNumber":"9","blockHash":"`+blockID1+`","blockTimestamp":1700000000,
		"consumedUtxos":[],"emittedUtxos":[{"utxoId":"`+blockID0+`","addresses":["`+addrA+`"],"asset":{"assetId":"`+assetID+`","name":"Avalanche","symbol":"AVAX","denomination":9,"type":"secp256k1","amount":"2000000000000"},
			"amount":"2000000000000","assetId":"`+assetID+`","consumedOnChainId":"`+pChainID+`","createdOnChainId":"`+pChainID+`","blockNumber":"9","blockTimestamp":1,"outputIndex":0,"txHash":"`+txID2+`",
			"utxoType":"STAKE","staked":true,"utxoStartTimestamp":1700000000,"utxoEndTimestamp":1700086400,"stakeableLocktime":1800000000,"threshold":1}],
		"value":[],"amountBurned":[],"amountStaked":[{"assetId":"`+assetID+`","name":"Avalanche","symbol":"AVAX","denomination":9,"type":"secp256k1","amount":"2000000000000"}],
		"amountL1ValidatorBalanceBurned":[],"nodeId":"`+nodeID+`","startTimestamp":0,"endTimestamp":1700086400,"rewardAddresses":["`+addrA+`"]}`)
	cTx := jsonOf(t, `{"txHash":"`+txID1+`","blockHeight":12,"blockHash":"0xabc","timestamp":1700000000,"memo":"","txType":"ImportTx",
		"amountUnlocked":[],"amountCreated":[],"sourceChain":"`+pChainID+`","destinationChain":"`+cChainID+`",
		"evmOutputs":[{"toAddress":"0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC","asset":{"assetId":"`+assetID+`","name":"Avalanche","symbol":"AVAX","denomination":9,"type":"secp256k1","amount":"599000000"}}],
		"consumedUtxos":[]}`)
	h := newTestExplorer(t, Config{}, fakeAPI{
		primaryAPI + "x-chain/transactions/" + txID1: xTx,
		primaryAPI + "p-chain/transactions/" + txID2: pTx,
		primaryAPI + "c-chain/transactions/" + txID1: cTx,
	}, nil)

	body := pageBody(t, h, "/x-chain/tx/"+txID1, http.StatusOK)
	require.NotContains(t, body, "<script>")
	require.NotContains(t, body, "<b>Coin")
	require.Contains(t, body, `<td data-field="memo" class="memo">`+escapedText+`</td>`)
	require.Contains(t, body, `&lt;i&gt;C`)
	// Amounts in the asset's denomination, exactly.
	require.Contains(t, body, `data-amount="12345">12.345</span>`)
	// Owners link to their address pages: a UTXO exported to P to P's.
	require.Contains(t, body, explorerLink("/x-chain/address/X-"+addrA))
	require.Contains(t, body, explorerLink("/p-chain/address/P-"+addrA))
	require.Contains(t, body, explorerLink("/x-chain/block/4"))
	require.Contains(t, body, explorerLink("/x-chain/asset/"+assetID))
	require.Contains(t, body, explorerLink("/x-chain/tx/"+txID2)) // the consumed UTXO's creation
	require.Contains(t, body, "exported to")
	require.Equal(t, 2, strings.Count(body, `data-utxo=`))
	require.Contains(t, body, `href="/ext/bc/data/v1/networks/local/blockchains/x-chain/transactions/`+txID1+`">JSON</a>`)

	body = pageBody(t, h, "/p-chain/tx/"+txID2, http.StatusOK)
	require.Contains(t, body, explorerLink("/validators/"+nodeID))
	// The tx names no start (since Durango): the stake starts at its block.
	require.Contains(t, body, `data-field="period">2023-11-14 22:13:20 UTC – 2023-11-15 22:13:20 UTC</span> <span class="muted">(from its acceptance`)
	require.Contains(t, body, `data-amount="2000000000000">2000</span>`)
	require.Contains(t, body, `<span class="badge">stake</span> <span class="badge">staked</span>`)
	require.Contains(t, body, "stakeable until 2027-01-15 08:00:00 UTC")
	require.Contains(t, body, `data-field="rewardOwners"><a class="mono" data-address="`+addrA+`" `+explorerLink("/p-chain/address/P-"+addrA))

	body = pageBody(t, h, "/c-chain/tx/"+txID1, http.StatusOK)
	require.Contains(t, body, explorerLink("/evm/43112/block/12"))
	require.Contains(t, body, explorerLink("/evm/43112/address/0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"))
	require.Contains(t, body, `data-amount="599000000">0.599</span>`)
	require.Contains(t, body, `id="consumed"`)
	require.NotContains(t, body, `id="emitted"`)

	pageBody(t, h, "/x-chain/tx/"+txID2, http.StatusNotFound)
}

func TestMemoText(t *testing.T) {
	require.Equal(t, "hi there", memoText("0x"+hex.EncodeToString([]byte("hi there"))))
	require.Equal(t, "0x00ff", memoText("0x00ff"))
	require.Equal(t, "", memoText(""))
}
