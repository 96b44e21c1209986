package evm

import (
	"context"
	"fmt"
	"math/big"
	"net/url"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// addressTxsURL is the address transactions endpoint of addr with query.
func (f *evmFixture) addressTxsURL(addr common.Address, query url.Values) string {
	return f.evmURL("/addresses/"+addr.Hex()+"/transactions", query)
}

// TestEVMAddressTransactions lists the transactions of the accounts and
// contracts of the activity and checks each list is exactly the set of
// transactions the node's receipts and traces say the address took part in
// (as sender, recipient, created contract, token sender or receiver,
// internal sender or receiver), newest first by default and oldest first
// with sortOrder=asc, each entry as the node has it with only the address's
// own transfers and internal transactions, and that startBlock/endBlock cut
// the list where the spec says (start inclusive, end exclusive).
func TestEVMAddressTransactions(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		me, user := f.ewoq.Address(), f.user.Address()
		addrs := map[string]common.Address{
			"EWOQ": me, "user": user, "recipient 0": f.recipients[0], "recipient 1": f.recipients[1],
			"recipient 2": f.recipients[2], "ERC-20": f.erc20, "Factory": f.factory, "Forwarder": f.forwarder,
			"Reverter": f.reverter, "factory child": f.children[0].addr,
		}
		for name, addr := range addrs {
			want := f.truth.Involving(addr, 0, 0)
			require.NotEmpty(t, want, "%s: %s took part in nothing", f.name(), name)
			got := harness.ListAll[dataapi.TxDetails](t, ctx, f.addressTxsURL(addr, url.Values{"pageSize": {"100"}}), "transactions", 100)
			require.Equal(t, truth.EVMHashes(want), dataapi.TxHashes(got), "%s: transactions of %s (%s), newest first", f.name(), name, addr)
			for i, x := range want {
				f.checkNativeTx(t, ctx, x, got[i].NativeTransaction, false)
				f.checkLists(t, ctx, x, got[i], addr)
			}

			asc := harness.ListAll[dataapi.TxDetails](t, ctx, f.addressTxsURL(addr, url.Values{"pageSize": {"100"}, "sortOrder": {"asc"}}), "transactions", 100)
			require.Equal(t, harness.Reversed(truth.EVMHashes(want)), dataapi.TxHashes(asc), "%s: transactions of %s, sortOrder=asc", f.name(), name)
			desc := harness.ListAll[dataapi.TxDetails](t, ctx, f.addressTxsURL(addr, url.Values{"pageSize": {"100"}, "sortOrder": {"desc"}}), "transactions", 100)
			require.Equal(t, truth.EVMHashes(want), dataapi.TxHashes(desc), "%s: transactions of %s, sortOrder=desc", f.name(), name)
		}

		// The second account's list names what the approvals did not: it is
		// only in Approval events of approve and setApprovalForAll, which
		// do not move anything to or from it.
		for _, ft := range f.txs {
			x, _ := f.truth.Tx(ft.hash)
			if ft.label == "ERC-20 approve user" || ft.label == "ERC-721 approve user" || ft.label == "ERC-721 setApprovalForAll user" {
				require.False(t, x.Involves(user), "%s: %s", f.name(), ft.label)
			}
		}

		f.checkBlockRanges(t, ctx, me)
		f.checkBlockRanges(t, ctx, user)
	})
}

