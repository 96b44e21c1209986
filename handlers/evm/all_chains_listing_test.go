package evm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

func TestChainCursorsRoundTrip(t *testing.T) {
	l := allChainsTxs(nil, evmdata.AnyStatus)
	pos := evmdata.TxPos{Block: 1_234_560, Index: 300}
	cursors := []chainCursor[evmdata.TxPos]{
		{chain: netinfo.ChainInfo{EVMChainID: 43114}, pinned: 1_234_567, after: &pos},
		{chain: netinfo.ChainInfo{EVMChainID: 779672}, pinned: 88},
		{chain: netinfo.ChainInfo{EVMChainID: 99999}},
	}
	extra := encodeChainCursors(cursors, l)
	require.Len(t, extra, (3+3+1+1+2)+(3+1+1)+(3+1+1), "varints, the block as its distance below the pin")
	got, ok := decodeChainCursors(extra, l)
	require.True(t, ok)
	require.Equal(t, map[uint64]chainCursor[evmdata.TxPos]{
		43114:  {pinned: 1_234_567, after: &pos},
		779672: {pinned: 88},
		99999:  {},
	}, got)

	// Twenty chains with real heights still fit a token.
	var many []chainCursor[evmdata.TxPos]
	recent := evmdata.TxPos{Block: 80_000_000 - 90, Index: 300}
	for i := range 20 {
		many = append(many, chainCursor[evmdata.TxPos]{chain: netinfo.ChainInfo{EVMChainID: uint64(100_000 + i)}, pinned: 80_000_000, after: &recent})
	}
	require.LessOrEqual(t, len(encodeChainCursors(many, allChainsTxs(nil, evmdata.AnyStatus))), 255)
}

func TestChainCursorsRejectMalformedExtra(t *testing.T) {
	l := allChainsBlocks(nil)
	for name, extra := range map[string][]byte{
		"cut after the chain id":      {0xa8, 0xd0, 0x02},
		"cut after the pin":           {0x01, 0x05},
		"unknown position flag":       {0x01, 0x05, 0x07},
		"cut in the position":         {0x01, 0x05, 0x01},
		"position above the pin":      {0x01, 0x05, 0x01, 0x06},
		"overlong varint of the pin":  {0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		"trailing byte after a chain": {0x01, 0x05, 0x00, 0x80},
	} {
		_, ok := decodeChainCursors(extra, l)
		require.False(t, ok, name)
	}
	got, ok := decodeChainCursors([]byte{0x01, 0x05, 0x01, 0x02}, l)
	require.True(t, ok)
	require.Equal(t, uint64(3), *got[1].after, "block 3: two below the pin 5")
}
