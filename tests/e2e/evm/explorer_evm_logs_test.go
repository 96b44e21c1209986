//go:build e2e

package evm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/crypto"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/truth"
)

// explorerEventNames are the events the tx page names, by topic0, written
// here apart from the explorer's table.
func explorerEventNames() map[common.Hash]string {
	names := map[common.Hash]string{}
	for _, sig := range []string{
		"Transfer(address,address,uint256)", "Approval(address,address,uint256)", "ApprovalForAll(address,address,bool)",
		"TransferSingle(address,address,address,uint256,uint256)", "TransferBatch(address,address,address,uint256[],uint256[])",
		"SendWarpMessage(address,bytes32,bytes)",
	} {
		names[crypto.Keccak256Hash([]byte(sig))] = sig
	}
	return names
}

// checkLogs compares the tx page's logs with the receipt's logs
// (eth_getTransactionReceipt): index, address, event name, topics and data
// of each, in order.
func (e *explorerCheck) checkLogs(t *testing.T, x *truth.EVMTx) {
	t.Helper()
	b := e.b
	what := e.f.name() + " tx " + x.Hash.Hex() + " logs"
	names := explorerEventNames()
	var want []string
	for _, l := range x.Receipt.Logs {
		parts := []string{fmt.Sprint(l.LogIndex), l.Address.Hex()}
		if len(l.Topics) > 0 && names[l.Topics[0]] != "" {
			parts = append(parts, names[l.Topics[0]])
		}
		for _, tp := range l.Topics {
			parts = append(parts, tp.Hex())
		}
		want = append(want, strings.Join(append(parts, hexutil.Encode(l.Data)), " "))
	}
	var got []string
	for i := 1; i <= b.Count(t, "#logs table[data-log]"); i++ {
		log := fmt.Sprintf("#logs table[data-log]:nth-of-type(%d)", i)
		parts := []string{b.Text(t, log+" [data-field=logIndex]")}
		parts = append(parts, b.Attrs(t, log+" [data-field=address] a", "data-address")...)
		parts = append(parts, b.Texts(t, log+" [data-field=event]")...)
		parts = append(parts, b.Texts(t, log+" [data-field=topic]")...)
		got = append(got, strings.Join(append(parts, b.Text(t, log+" [data-field=data]")), " "))
	}
	require.Equal(t, want, got, what)
	if len(want) == 0 {
		require.Equal(t, "None.", b.Text(t, "#logs p"), what)
	}
	require.Zero(t, b.Count(t, "#logs-note"), "%s: the node's receipt was read", what)
}