// checkBlockRanges lists addr's transactions within block ranges around the
// activity: startBlock is inclusive, endBlock exclusive, either alone
// bounds one side.
func (f *evmFixture) checkBlockRanges(t *testing.T, ctx context.Context, addr common.Address) {
	t.Helper()
	all := f.truth.Involving(addr, 0, 0)
	require.GreaterOrEqual(t, len(all), 3, "%s: %s needs transactions in several blocks", f.name(), addr)
	// Blocks of the address's transactions: cut between and on them.
	var blocks []uint64
	for _, x := range all {
		if len(blocks) == 0 || blocks[len(blocks)-1] != x.Block.Number {
			blocks = append(blocks, x.Block.Number)
		}
	}
	require.GreaterOrEqual(t, len(blocks), 3, "%s: %s needs transactions in three blocks", f.name(), addr)
	newest, middle, oldest := blocks[0], blocks[len(blocks)/2], blocks[len(blocks)-1]
	ranges := []struct {
		start, end *uint64
	}{
		{start: &middle},
		{end: &middle},
		{start: &oldest, end: &newest},
		{start: harness.Ptr(oldest + 1), end: harness.Ptr(newest + 1)},
		{start: &middle, end: harness.Ptr(middle + 1)},
		{start: harness.Ptr(newest + 1000)}, // after the head: empty
	}
	for _, r := range ranges {
		q := url.Values{"pageSize": {"100"}}
		from, to := uint64(0), uint64(0)
		if r.start != nil {
			from = *r.start
			q.Set("startBlock", fmt.Sprint(from))
		}
		if r.end != nil {
			to = *r.end
			q.Set("endBlock", fmt.Sprint(to))
		}
		want := truth.EVMHashes(f.truth.Involving(addr, from, to))
		got := dataapi.TxHashes(harness.ListAll[dataapi.TxDetails](t, ctx, f.addressTxsURL(addr, q), "transactions", 100))
		if len(want) == 0 {
			want = []common.Hash{}
		}
		require.Equal(t, want, got, "%s: transactions of %s with %s", f.name(), addr, q.Encode())
	}
}

// pagingBursts is how many times the paging test makes new transactions
// between two pages of one listing.
const pagingBursts = 2

// TestEVMAddressPaging pages through EWOQ's transactions two at a time while
// new transactions of EWOQ are made and indexed between pages: the pages
// together must be exactly the list as it stood at the first page, newest
// first and oldest first, nothing skipped or repeated, and no new
// transaction may appear mid-listing (the first page's token pins the
// height). Oldest first is the order where an unpinned listing would show
// the new transactions at its end.
func TestEVMAddressPaging(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		me := f.ewoq.Address()
		var sent []common.Hash
		for _, order := range []string{"desc", "asc"} {
			f.sync(t, ctx)
			snapshot := truth.EVMHashes(f.truth.Involving(me, 0, 0))
			if order == "asc" {
				snapshot = harness.Reversed(snapshot)
			}
			require.Greater(t, len(snapshot), 2*(pagingBursts+2), "%s: too few transactions to page", f.name())
			base := f.addressTxsURL(me, url.Values{"pageSize": {"2"}, "sortOrder": {order}})
			var got []common.Hash
			next := ""
			for page := 0; ; page++ {
				require.Less(t, page, len(snapshot), "%s %s: paging does not end", f.name(), order)
				u := base
				if next != "" {
					u = harness.WithQuery(base, "pageToken", next)
				}
				items, tok := harness.ListPage[dataapi.TxDetails](t, ctx, u, "transactions")
				got = append(got, dataapi.TxHashes(items)...)
				if tok == "" {
					break
				}
				require.Len(t, items, 2, "%s %s: page %d is short but not the last", f.name(), order, page)
				next = tok
				if page < pagingBursts {
					sent = append(sent, f.sendAndIndex(t, ctx, page))
				}
			}
			require.Equal(t, snapshot, got, "%s: EWOQ's transactions paged %s while blocks were made", f.name(), order)
		}

		// The new transactions were indexed all along: a fresh listing
		// starts with them.
		f.sync(t, ctx)
		fresh := harness.ListAll[dataapi.TxDetails](t, ctx, f.addressTxsURL(me, url.Values{"pageSize": {"100"}}), "transactions", 100)
		require.GreaterOrEqual(t, len(fresh), len(sent))
		require.Equal(t, harness.Reversed(sent), dataapi.TxHashes(fresh)[:len(sent)], "%s: the transactions made while paging, newest first", f.name())
		require.Equal(t, truth.EVMHashes(f.truth.Involving(me, 0, 0)), dataapi.TxHashes(fresh), "%s: EWOQ's transactions after paging", f.name())
	})
}

// sendAndIndex makes one EWOQ value transfer, waits for its receipt and for
// avadata to index its block, and returns its hash.
func (f *evmFixture) sendAndIndex(t *testing.T, ctx context.Context, i int) common.Hash {
	t.Helper()
	h, err := f.ewoq.SendValue(ctx, f.recipients[2], big.NewInt(int64(1e12+i)))
	require.NoError(t, err)
	r, err := f.ewoq.WaitReceipt(ctx, h)
	require.NoError(t, err)
	require.Equal(t, uint64(1), r.Status)
	waitEVMIndexed(t, ctx, f.chain.BlockchainID.String(), r.BlockNumber)
	return h
}
