package primary

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// getLastActivityTimestampByAddresses (GET and POST) and
// getChainIdsForAddresses for the scenarios' addresses, against the blocks
// the node placed their txs in; and the bad input of every operation of
// utxos_test.go and this file.

// lastActivity is the OpenAPI's LastActivityTimestamp.
type lastActivity struct {
	Timestamp   int64  `json:"timestamp"`
	BlockNumber string `json:"blockNumber"`
	TxHash      string `json:"txHash"`
	UTXOID      string `json:"utxoId"`
	IsConsumed  *bool  `json:"isConsumed"`
	ChainName   string `json:"chainName"`
	Network     string `json:"network"`
}

// TestPrimaryLastActivity: A's newest tx on each chain, as the node placed
// it (its block and block time), by GET and POST; a fresh address has none.
func TestPrimaryLastActivity(t *testing.T) {
	s, ctx := primaryFixture(t)
	for _, chain := range []string{"P", "X", "C"} {
		txs := s.txsOn(chain, true)
		require.NotEmpty(t, txs)
		last := txs[len(txs)-1]
		want := lastActivity{Timestamp: last.blockTime, BlockNumber: strconv.FormatUint(last.height, 10), TxHash: last.id.String(),
			ChainName: chainAlias(chain), Network: primaryNetwork}
		var got lastActivity
		harness.GetOK(t, ctx, primaryURL(t, chainAlias(chain), "lastActivityTimestampByAddresses",
			url.Values{"addresses": {s.addressFor(t, chain)}}), &got)
		require.NotNil(t, got.IsConsumed)
		utxo, err := ids.FromString(got.UTXOID)
		require.NoError(t, err, "utxoId")
		if !*got.IsConsumed {
			// One of the tx's outputs.
			require.True(t, slices.ContainsFunc([]uint64{0, 1, 2, 3, 4, 5}, func(i uint64) bool { return last.id.Prefix(i) == utxo }),
				"%s: utxo %s is an output of %s", chain, utxo, last)
		} else {
			require.True(t, consumes(t, ctx, chain, last.id, utxo), "%s: %s consumed utxo %s", chain, last, utxo)
		}
		got.UTXOID, got.IsConsumed = "", nil
		require.Equal(t, want, got, "%s: the newest tx of A is %s", chain, last)

		body, err := json.Marshal(map[string]string{"addresses": s.addressFor(t, chain)})
		require.NoError(t, err)
		r := harness.Do(t, ctx, http.MethodPost, primaryURL(t, chainAlias(chain), "lastActivityTimestampByAddresses", nil), body, nil)
		require.Equal(t, http.StatusOK, r.Status, "POST: %s", r.Body)
		var post lastActivity
		r.Decode(t, &post)
		require.Equal(t, want.TxHash, post.TxHash, "%s: POST", chain)
	}
	fresh := freshAddress(t, s.hrp)
	r := harness.Get(t, ctx, primaryURL(t, "x-chain", "lastActivityTimestampByAddresses", url.Values{"addresses": {fresh}}))
	harness.RequireErrorBody(t, r, http.StatusNotFound, "no activity")
}

func freshAddress(t *testing.T, hrp string) string {
	t.Helper()
	k, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	a, err := address.FormatBech32(hrp, k.Address().Bytes())
	require.NoError(t, err)
	return a
}

// TestPrimaryChainIdsForAddresses: A has activity on all three chains, a
// staker on P only, a fresh address on none.
func TestPrimaryChainIdsForAddresses(t *testing.T) {
	s, ctx := primaryFixture(t)
	st, _ := stakingFixture(t)
	fresh := freshAddress(t, s.hrp)
	a, staker := "X-"+s.bech32(t), st.addr(t, "D1")
	var got struct {
		Addresses []struct {
			Address       string   `json:"address"`
			BlockchainIDs []string `json:"blockchainIds"`
		} `json:"addresses"`
	}
	harness.GetOK(t, ctx, env.Base(t)+"/v1/networks/"+primaryNetwork+"/addresses:listChainIds?addresses="+a+","+staker+","+fresh, &got)
	require.Len(t, got.Addresses, 3)
	require.Equal(t, a, got.Addresses[0].Address)
	require.Equal(t, []string{s.pChain.String(), s.xChain.String(), s.cChain.String()}, got.Addresses[0].BlockchainIDs, "A")
	require.Equal(t, staker, got.Addresses[1].Address)
	require.Equal(t, []string{s.pChain.String()}, got.Addresses[1].BlockchainIDs, "D1 staked on P only")
	require.Equal(t, fresh, got.Addresses[2].Address)
	require.Equal(t, []string{}, got.Addresses[2].BlockchainIDs, "a fresh address")
}

