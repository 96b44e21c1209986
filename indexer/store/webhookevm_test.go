package store

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/core/types"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// evmHook creates an active address_activity webhook of evmChain watching
// addrs; change, if given, sets its options first.
func evmHook(t testing.TB, s *Store, id byte, addrs []common.Address, change func(*webhookdata.Webhook)) webhookdata.Webhook {
	t.Helper()
	h := webhookdata.Webhook{ID: webhookdata.ID{id}, EventType: webhookdata.AddressActivity, Chain: evmChain,
		ChainID: "99999", Status: webhookdata.Active}
	for _, a := range addrs {
		h.Metadata.Addresses = append(h.Metadata.Addresses, strings.ToLower(a.Hex()))
	}
	if change != nil {
		change(&h)
	}
	created, err := s.CreateWebhook(context.Background(), h)
	require.NoError(t, err)
	return created
}

// evmDelivery is an address_activity outbox body, decoded.
type evmDelivery struct {
	webhookdata.Envelope
	Event webhookdata.TransactionEvent `json:"event"`
	raw   map[string]any
	entry OutboxEntry
}

// evmEvents reads webhook id's outbox.
func evmEvents(t *testing.T, s *Store, id webhookdata.ID) []evmDelivery {
	t.Helper()
	entries, err := s.Outbox(context.Background(), id, 1<<20)
	require.NoError(t, err)
	out := make([]evmDelivery, len(entries))
	for i, e := range entries {
		require.NoError(t, json.Unmarshal(e.Body, &out[i]))
		require.NoError(t, json.Unmarshal(e.Body, &out[i].raw))
		out[i].entry = e
	}
	return out
}

// txHashes are the deliveries' tx hashes, in outbox order.
func txHashes(ds []evmDelivery) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Event.Transaction.TxHash
	}
	return out
}

func addr(n int64) common.Address { return common.BigToAddress(big.NewInt(n)) }

func TestWebhookEVMEventsForEveryPartyOncePerTx(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	var (
		sender, recipient, created = addr(0x5e), addr(0x7ec), addr(0xc0de)
		erc20To, erc721From        = addr(0x20), addr(0x721)
		erc1155To, operator        = addr(0x1155), addr(0x0b)
		internalTo, other          = addr(0x17), addr(0x99)
	)
	byParty := map[string]common.Address{"sender": sender, "recipient": recipient, "created contract": created,
		"ERC-20 receiver": erc20To, "ERC-721 sender": erc721From, "ERC-1155 receiver": erc1155To, "internal receiver": internalTo}
	hooks := map[string]webhookdata.Webhook{}
	i := byte(1)
	for party, a := range byParty {
		hooks[party] = evmHook(t, s, i, []common.Address{a}, nil)
		i++
	}
	opHook := evmHook(t, s, 50, []common.Address{operator}, nil)
	zeroHook := evmHook(t, s, 51, []common.Address{{}}, nil)
	bothHook := evmHook(t, s, 52, []common.Address{sender, erc20To}, nil)

	var c chainBuilder
	mint := evmdata.TokenTransfer{Token: token, Kind: evmdata.Erc20, To: other, Value: big.NewInt(1)}
	b := c.block(
		transferTx(sender, other),
		transferTx(other, recipient),
		evmdata.Tx{From: other, ContractAddress: &created, Status: 1},
		transferTx(other, token, evmdata.TokenTransfer{Token: token, Kind: evmdata.Erc20, From: other, To: erc20To, Value: big.NewInt(3)}),
		transferTx(other, nft, nftMove(evmdata.Erc721, nft, erc721From, other, 7, 1, 0)),
		transferTx(other, multi, evmdata.TokenTransfer{Token: multi, Kind: evmdata.Erc1155, Operator: operator,
			From: other, To: erc1155To, TokenID: big.NewInt(2), Value: big.NewInt(4)}),
		evmdata.Tx{From: other, To: &token, Status: 1, Internal: []evmdata.InternalTx{
			{Index: 1, Type: evmdata.Call, From: token, To: internalTo, Value: big.NewInt(9)}}},
		// The sender is also the ERC-20 receiver and an internal party: one
		// event each for the webhooks watching it.
		transferTx(sender, token, evmdata.TokenTransfer{Token: token, Kind: evmdata.Erc20, From: other, To: erc20To, Value: big.NewInt(1)}, mint),
	)
	b.Txs[7].Internal = []evmdata.InternalTx{{Index: 1, Type: evmdata.Call, From: token, To: sender, Value: big.NewInt(1)}}
	applyEVM(t, s, b)

	hash := func(i int) string { return b.Txs[i].Hash.Hex() }
	want := map[string][]string{"sender": {hash(0), hash(7)}, "recipient": {hash(1)}, "created contract": {hash(2)},
		"ERC-20 receiver": {hash(3), hash(7)}, "ERC-721 sender": {hash(4)}, "ERC-1155 receiver": {hash(5)},
		"internal receiver": {hash(6)}}
	for party, h := range hooks {
		require.Equal(want[party], txHashes(evmEvents(t, s, h.ID)), party)
	}
	require.Empty(evmEvents(t, s, opHook.ID), "an ERC-1155 operator is no party")
	require.Empty(evmEvents(t, s, zeroHook.ID), "the zero address (mints) matches nothing")
	both := evmEvents(t, s, bothHook.ID)
	require.Equal([]string{hash(0), hash(3), hash(7)}, txHashes(both), "one event per tx, however many watched parties")
	ids := map[string]bool{}
	for i, d := range both {
		require.Equal(uint32(i), d.entry.Seq)
		require.Equal(webhookdata.MessageID(bothHook.ID, "99999", b.Number, uint32(i)), d.MessageID)
		require.Equal(bothHook.ID.String(), d.WebhookID)
		require.Equal(webhookdata.AddressActivity, d.EventType)
		ids[d.MessageID] = true
	}
	require.Len(ids, 3, "message IDs are unique")
}

