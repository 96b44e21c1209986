package seed

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"
)

// testSample is a Sample as Run would make it, with made-up values.
func testSample() *Sample {
	return &Sample{
		Network: "local", NetworkID: 12345, EVMChainID: 43112,
		PChain: ids.Empty, XChain: ids.GenerateTestID(), CChain: ids.GenerateTestID(),
		Sender: Account{EVM: common.HexToAddress("0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"),
			X: "X-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", P: "P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u"},
		Recipient: Account{EVM: common.HexToAddress("0x00000000000000000000000000000000000000aa"), X: "X-local1recipient"},
		ERC20:     common.HexToAddress("0x20"), ERC721: common.HexToAddress("0x721"), ERC1155: common.HexToAddress("0x1155"),
		ERC721RecipientToken: 1,
		EVMTxs: []EVMTx{
			{Label: "deploy TestERC20", Kind: KindDeploy, Hash: common.HexToHash("0x01"), Contract: common.HexToAddress("0x20"), Block: 2},
			{Label: "native transfer", Kind: KindNative, Hash: common.HexToHash("0x02"), Block: 2},
		},
		PrimaryTxs: []PrimaryTx{
			{Label: "X transfer", Chain: "X", ID: ids.GenerateTestID(), TxType: "BaseTx"},
			{Label: "C import from P", Chain: "C", ID: ids.GenerateTestID(), TxType: "ImportTx"},
		},
		Warp:    &WarpSample{TxHash: common.HexToHash("0x03"), Message: []byte{0x00, 0x00, 0xab}, Signable: true},
		Heights: map[string]uint64{"P": 7, "X": 2, "C": 2},
		Took:    3 * time.Second, MadeAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

func TestExamples(t *testing.T) {
	const base = "http://127.0.0.1:9650/ext/bc/data"
	s := testSample()
	examples := Examples(base, s)
	require.Len(t, examples, 17)
	names := map[string]bool{}
	for _, ex := range examples {
		require.False(t, names[ex.Name], "name %s twice", ex.Name)
		names[ex.Name] = true
		require.True(t, strings.HasPrefix(ex.URL, base+"/"), ex.URL)
		require.NotEmpty(t, ex.What)
		require.NotEmpty(t, ex.DataPath)
	}
	byName := func(name string) string {
		return exampleNamed(t, examples, name).URL
	}
	require.Equal(t, base+"/v1/chains/43112/addresses/0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC/transactions", byName(ExampleAddressTxs))
	require.Equal(t, base+"/v1/chains/43112/transactions/"+common.HexToHash("0x02").Hex(), byName(ExampleTransaction))
	require.Equal(t, base+"/metrics/v2/chains/43112/contracts/"+s.ERC721.Hex()+"/nfts:listHolders", byName(ExampleNFTHolders))
	require.Equal(t, base+"/v1/networks/local/blockchains/p-chain/balances?addresses=P-local18jma8ppw3nhx5r4ap8clazz0dps7rv5u00z96u", byName(ExamplePBalances))
	require.Equal(t, base+"/v1/networks/local/blockchains/c-chain/transactions?addresses=0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", byName(ExampleCAtomicTxs))
	require.Equal(t, base+"/v1/chains/43112/transactions/"+common.HexToHash("0x03").Hex(), byName(ExampleWarpTx))
	sign := exampleNamed(t, examples, ExampleWarpSignatures)
	require.Equal(t, base+"/v1/signatureAggregator/local/aggregateSignatures", sign.URL)
	require.Equal(t, `{"message":"0000ab"}`, sign.Body)
	require.Equal(t, "POST", sign.Method())
	require.Equal(t, `curl -s -H 'Content-Type: application/json' -d '{"message":"0000ab"}' '`+sign.URL+`'`, sign.Curl())

	// Without validators nobody can sign: the transaction stays, the
	// aggregation goes. A record made before the warp message has neither.
	s.Warp.Signable = false
	require.Len(t, Examples(base, s), 16)
	require.Equal(t, ExampleWarpTx, Examples(base, s)[15].Name)
	s.Warp = nil
	require.Len(t, Examples(base, s), 15)
}

func exampleNamed(t *testing.T, examples []Example, name string) Example {
	t.Helper()
	for _, ex := range examples {
		if ex.Name == name {
			return ex
		}
	}
	t.Fatalf("no example %s", name)
	return Example{}
}

func TestHasData(t *testing.T) {
	for _, tc := range []struct {
		body, path string
		want       bool
	}{
		{`{"transactions":[{"txHash":"0x1"}]}`, "transactions", true},
		{`{"transactions":[]}`, "transactions", false},
		{`{"nextPageToken":"x"}`, "transactions", false},
		{`{"nativeTransaction":{"txHash":"0xab"}}`, "nativeTransaction.txHash", true},
		{`{"nativeTransaction":{"txHash":""}}`, "nativeTransaction.txHash", false},
		{`{"nativeTokenBalance":{"balance":"0"}}`, "nativeTokenBalance.balance", false},
		{`{"nativeTokenBalance":{"balance":"125"}}`, "nativeTokenBalance.balance", true},
		{`{"balances":{"unlocked":[{"amount":"1"}]}}`, "balances.unlocked", true},
		{`{"balances":[1]}`, "balances.unlocked", false},
		{`{"totalHolders":2}`, "totalHolders", true},
		{`{"totalHolders":0}`, "totalHolders", false},
		{`{"x":null}`, "x", false},
		{`{"x":{}}`, "x", false},
		{`{"x":true}`, "x", true},
	} {
		got, err := HasData([]byte(tc.body), tc.path)
		require.NoError(t, err, tc.body)
		require.Equal(t, tc.want, got, "%s at %s", tc.body, tc.path)
	}
	_, err := HasData([]byte("404 page not found"), "transactions")
	require.Error(t, err)
}

func TestRecord(t *testing.T) {
	dir := t.TempDir()
	none, err := ReadRecord(dir)
	require.NoError(t, err)
	require.Nil(t, none, "a data dir never seeded")

	s := testSample()
	require.NoError(t, WriteRecord(dir, s))
	got, err := ReadRecord(dir)
	require.NoError(t, err)
	require.Equal(t, s, got)
	_, err = os.Stat(RecordPath(dir) + ".tmp")
	require.ErrorIs(t, err, os.ErrNotExist, "no temp file left behind")

	require.NoError(t, os.WriteFile(RecordPath(dir), []byte("{"), 0o644))
	_, err = ReadRecord(dir)
	require.ErrorContains(t, err, "delete it to seed again")
}

func TestWriteSummary(t *testing.T) {
	const base = "http://127.0.0.1:9650/ext/bc/data"
	s := testSample()
	var out bytes.Buffer
	WriteSummary(&out, base, s)
	text := out.String()
	for _, want := range []string{s.Sender.EVM.Hex(), s.Sender.X, s.Recipient.X, s.ERC20.Hex(), s.ERC1155.Hex(),
		s.EVMTxs[1].Hash.Hex(), s.PrimaryTxs[1].ID.String()} {
		require.Contains(t, text, want)
	}
	for _, ex := range Examples(base, s) {
		require.Contains(t, text, "# "+ex.What+"\n")
		require.Contains(t, text, ex.Curl()+"\n")
	}
	require.Contains(t, text, "0x0000ab")
}
