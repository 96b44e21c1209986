package store

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// listRowWidth is the width of a list row's entries under key k (0x82,
// 0x83 or 0x95), or 0 when k is not a list row.
func listRowWidth(k []byte) int {
	switch {
	case k[0] == tagEVMAddr && len(k) == 30:
		return 4
	case k[0] == tagEVMToken && len(k) == 30:
		return 6
	case k[0] == tagActivity && len(k) == 31:
		return activityRestWidth(k[22])
	default:
		return 0
	}
}

// toOneRowPerPosition rewrites the store's position lists of the rows
// under tags, of the blocks convert takes (nil: all), as the layout before
// them: a row per position, empty valued. extra, when set, adds more
// one-position rows for each position rewritten.
func toOneRowPerPosition(t *testing.T, s *Store, tags []byte, convert func(height uint64) bool,
	extra func(k, pos []byte) []byte,
) {
	t.Helper()
	rows := dumpStore(t, s)
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
		for k, v := range rows {
			width := listRowWidth([]byte(k))
			if width == 0 || !slices.Contains(tags, k[0]) ||
				(convert != nil && !convert(binary.BigEndian.Uint64([]byte(k[len(k)-8:])))) {
				continue
			}
			if err := txn.Delete([]byte(k)); err != nil {
				return err
			}
			for i := 0; i < len(v); i += width {
				pos := k[len(k)-8:] + v[i:i+width]
				if err := txn.Set([]byte(k+v[i:i+width]), nil); err != nil {
					return err
				}
				if extra == nil {
					continue
				}
				if more := extra([]byte(k), []byte(pos)); more != nil {
					if err := txn.Set(more, nil); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}))
}

func TestEncodeRests(t *testing.T) {
	require.Equal(t, []byte{0, 0, 0, 1, 0, 0, 0, 2}, encodeRests([]uint64{1, 2}, 4))
	require.Equal(t, []byte{0, 0, 0, 3, 0, 7}, encodeRests([]uint64{3<<16 | 7}, 6))
	require.Equal(t, []byte{0, 0, 0, 1, 0, 0, 0, 9}, encodeRests([]uint64{1<<32 | 9}, 8))
}