func TestWebhookEVMEventBody(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	defer s.Close()
	require.NoError(s.SetContractMetadata(ctx, evmChain, evmdata.Contract{Address: token, Kind: evmdata.Erc20,
		Name: "Token", Symbol: "TKN", Decimals: 6, HasDecimal: true}))
	full := evmHook(t, s, 1, []common.Address{alice}, func(h *webhookdata.Webhook) { h.IncludeLogs, h.IncludeInternalTxs = true, true })
	bare := evmHook(t, s, 2, []common.Address{alice}, nil)

	transferTopic := common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
	slot := common.HexToHash("0x01")
	var c chainBuilder
	dynamic := evmdata.Tx{From: alice, To: &token, Type: 2, Nonce: 7, Value: big.NewInt(1_500_000_000_000_000_000), Gas: 90000,
		MaxFeePerGas: big.NewInt(50e9), MaxPriorityFeePerGas: big.NewInt(2e9), Input: []byte{0xa9, 0x05, 0x9c, 0xbb},
		Status: 1, GasUsed: 40000, EffectiveGasPrice: big.NewInt(27e9),
		Transfers: []evmdata.TokenTransfer{
			{LogIndex: 3, Token: token, Kind: evmdata.Erc20, From: alice, To: bob, Value: big.NewInt(3_331_009_129)},
			{LogIndex: 4, Token: nft, Kind: evmdata.Erc721, From: alice, To: bob, TokenID: big.NewInt(5), Value: big.NewInt(1)}},
		Internal: []evmdata.InternalTx{{Index: 1, Type: evmdata.Call, From: token, To: carol, Value: big.NewInt(9), Gas: 5000, GasUsed: 2300}},
		Logs: []evmdata.Log{
			{Address: token, Topics: []common.Hash{transferTopic, common.BytesToHash(alice.Bytes()), common.BytesToHash(bob.Bytes())}, Data: []byte{0x01}, LogIndex: 3},
			{Address: nft, LogIndex: 4}},
		AccessList: types.AccessList{{Address: token, StorageKeys: []common.Hash{slot}}},
	}
	// A legacy contract creation by alice that failed.
	legacy := evmdata.Tx{From: alice, Type: 0, Gas: 21000, GasPrice: big.NewInt(30e9), Status: 0, GasUsed: 21000,
		EffectiveGasPrice: big.NewInt(30e9)}
	b := c.block(transferTx(bob, carol), dynamic, legacy)
	b.Txs[0].GasUsed = 21000
	b.ReceiptsRoot = common.HexToHash("0xabc")
	applyEVM(t, s, b)

	got := evmEvents(t, s, full.ID)
	require.Len(got, 2)
	tx := got[0].Event.Transaction
	require.Equal(b.Hash.Hex(), tx.BlockHash)
	require.Equal("1", tx.BlockNumber)
	require.Equal(alice.Hex(), tx.From)
	require.Equal(token.Hex(), tx.To)
	require.Equal("90000", tx.Gas)
	require.Equal("27000000000", tx.GasPrice, "a dynamic-fee tx's price is its effective price")
	require.Equal("50000000000", tx.MaxFeePerGas)
	require.Equal("2000000000", tx.MaxPriorityFeePerGas)
	require.Equal(b.Txs[1].Hash.Hex(), tx.TxHash)
	require.Equal("1", tx.TxStatus)
	require.Equal("0xa9059cbb", tx.Input)
	require.Equal("7", tx.Nonce)
	require.Equal(uint32(1), tx.TransactionIndex)
	require.Equal("1500000000000000000", tx.Value)
	require.Equal(uint8(2), tx.Type)
	require.Equal("99999", tx.ChainID)
	require.Equal("61000", tx.ReceiptCumulativeGasUsed, "the block's gas up to and including the tx")
	require.Equal("40000", tx.ReceiptGasUsed)
	require.Equal("27000000000", tx.ReceiptEffectiveGasPrice)
	require.Equal(common.HexToHash("0xabc").Hex(), tx.ReceiptRoot)
	require.Equal(b.Timestamp, tx.BlockTimestamp)
	require.Empty(tx.ContractAddress)
	require.Equal([]webhookdata.ERCTransfer{{TransactionHash: tx.TxHash, Type: "ERC20", From: alice.Hex(), To: bob.Hex(),
		Value: "3331009129", BlockTimestamp: b.Timestamp, LogIndex: 3, ERC20Token: &webhookdata.ERCToken{
			Address: token.Hex(), Name: "Token", Symbol: "TKN", Decimals: 6, ValueWithDecimals: "3331.009129"}}}, tx.ERC20Transfers)
	require.Equal([]webhookdata.ERCTransfer{{TransactionHash: tx.TxHash, Type: "ERC721", From: alice.Hex(), To: bob.Hex(),
		Value: "1", TokenID: "5", BlockTimestamp: b.Timestamp, LogIndex: 4}}, tx.ERC721Transfers,
		"no erc721Token while the index has not read the contract")
	require.Empty(tx.ERC1155Transfers)
	require.Equal([]webhookdata.InternalTransaction{{From: token.Hex(), To: carol.Hex(), InternalTxType: "CALL", Value: "9",
		GasUsed: "2300", GasLimit: "5000", TransactionHash: tx.TxHash}}, tx.InternalTransactions)
	require.Equal([]webhookdata.AccessListEntry{{AccessAddresses: token.Hex(), StorageKeys: []string{slot.Hex()}}}, tx.AccessList)
	require.Equal(&webhookdata.NetworkTokenInfo{TokenDecimals: 18, ValueWithDecimals: "1.5"}, tx.NetworkToken)
	require.Equal([]webhookdata.Log{
		{Address: token.Hex(), Topic0: transferTopic.Hex(), Topic1: common.BytesToHash(alice.Bytes()).Hex(), Topic2: common.BytesToHash(bob.Bytes()).Hex(), Data: "0x01",
			TransactionIndex: 1, LogIndex: 3},
		{Address: nft.Hex(), Data: "0x", TransactionIndex: 1, LogIndex: 4}}, got[0].Event.Logs)
	// Absent members are absent, never null; the transfer lists always
	// there.
	rawTx := got[0].raw["event"].(map[string]any)["transaction"].(map[string]any)
	require.NotContains(rawTx, "contractAddress")
	log1 := got[0].raw["event"].(map[string]any)["logs"].([]any)[1].(map[string]any)
	require.NotContains(log1, "topic1")
	require.Equal("", log1["topic0"], "a log without topics")

	// The legacy, failed creation: its fee caps are its price, "to" is "".
	tx = got[1].Event.Transaction
	require.Equal("", tx.To)
	require.Equal("0", tx.TxStatus)
	require.Equal("30000000000", tx.MaxFeePerGas)
	require.Equal("30000000000", tx.MaxPriorityFeePerGas)
	require.Equal("30000000000", tx.GasPrice)
	require.Equal("82000", tx.ReceiptCumulativeGasUsed)
	require.NotNil(tx.InternalTransactions, "asked for and traced: present, empty")
	require.Empty(tx.InternalTransactions)
	require.NotNil(got[1].Event.Logs, "asked for: present, empty")
	rawTx = got[1].raw["event"].(map[string]any)["transaction"].(map[string]any)
	for _, k := range []string{"erc20Transfers", "erc721Transfers", "erc1155Transfers", "internalTransactions"} {
		require.Equal([]any{}, rawTx[k], k)
	}
	require.NotContains(rawTx, "accessList", "a legacy tx has none")

	// Without includeLogs and includeInternalTxs, neither member.
	plain := evmEvents(t, s, bare.ID)
	require.Len(plain, 2)
	require.NotContains(plain[0].raw["event"], "logs")
	require.NotContains(plain[0].raw["event"].(map[string]any)["transaction"], "internalTransactions")
	require.Equal(got[0].Event.Transaction.ERC20Transfers, plain[0].Event.Transaction.ERC20Transfers)

	// An untraced block's internal transactions are unknown: no member.
	untraced := c.block(transferTx(alice, bob))
	untraced.Traced = false
	applyEVM(t, s, untraced)
	got = evmEvents(t, s, full.ID)
	require.Len(got, 3)
	require.NotContains(got[2].raw["event"].(map[string]any)["transaction"], "internalTransactions")
}