// TestPrimaryUtxosBadInput: what the operations rule out gets a 400 in the
// spec's error body naming the parameter.
func TestPrimaryUtxosBadInput(t *testing.T) {
	s, ctx := primaryFixture(t)
	a := s.bech32(t)
	fuji, err := address.FormatBech32("fuji", s.addr.Bytes())
	require.NoError(t, err)
	many := make([]string, 65)
	for i := range many {
		many[i] = freshAddress(t, s.hrp)
	}
	manyV2 := make([]string, 257)
	for i := range manyV2 {
		manyV2[i] = freshAddress(t, s.hrp)
	}
	q := func(kv ...string) url.Values {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Add(kv[i], kv[i+1])
		}
		return v
	}
	gets := []struct{ name, url, mentions string }{
		{"bad address", primaryURL(t, "p-chain", "utxos", q("addresses", "P-local1nope")), "addresses"},
		{"fuji address", primaryURL(t, "x-chain", "utxos", q("addresses", fuji)), "addresses"},
		{"EVM address on P", primaryURL(t, "p-chain", "utxos", q("addresses", s.evm.Hex())), "addresses"},
		{"65 addresses", primaryURL(t, "p-chain", "utxos", q("addresses", strings.Join(many, ","))), "more than 64"},
		{"bad sortBy", primaryURL(t, "p-chain", "utxos", q("addresses", a, "sortBy", "size")), "sortBy"},
		{"bad sortOrder", primaryURL(t, "x-chain", "utxos", q("addresses", a, "sortOrder", "up")), "sortOrder"},
		{"bad includeSpent", primaryURL(t, "x-chain", "utxos", q("addresses", a, "includeSpent", "yes")), "includeSpent"},
		{"negative minUtxoAmount", primaryURL(t, "p-chain", "utxos", q("addresses", a, "minUtxoAmount", "-5")), "minUtxoAmount"},
		{"bad assetId", primaryURL(t, "x-chain", "utxos", q("addresses", a, "assetId", "AVAX")), "assetId"},
		{"pageSize 101", primaryURL(t, "c-chain", "utxos", q("addresses", a, "pageSize", "101")), "pageSize"},
		{"bad pageToken", primaryURL(t, "p-chain", "utxos", q("addresses", a, "pageToken", "nope")), "pageToken"},
		{"unknown chain", primaryURL(t, "d-chain", "utxos", q("addresses", a)), "blockchainId"},
		{"last activity without addresses", primaryURL(t, "p-chain", "lastActivityTimestampByAddresses", nil), "addresses"},
		{"last activity bad address", primaryURL(t, "c-chain", "lastActivityTimestampByAddresses", q("addresses", "C-x")), "addresses"},
		{"chain IDs without addresses", env.Base(t) + "/v1/networks/" + primaryNetwork + "/addresses:listChainIds", "addresses"},
		{"chain IDs bad address", env.Base(t) + "/v1/networks/" + primaryNetwork + "/addresses:listChainIds?addresses=" + fuji, "addresses"},
	}
	for _, c := range gets {
		t.Run(c.name, func(t *testing.T) {
			harness.RequireErrorBody(t, harness.GetWithRetryAfter(t, ctx, c.url), http.StatusBadRequest, c.mentions)
		})
	}
	ok := `{"addresses": "` + a + `"}`
	posts := []struct{ name, rest, query, body, mentions string }{
		{"empty body", "utxos", "", "", "JSON"},
		{"not JSON", "utxos", "", "addresses=" + a, "JSON"},
		{"broken JSON", "utxos", "", `{"addresses": "` + a, "JSON"},
		{"no addresses", "utxos", "", `{}`, "addresses"},
		{"addresses not a string", "utxos", "", `{"addresses": ["` + a + `"]}`, "addresses"},
		{"unknown member", "utxos", "", `{"addresses": "` + a + `", "sortBy": "amount"}`, "sortBy"},
		{"257 addresses", "utxos", "", `{"addresses": "` + strings.Join(manyV2, ",") + `"}`, "more than 256"},
		{"pageSize 1025", "utxos", "pageSize=1025", ok, "pageSize"},
		{"bad sortBy", "utxos", "sortBy=age", ok, "sortBy"},
		{"last activity broken JSON", "lastActivityTimestampByAddresses", "", `{"addresses"`, "JSON"},
		{"last activity no addresses", "lastActivityTimestampByAddresses", "", `{"addresses": ""}`, "addresses"},
	}
	for _, c := range posts {
		t.Run("POST "+c.name, func(t *testing.T) {
			u := primaryURL(t, "x-chain", c.rest, nil)
			if c.query != "" {
				u += "?" + c.query
			}
			r := harness.Do(t, ctx, http.MethodPost, u, []byte(c.body), map[string]string{"Content-Type": "application/json"})
			harness.RequireErrorBody(t, r, http.StatusBadRequest, c.mentions)
		})
	}
}
