package evm

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/evmdata"
)

func TestTrimPage(t *testing.T) {
	items, more := api.TrimPage([]int{1, 2, 3}, 2)
	require.Equal(t, []int{1, 2}, items)
	require.True(t, more)
	items, more = api.TrimPage([]int{1, 2}, 2)
	require.Equal(t, []int{1, 2}, items)
	require.False(t, more)
}

func TestCursorsRoundTrip(t *testing.T) {
	txPos := evmdata.TxPos{Block: 1 << 40, Index: 7}
	gotTx, ok := decodeTxPos(encodeTxPos(txPos))
	require.True(t, ok)
	require.Equal(t, txPos, gotTx)

	transferPos := evmdata.TransferPos{Block: 99, LogIndex: 1 << 20, BatchIndex: 3}
	gotTransfer, ok := decodeTransferPos(encodeTransferPos(transferPos))
	require.True(t, ok)
	require.Equal(t, transferPos, gotTransfer)

	maxID := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
	nftPos := evmdata.NFTPos{Contract: handlertest.Kitties, TokenID: maxID}
	extra := encodeNFTPos(nftPos)
	require.LessOrEqual(t, len(extra), api.MaxExtraLen, "fits a page token")
	gotNFT, ok := decodeNFTPos(extra)
	require.True(t, ok)
	require.Equal(t, nftPos.Contract, gotNFT.Contract)
	require.Zero(t, nftPos.TokenID.Cmp(gotNFT.TokenID))

	addr, ok := decodeAddress(handlertest.Alice.Bytes())
	require.True(t, ok)
	require.Equal(t, handlertest.Alice, addr)

	for _, bad := range [][]byte{nil, {1, 2}, make([]byte, 13)} {
		_, ok := decodeTxPos(bad)
		require.False(t, ok)
		_, ok = decodeTransferPos(bad)
		require.False(t, ok)
		_, ok = decodeNFTPos(bad)
		require.False(t, ok)
		_, ok = decodeAddress(bad)
		require.False(t, ok)
	}
}

func TestPriceHelpers(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "0.25": true, "42.4200": true, "": false, ".5": false, "5.": false, "-1": false, "1e3": false, "1,5": false,
	} {
		require.Equal(t, want, isDecimal(s), s)
	}
	p := &price{CurrencyCode: "usd", Value: "30.25"}
	require.Equal(t, &price{CurrencyCode: "usd", Value: "378.125"}, valueOf(handlertest.Avax(12_500), 18, p))
	require.Equal(t, &price{CurrencyCode: "usd", Value: "0"}, valueOf(big.NewInt(0), 18, p))
	require.Equal(t, &price{CurrencyCode: "usd", Value: "0.000001"}, valueOf(big.NewInt(1), 0, &price{CurrencyCode: "usd", Value: "0.000001"}))
	require.Nil(t, valueOf(big.NewInt(1), 18, nil))
}