func TestWebhookEVMEventSignaturesFilter(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	transfer := common.HexToHash("0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
	approval := common.HexToHash("0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925")
	filtered := evmHook(t, s, 1, []common.Address{alice}, func(h *webhookdata.Webhook) {
		h.Metadata.EventSignatures = []string{strings.ToUpper(transfer.Hex()[2:])}
	})
	all := evmHook(t, s, 2, []common.Address{alice}, nil)
	withLog := func(tx evmdata.Tx, topic common.Hash, more ...common.Hash) evmdata.Tx {
		tx.Logs = []evmdata.Log{{Address: token, Topics: append([]common.Hash{topic}, more...)}}
		return tx
	}
	var c chainBuilder
	b := c.block(
		transferTx(alice, bob),
		withLog(transferTx(alice, token), approval),
		withLog(transferTx(alice, token), transfer),
		withLog(transferTx(bob, token), approval, transfer), // transfer is not topic0
	)
	b.Txs[3].Transfers = []evmdata.TokenTransfer{{Token: token, Kind: evmdata.Erc20, From: bob, To: alice, Value: big.NewInt(1)}}
	applyEVM(t, s, b)
	require.Equal([]string{b.Txs[2].Hash.Hex()}, txHashes(evmEvents(t, s, filtered.ID)))
	require.Len(evmEvents(t, s, all.ID), 4)
}

func TestWebhookEVMEventsOnlyFromTheWebhooksHeightAndNeverWhenBackFilling(t *testing.T) {
	require := require.New(t)
	ctx := context.Background()
	s := openTest(t, t.TempDir())
	defer s.Close()
	w := s.EVMWriter(evmChain)
	require.NoError(w.Start(ctx, 10))
	later := evmHook(t, s, 1, []common.Address{alice}, func(h *webhookdata.Webhook) { h.FromHeight = 12 })
	require.Equal(uint64(12), later.FromHeight)
	now := evmHook(t, s, 2, []common.Address{alice}, nil)
	require.Equal(uint64(10), now.FromHeight, "the chain's next block")

	blocks := make([]*evmdata.Block, 20)
	parent := common.Hash{}
	for i := range blocks {
		n := uint64(i + 1)
		tx := transferTx(alice, bob)
		tx.Hash, tx.Value = common.BigToHash(big.NewInt(int64(n))), new(big.Int)
		blocks[i] = &evmdata.Block{Number: n, Hash: common.BigToHash(big.NewInt(int64(1000 + n))), ParentHash: parent,
			Timestamp: 1_700_000_000 + n, Txs: []evmdata.Tx{tx}, Traced: true}
		parent = blocks[i].Hash
	}
	require.NoError(w.Apply(ctx, blocks[9:14], time.Now())) // 10..14
	heights := func(id webhookdata.ID) []string {
		var out []string
		for _, d := range evmEvents(t, s, id) {
			out = append(out, d.Event.Transaction.BlockNumber)
		}
		return out
	}
	require.Equal([]string{"12", "13", "14"}, heights(later.ID))
	require.Equal([]string{"10", "11", "12", "13", "14"}, heights(now.ID))

	// A webhook whose height is below the back-filled blocks (none the API
	// makes) still gets nothing of them: a back-fill is history.
	old := now
	old.ID, old.FromHeight = webhookdata.ID{3}, 0
	watches, err := webhookdata.NewWatches([]webhookdata.Webhook{old})
	require.NoError(err)
	s.hooks.watches.Store(watches)
	require.NoError(w.Backfill(ctx, blocks[:9]))
	require.Empty(evmEvents(t, s, old.ID))
}

// A retried commit (the first may have been applied, or not) writes the
// same outbox keys with the same bodies: replicas and retries agree.
func TestWebhookEVMEventsAreTheSameWhenABlockIsWrittenAgain(t *testing.T) {
	require := require.New(t)
	var c chainBuilder
	b := c.block(transferTx(alice, bob), transferTx(carol, alice), transferTx(bob, carol))
	outbox := func(discardFirst bool) []OutboxEntry {
		s := openTest(t, t.TempDir())
		defer s.Close()
		h := evmHook(t, s, 1, []common.Address{alice, carol}, func(h *webhookdata.Webhook) { h.IncludeLogs = true })
		if discardFirst { // a commit that failed: its writes are gone
			txn := s.newBlockTxn(evmChain)
			require.NoError(s.EVMWriter(evmChain).writeBlock(txn, b))
			require.Equal(3, txn.hooks.written)
			txn.txn.Discard()
		}
		applyEVM(t, s, b)
		out, err := s.Outbox(context.Background(), h.ID, 100)
		require.NoError(err)
		return out
	}
	first := outbox(false)
	require.Len(first, 3)
	require.Equal(first, outbox(true))
}

// A batch whose blocks give more events than one Badger transaction holds
// is committed in several, none lost.
func TestWebhookEVMEventsOverflowIntoMoreTransactions(t *testing.T) {
	require := require.New(t)
	s := openTest(t, t.TempDir())
	defer s.Close()
	hooks := []webhookdata.Webhook{
		evmHook(t, s, 1, []common.Address{alice}, nil),
		evmHook(t, s, 2, []common.Address{bob}, func(h *webhookdata.Webhook) { h.IncludeLogs = true }),
		evmHook(t, s, 3, []common.Address{alice, bob}, nil),
	}
	const blocks, perBlock = 12, 2000
	perTxn := int(s.db.MaxBatchCount())
	require.Greater(3*blocks*perBlock, perTxn, "more events than one transaction takes")
	var c chainBuilder
	var chain []*evmdata.Block
	for range blocks {
		txs := make([]evmdata.Tx, perBlock)
		for i := range txs {
			txs[i] = transferTx(alice, bob)
			txs[i].Logs = []evmdata.Log{{Address: token, Topics: []common.Hash{{1}}, Data: make([]byte, 64)}}
		}
		chain = append(chain, c.block(txs...))
	}
	applyEVM(t, s, chain...)
	for _, h := range hooks {
		got := evmEvents(t, s, h.ID)
		require.Len(got, blocks*perBlock)
		require.Equal(chain[blocks-1].Txs[perBlock-1].Hash.Hex(), got[len(got)-1].Event.Transaction.TxHash)
	}
}
