package store

import (
	"context"
	"slices"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

func listedIDs(us []pdata.IndexedUTXO) []ids.ID {
	out := make([]ids.ID, len(us))
	for i, u := range us {
		out[i] = u.ID
	}
	return out
}

// listAll pages through a listing pageSize UTXOs at a time.
func listAll(t *testing.T, r *PrimaryReader, chain netinfo.Chain, q pdata.UTXOQuery, pageSize int) []pdata.IndexedUTXO {
	var out []pdata.IndexedUTXO
	q.Limit = pageSize
	for range 100 {
		page, err := r.UTXOs(context.Background(), chain, q)
		require.NoError(t, err)
		if pageSize > 0 {
			require.LessOrEqual(t, len(page.UTXOs), pageSize)
		}
		out = append(out, page.UTXOs...)
		if page.Next == nil {
			return out
		}
		q.After = page.Next
	}
	t.Fatal("the listing does not end")
	return nil
}

func TestUTXOListing(t *testing.T) {
	f := newFixture()
	ab := []ids.ShortID{addrA, addrB}
	unspentP := []ids.ID{f.g2.ID, f.g3.ID, f.p3.ID, f.s1.ID, f.s2.ID, f.p4.ID, f.r1.ID, f.p6.ID, f.cx1.ID}
	spentP := []ids.ID{f.g1.ID, f.p1.ID, f.p2.ID, f.ex1.ID}
	for name, s := range map[string]*Store{"export first": writeExportFirst(t, f), "import first": writeImportFirst(t, f)} {
		r := s.PrimaryReader(nil)
		for _, byAmount := range []bool{false, true} {
			for _, desc := range []bool{false, true} {
				q := pdata.UTXOQuery{Addresses: ab, ByAmount: byAmount, Desc: desc}
				got := listAll(t, r, netinfo.P, q, 0)
				require.ElementsMatch(t, unspentP, listedIDs(got), "%s unspent", name)
				require.True(t, slices.IsSortedFunc(got, func(a, b pdata.IndexedUTXO) int {
					c := utxoOrder.compare(listPos(a, byAmount), listPos(b, byAmount))
					if desc {
						return -c
					}
					return c
				}), "%s: sorted (by amount %v, desc %v)", name, byAmount, desc)
				for _, size := range []int{1, 2, 4} {
					require.Equal(t, listedIDs(got), listedIDs(listAll(t, r, netinfo.P, q, size)), "%s pages of %d", name, size)
				}
				q.IncludeSpent = true
				all := listAll(t, r, netinfo.P, q, 3)
				require.ElementsMatch(t, append(slices.Clone(unspentP), spentP...), listedIDs(all), "%s with spent", name)
				for _, u := range all {
					require.Equal(t, slices.Contains(spentP, u.ID), u.Spent(), "%s: %s spent", name, u.ID)
				}
				// The scan bound ends a call early, never loses a UTXO.
				q.MaxScanned = 2
				require.Equal(t, listedIDs(all), listedIDs(listAll(t, r, netinfo.P, q, 3)), "%s scan-bounded", name)
			}
		}
		min := listAll(t, r, netinfo.P, pdata.UTXOQuery{Addresses: ab, MinAmount: 400}, 2)
		require.ElementsMatch(t, []ids.ID{f.g2.ID, f.s1.ID, f.p4.ID}, listedIDs(min), name)
		min = listAll(t, r, netinfo.P, pdata.UTXOQuery{Addresses: ab, MinAmount: 400, ByAmount: true, Desc: true}, 2)
		require.Equal(t, []ids.ID{f.p4.ID, f.g2.ID, f.s1.ID}, listedIDs(min), name)
		other := ids.ID{'o'}
		none := listAll(t, r, netinfo.P, pdata.UTXOQuery{Addresses: ab, Asset: &other, MaxScanned: 1}, 2)
		require.Empty(t, none, name)
		// X: its own UTXOs; C: its atomic memory only.
		x := listAll(t, r, netinfo.X, pdata.UTXOQuery{Addresses: ab, IncludeSpent: true, Asset: &avax}, 10)
		require.ElementsMatch(t, []ids.ID{f.x1.ID, f.xo1.ID, f.xo2.ID}, listedIDs(x), name)
		c := listAll(t, r, netinfo.C, pdata.UTXOQuery{Addresses: ab, IncludeSpent: true}, 10)
		require.Equal(t, []ids.ID{f.ex2.ID}, listedIDs(c), name)
		require.True(t, c[0].Spent() && c[0].ConsumedOn == netinfo.C && c[0].CreatedOn == netinfo.X, name)
		require.Empty(t, listAll(t, r, netinfo.C, pdata.UTXOQuery{Addresses: ab}, 10), name)
	}
}

func listPos(u pdata.IndexedUTXO, byAmount bool) pdata.UTXOPos {
	if byAmount {
		return pdata.UTXOPos{Key: u.Amount, UTXO: u.ID}
	}
	return pdata.UTXOPos{Key: uint64(u.CreatedTime), UTXO: u.ID}
}

func TestAddressActivity(t *testing.T) {
	f := newFixture()
	s := writeExportFirst(t, f)
	r := s.PrimaryReader(nil)
	ctx := context.Background()

	act, ok, err := r.LastActivity(ctx, netinfo.P, []ids.ShortID{addrB})
	require.NoError(t, err)
	require.True(t, ok)
	// t5 spent B's p1 and created p6 for A and B.
	require.Equal(t, pdata.AddressActivity{TxID: f.t5.ID, Height: 5, Time: 12000, UTXO: f.p6.ID}, act)
	act, ok, err = r.LastActivity(ctx, netinfo.P, []ids.ShortID{addrD, addrA})
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, f.t5.ID, act.TxID)
	act, ok, err = r.LastActivity(ctx, netinfo.C, []ids.ShortID{addrA})
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, pdata.AddressActivity{TxID: f.c2.ID, Height: 2, Time: 2500, UTXO: f.ex2.ID, Consumed: true}, act)
	_, ok, err = r.LastActivity(ctx, netinfo.X, []ids.ShortID{addrD})
	require.NoError(t, err)
	require.False(t, ok)

	chains, err := r.ChainsWithActivity(ctx, []ids.ShortID{addrA, addrD, {0xF}}, netinfo.PrimaryChains())
	require.NoError(t, err)
	require.Equal(t, [][]netinfo.Chain{{netinfo.P, netinfo.X, netinfo.C}, {netinfo.P}, {}}, chains)
}
