package handlers

import (
	"context"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
)

func TestParsePage(t *testing.T) {
	backend := newFakeBackend()
	clock := newFakeClock()
	s := newTestServer(backend.readers(), clock.Now)
	paging := dataPaging("listThings", true)

	first, err := s.parsePage(context.Background(), &indexedView{}, query(t, "pageSize=7&sortOrder=Asc"), paging, "a", "b")
	require.NoError(t, err)
	require.True(t, first.First)
	require.Equal(t, 7, first.Size)
	require.Equal(t, sortAsc, first.Order)
	require.Equal(t, NewFilterHash("listThings", "a", "b", "asc"), first.filters, "the sort order is a filter")

	token, err := s.nextPageToken(first, 42, []byte{9})
	require.NoError(t, err)
	next, err := s.parsePage(context.Background(), &indexedView{}, query(t, "pageSize=3&sortOrder=asc&pageToken="+token), paging, "a", "b")
	require.NoError(t, err)
	require.False(t, next.First)
	require.Equal(t, int64(42), next.Token.Position)
	require.Equal(t, []byte{9}, next.Token.Extra)

	_, err = s.parsePage(context.Background(), &indexedView{}, query(t, "pageToken="+token), paging, "a", "b")
	requireBadRequest(t, err, "invalid pageToken", "other parameters")
	_, err = s.parsePage(context.Background(), &indexedView{}, query(t, "sortOrder=asc&pageToken="+token), dataPaging("listOthers", true), "a", "b")
	requireBadRequest(t, err, "invalid pageToken", "another endpoint")
	_, err = s.parsePage(context.Background(), &indexedView{}, query(t, "pageSize=0"), paging)
	requireBadRequest(t, err, "pageSize")
	_, err = s.parsePage(context.Background(), &indexedView{}, query(t, "sortOrder=sideways"), paging)
	requireBadRequest(t, err, "sortOrder")

	unsorted, err := s.parsePage(context.Background(), &indexedView{}, query(t, "sortOrder=sideways"), dataPaging("listThings", false))
	require.NoError(t, err, "endpoints without sortOrder ignore it")
	require.Equal(t, sortDesc, unsorted.Order)
}

func TestTrimPage(t *testing.T) {
	items, more := trimPage([]int{1, 2, 3}, 2)
	require.Equal(t, []int{1, 2}, items)
	require.True(t, more)
	items, more = trimPage([]int{1, 2}, 2)
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
	nftPos := evmdata.NFTPos{Contract: kitties, TokenID: maxID}
	extra := encodeNFTPos(nftPos)
	require.LessOrEqual(t, len(extra), maxExtraLen, "fits a page token")
	gotNFT, ok := decodeNFTPos(extra)
	require.True(t, ok)
	require.Equal(t, nftPos.Contract, gotNFT.Contract)
	require.Zero(t, nftPos.TokenID.Cmp(gotNFT.TokenID))

	addr, ok := decodeAddress(alice.Bytes())
	require.True(t, ok)
	require.Equal(t, alice, addr)

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
	require.Equal(t, &price{CurrencyCode: "usd", Value: "378.125"}, valueOf(avax(12_500), 18, p))
	require.Equal(t, &price{CurrencyCode: "usd", Value: "0"}, valueOf(big.NewInt(0), 18, p))
	require.Equal(t, &price{CurrencyCode: "usd", Value: "0.000001"}, valueOf(big.NewInt(1), 0, &price{CurrencyCode: "usd", Value: "0.000001"}))
	require.Nil(t, valueOf(big.NewInt(1), 18, nil))
}
