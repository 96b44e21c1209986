package evmmeta

import (
	"encoding/base64"
	"errors"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/accounts/abi"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

func abiString(t *testing.T, s string) []byte {
	t.Helper()
	typ, err := abi.NewType("string", "", nil)
	require.NoError(t, err)
	b, err := abi.Arguments{{Type: typ}}.Pack(s)
	require.NoError(t, err)
	return b
}

func word(v int64) []byte { return withUint(nil, big.NewInt(v))[4:] }

func TestDecodeString(t *testing.T) {
	s, ok := decodeString(abiString(t, "Wrapped AVAX"))
	require.True(t, ok)
	require.Equal(t, "Wrapped AVAX", s)
	var b32 [32]byte
	copy(b32[:], "MKR")
	s, ok = decodeString(b32[:])
	require.True(t, ok)
	require.Equal(t, "MKR", s)
	for _, bad := range [][]byte{nil, {1, 2}, append(word(1<<40), word(3)...), append(word(32), word(1<<40)...)} {
		_, ok := decodeString(bad)
		require.False(t, ok)
	}
}

func TestDescribeKeepsObservedStandard(t *testing.T) {
	yes, no := word(1), word(0)
	answers := []nodeapi.ContractCall{
		{Result: abiString(t, "Token")}, {Result: abiString(t, "TKN")}, {Result: word(6)},
		{Result: yes}, {Result: no},
	}
	c := describe(evmdata.Contract{Kind: evmdata.Erc20}, answers)
	require.Equal(t, evmdata.Erc20, c.Kind, "logs said ERC-20")
	require.Equal(t, "TKN", c.Symbol)
	require.True(t, c.HasDecimal)
	require.Equal(t, uint8(6), c.Decimals)
	c = describe(evmdata.Contract{}, answers)
	require.Equal(t, evmdata.Erc721, c.Kind, "ERC-165 settles an unknown contract")

	reverted := []nodeapi.ContractCall{{Err: errors.New("revert")}, {Err: errors.New("revert")},
		{Err: errors.New("revert")}, {Err: errors.New("revert")}, {Err: errors.New("revert")}}
	c = describe(evmdata.Contract{}, reverted)
	require.Equal(t, evmdata.ErcUnknown, c.Kind)
	require.Empty(t, c.Name)
	require.False(t, c.HasDecimal)
}

func TestTokenMetadataFromURIs(t *testing.T) {
	doc := `{"name":"Blue #1","description":"d","image":"data:image/svg+xml;base64,AAA=","attributes":[{"trait_type":"c","value":"blue"}]}`
	ref := evmdata.TokenRef{TokenID: big.NewInt(1), Kind: evmdata.Erc721}
	for uri, want := range map[string]evmdata.IndexStatus{
		"data:application/json;base64," + base64.StdEncoding.EncodeToString([]byte(doc)): evmdata.IndexStatusIndexed,
		"data:application/json," + doc:     evmdata.IndexStatusIndexed,
		"data:application/json;base64,!!!": evmdata.IndexStatusInvalidTokenURI,
		"data:application/json,{not json":  evmdata.IndexStatusInvalidMetadata,
		"ipfs://bafy/1.json":               evmdata.IndexStatusUnindexed,
		"https://example.com/1.json":       evmdata.IndexStatusUnindexed,
		"":                                 evmdata.IndexStatusInvalidTokenURI,
	} {
		m := tokenMetadata(ref, nodeapi.ContractCall{Result: abiString(t, uri)})
		require.Equal(t, want, m.Status, uri)
		if want == evmdata.IndexStatusIndexed {
			require.Equal(t, "Blue #1", m.Name)
			require.Contains(t, m.Attributes, "trait_type")
		}
	}
	m := tokenMetadata(ref, nodeapi.ContractCall{Err: errors.New("nonexistent token")})
	require.Equal(t, evmdata.IndexStatusMissingToken, m.Status)

	multi := evmdata.TokenRef{TokenID: big.NewInt(255), Kind: evmdata.Erc1155}
	m = tokenMetadata(multi, nodeapi.ContractCall{Result: abiString(t, "https://x/{id}.json")})
	require.Equal(t, "https://x/{id}.json", m.TokenURI, "the URI as uri(id) returned it")
	require.Equal(t, "https://x/00000000000000000000000000000000000000000000000000000000000000ff.json", documentURI(multi, m.TokenURI),
		"the document is read with {id} substituted")
	require.Equal(t, "https://x/{id}.json", documentURI(ref, "https://x/{id}.json"), "ERC-721 URIs are no templates")

	// A data: URI template is decoded with {id} substituted.
	templ := "data:application/json,{\"name\":\"item {id}\"}"
	m = tokenMetadata(multi, nodeapi.ContractCall{Result: abiString(t, templ)})
	require.Equal(t, templ, m.TokenURI)
	require.Equal(t, evmdata.IndexStatusIndexed, m.Status)
	require.Equal(t, "item 00000000000000000000000000000000000000000000000000000000000000ff", m.Name)
}