// TestPositionListsReadLikeRowsPerPosition: every listing that reads the
// position lists (an address's txs and typed histories, a token's
// transfers) gives the same pages, both ways, when the index holds the
// rows of one position each that an index written before the lists does.
func TestPositionListsReadLikeRowsPerPosition(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	defer s.Close()
	child := typedHistoryChain(t, s)

	listings := func() map[string][]string {
		out := map[string][]string{}
		for _, a := range []common.Address{alice, bob, carol, token, nft, multi, child} {
			for _, desc := range []bool{false, true} {
				for _, limit := range []int{1, 2, 100} {
					for _, blocks := range []evmdata.BlockRange{{}, {From: 2, To: 4}, {From: 3}, {To: 3}} {
						name := fmt.Sprintf("%s desc=%v limit=%d blocks=%v", a.Hex(), desc, limit, blocks)
						for what, list := range map[string]func(context.Context, netinfo.Chain, evmdata.AddressTxQuery) ([]evmdata.IndexedTx, error){
							"txs ": s.AddressTxs, "native ": s.AddressNativeTxs,
						} {
							out[what+name] = pageAll(t, func(after []byte) ([]string, []byte) {
								q := evmdata.AddressTxQuery{Address: a, Blocks: blocks, Desc: desc, Limit: limit}
								if after != nil {
									q.After = &evmdata.TxPos{Block: binary.BigEndian.Uint64(after), Index: binary.BigEndian.Uint32(after[8:])}
								}
								txs, err := list(ctx, evmChain, q)
								require.NoError(t, err)
								return positionIDs(txs, func(tx evmdata.IndexedTx) key {
									return key{}.u64(tx.Block.Number).u32(tx.Tx.Index)
								})
							})
						}
						for _, kind := range []evmdata.ErcType{evmdata.Erc20, evmdata.Erc721, evmdata.Erc1155} {
							out["transfers "+kind.String()+name] = pageAll(t, func(after []byte) ([]string, []byte) {
								q := evmdata.AddressTransferQuery{Address: a, Kind: kind, Blocks: blocks, Desc: desc, Limit: limit}
								if after != nil {
									q.After = &evmdata.TransferPos{Block: binary.BigEndian.Uint64(after),
										LogIndex: binary.BigEndian.Uint32(after[8:]), BatchIndex: binary.BigEndian.Uint16(after[12:])}
								}
								ts, err := s.AddressTransfers(ctx, evmChain, q)
								require.NoError(t, err)
								return transferIDs(ts)
							})
						}
						out["internal "+name] = pageAll(t, func(after []byte) ([]string, []byte) {
							q := evmdata.AddressInternalQuery{Address: a, Blocks: blocks, Desc: desc, Limit: limit}
							if after != nil {
								q.After = &evmdata.InternalPos{Block: binary.BigEndian.Uint64(after),
									TxIndex: binary.BigEndian.Uint32(after[8:]), Frame: binary.BigEndian.Uint32(after[12:])}
							}
							its, err := s.AddressInternalTxs(ctx, evmChain, q)
							require.NoError(t, err)
							return positionIDs(its, func(it evmdata.IndexedInternalTx) key {
								return key{}.u64(it.Block.Number).u32(it.TxIndex).u32(it.Index)
							})
						})
					}
				}
				out["token "+a.Hex()] = pageAll(t, func(after []byte) ([]string, []byte) {
					q := evmdata.TransferQuery{Token: a, Limit: 1}
					if after != nil {
						q.After = &evmdata.TransferPos{Block: binary.BigEndian.Uint64(after),
							LogIndex: binary.BigEndian.Uint32(after[8:]), BatchIndex: binary.BigEndian.Uint16(after[12:])}
					}
					ts, err := s.TokenTransfers(ctx, evmChain, q)
					require.NoError(t, err)
					return transferIDs(ts)
				})
			}
		}
		return out
	}
	lists := listings()
	nonEmpty := 0
	for _, ids := range lists {
		if len(ids) > 0 {
			nonEmpty++
		}
	}
	require.Greater(t, nonEmpty, 50, "the fixture lists something for most listings")

	tags := []byte{tagEVMAddr, tagEVMToken, tagActivity}
	// Blocks 1 and 3 in the layout before, 2 and 4 not (an index the
	// upgrade met at a block edge holds both, a block of each form), then
	// every block.
	toOneRowPerPosition(t, s, tags, func(height uint64) bool { return height%2 == 1 }, nil)
	require.Equal(t, lists, listings(), "mixed")
	toOneRowPerPosition(t, s, tags, nil, nil)
	require.Equal(t, lists, listings(), "all in the layout before")
}

// pageAll follows a listing page by page (page returns its items and the
// position of its last), at most 100 pages.
func pageAll(t *testing.T, page func(after []byte) ([]string, []byte)) []string {
	t.Helper()
	var all []string
	var after []byte
	for range 100 {
		ids, last := page(after)
		if len(ids) == 0 {
			return all
		}
		all = append(all, ids...)
		after = last
	}
	t.Fatal("a listing did not end in 100 pages")
	return nil
}

func transferIDs(ts []evmdata.IndexedTransfer) ([]string, []byte) {
	return positionIDs(ts, func(tr evmdata.IndexedTransfer) key {
		return key{}.u64(tr.Block.Number).u32(tr.LogIndex).u16(tr.BatchIndex)
	})
}

// positionIDs is a page's items as their positions (pos), and the last
// one's, for pageAll.
func positionIDs[T any](items []T, pos func(T) key) ([]string, []byte) {
	var ids []string
	var last []byte
	for _, item := range items {
		last = pos(item)
		ids = append(ids, string(last))
	}
	return ids, last
}

// TestCorruptPositionListIsAnError: a list row that does not decode fails
// the listing, even one whose page fills from the other range first (the
// merge of AddressTxs).
func TestCorruptPositionListIsAnError(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	defer s.Close()
	var c chainBuilder
	applyEVM(t, s, c.block(transferTx(alice, bob)), c.block(transferTx(carol, carol)), c.block(transferTx(alice, bob)))
	require.NoError(t, s.db.Update(func(txn *badger.Txn) error {
		return txn.Set(newKey(tagEVMAddr, evmChain).addr(alice).u64(2), []byte{1, 2, 3})
	}))
	for _, limit := range []int{1, 2, 10} {
		_, err := s.AddressTxs(ctx, evmChain, evmdata.AddressTxQuery{Address: alice, Desc: true, Limit: limit})
		require.ErrorContains(t, err, "corrupt position list", "limit %d", limit)
	}
	_, err := s.AddressNativeTxs(ctx, evmChain, evmdata.AddressTxQuery{Address: alice, Limit: 10})
	require.NoError(t, err, "the other kinds' rows are whole")
}
