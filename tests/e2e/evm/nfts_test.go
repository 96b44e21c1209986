package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// The NFT collection operations (listTokens, getTokenDetails, reindexNft)
// against the node: ownerOf, tokenURI, uri(id) and balanceOf read with
// eth_call.

// nftMetadata is the part of a token's metadata the tests compare.
type nftMetadata struct {
	IndexStatus string `json:"indexStatus"`
	UpdatedAt   int64  `json:"metadataLastUpdatedTimestamp"`
	Name        string `json:"name"`
}

func decodeNFTMetadata(t *testing.T, raw json.RawMessage, what string) nftMetadata {
	t.Helper()
	require.NotEmpty(t, raw, what+" metadata is required")
	var m nftMetadata
	require.NoError(t, json.Unmarshal(raw, &m), "%s metadata: %s", what, raw)
	require.NotEmpty(t, m.IndexStatus, what+" metadata.indexStatus")
	return m
}

func (f *evmFixture) collectionURL(contract common.Address, suffix string, q url.Values) string {
	return f.evmURL("/nfts/collections/"+contract.Hex()+"/tokens"+suffix, q)
}

// waitCollectionRead lists a collection (two tokens a page) until every
// token's URI has been read in the background, and returns the last list.
func (f *evmFixture) waitCollectionRead(t *testing.T, ctx context.Context, contract common.Address) []dataapi.Token {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, metadataWait)
	defer cancel()
	for {
		got := harness.ListAll[dataapi.Token](t, ctx, f.collectionURL(contract, "", url.Values{"pageSize": {"2"}}), "tokens", 2)
		read := len(got) > 0
		for _, tok := range got {
			read = read && tok.TokenURI != nil && *tok.TokenURI != ""
		}
		if read {
			return got
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: the URIs of the tokens of %s were never read: %+v", f.name(), contract, got)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// erc1155Supplies sums balanceOf(holder, id) over every address the
// activity gave ERC-1155 tokens to.
func (f *evmFixture) erc1155Supplies(t *testing.T, ctx context.Context) map[string]*big.Int {
	t.Helper()
	out := map[string]*big.Int{}
	holders := []common.Address{f.ewoq.Address(), f.user.Address(), f.recipients[0], f.recipients[1], f.recipients[2]}
	for _, id := range f.erc1155IDs {
		sum := new(big.Int)
		for _, h := range holders {
			sum.Add(sum, f.callOne(t, ctx, f.erc1155, f.art.erc1155, "balanceOf", h, id).(*big.Int))
		}
		out[id.String()] = sum
	}
	return out
}

// checkCollectionToken compares one token of a collection with the node.
func (f *evmFixture) checkCollectionToken(t *testing.T, ctx context.Context, contract common.Address, id *big.Int, g dataapi.Token, what string) {
	t.Helper()
	requireAddress(t, contract, g.Address, what+" address")
	require.NotNil(t, g.TokenID, what+" tokenId")
	harness.RequireDecimal(t, id, *g.TokenID, what+" tokenId")
	require.NotNil(t, g.TokenURI, what+" tokenUri is required")
	m := decodeNFTMetadata(t, g.Metadata, what)
	switch contract {
	case f.erc721:
		tok := f.tokens(t, ctx)
		require.Equal(t, "ERC-721", g.ErcType, what)
		require.NotNil(t, g.Name, what+" name")
		require.Equal(t, tok.erc721Name, *g.Name, what+" name")
		require.NotNil(t, g.Symbol, what+" symbol")
		require.Equal(t, tok.erc721Symbol, *g.Symbol, what+" symbol")
		require.NotNil(t, g.OwnerAddress, what+" ownerAddress")
		requireAddress(t, f.callOne(t, ctx, f.erc721, f.art.erc721, "ownerOf", id).(common.Address), *g.OwnerAddress, what+" ownerAddress (ownerOf)")
		require.Equal(t, f.callOne(t, ctx, f.erc721, f.art.erc721, "tokenURI", id), *g.TokenURI, what+" tokenUri (tokenURI)")
		// The contract's data: URI decodes to "<name> #<id>".
		require.Equal(t, "indexed", m.IndexStatus, what)
		require.Equal(t, fmt.Sprintf("%s #%s", tok.erc721Name, id), m.Name, what+" metadata.name")
	case f.erc1155:
		require.Equal(t, "ERC-1155", g.ErcType, what)
		require.Nil(t, g.OwnerAddress, what+" an ERC-1155 id has no single owner")
		// uri(id) is the {id} template as the contract returns it.
		require.Equal(t, f.callOne(t, ctx, f.erc1155, f.art.erc1155, "uri", id), *g.TokenURI, what+" tokenUri (uri(id))")
		require.Contains(t, *g.TokenURI, "{id}", what)
	}
	require.Positive(t, m.UpdatedAt, what+" metadataLastUpdatedTimestamp")
}

// TestEVMNFTCollectionTokens lists the tokens of the ERC-721 and ERC-1155
// collections, two a page, and gets each one: the ERC-721 ids are every
// minted id (ownerOf answers for each) with their owner and tokenURI, the
// ERC-1155 ids every id whose balances (balanceOf over every holder) add up
// to a positive supply, with uri(id); the transfers of both carry the same
// URIs; tokens that do not exist are 404s and malformed ids 400s.
func TestEVMNFTCollectionTokens(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)

		ids721 := slices.Clone(f.erc721IDs)
		slices.SortFunc(ids721, func(a, b *big.Int) int { return a.Cmp(b) })
		var ids1155 []*big.Int
		for _, id := range f.erc1155IDs {
			if f.erc1155Supplies(t, ctx)[id.String()].Sign() > 0 {
				ids1155 = append(ids1155, id)
			}
		}
		require.Len(t, ids1155, len(f.erc1155IDs), "%s: every minted ERC-1155 id is held", f.name())
		for contract, ids := range map[common.Address][]*big.Int{f.erc721: ids721, f.erc1155: ids1155} {
			got := f.waitCollectionRead(t, ctx, contract)
			require.Len(t, got, len(ids), "%s: tokens of %s: %+v", f.name(), contract, got)
			for i, id := range ids {
				what := fmt.Sprintf("%s: tokens of %s [%d]", f.name(), contract, i)
				f.checkCollectionToken(t, ctx, contract, id, got[i], what)

				var one dataapi.Token
				harness.GetOK(t, ctx, f.collectionURL(contract, "/"+id.String(), nil), &one)
				f.checkCollectionToken(t, ctx, contract, id, one, fmt.Sprintf("%s: token %s of %s", f.name(), id, contract))
			}
		}

		// Transfers show the URI of the token they move.
		for _, contract := range []common.Address{f.erc721, f.erc1155} {
			transfers := harness.ListAll[dataapi.Transfer](t, ctx, f.evmURL("/tokens/"+contract.Hex()+"/transfers", url.Values{"pageSize": {"100"}}), "transfers", 100)
			require.NotEmpty(t, transfers)
			for i, tr := range transfers {
				what := fmt.Sprintf("%s: transfers of %s [%d]", f.name(), contract, i)
				tok, method := tr.Erc721Token, "tokenURI"
				art := f.art.erc721
				if contract == f.erc1155 {
					tok, method, art = tr.Erc1155Token, "uri", f.art.erc1155
				}
				require.NotNil(t, tok, what)
				id, ok := new(big.Int).SetString(*tok.TokenID, 10)
				require.True(t, ok, what)
				require.Equal(t, f.callOne(t, ctx, contract, art, method, id), *tok.TokenURI, what+" tokenUri ("+method+")")
			}
		}

		notMinted := big.NewInt(1_000_000)
		for _, id := range append(slices.Clone(ids721), ids1155...) {
			require.NotEqual(t, notMinted, id)
		}
		_, err := f.ewoq.Call(ctx, f.erc721, f.art.erc721, "ownerOf", notMinted)
		require.Error(t, err, "the node agrees the id was never minted")
		collection := func(addr common.Address, suffix string) string { return f.collectionURL(addr, suffix, nil) }
		_, tokensToken := harness.ListPage[dataapi.Token](t, ctx, f.collectionURL(f.erc721, "", url.Values{"pageSize": {"1"}}), "tokens")
		require.NotEmpty(t, tokensToken)
		for _, c := range []struct {
			name     string
			url      string
			status   int
			mentions string
		}{
			{"ERC-721 id never minted", collection(f.erc721, "/"+notMinted.String()), 404, notMinted.String()},
			{"ERC-1155 id never minted", collection(f.erc1155, "/"+notMinted.String()), 404, notMinted.String()},
			{"tokenId not a number", collection(f.erc721, "/one"), 400, "tokenId"},
			{"tokenId negative", collection(f.erc721, "/-1"), 400, "tokenId"},
			{"tokenId hex", collection(f.erc721, "/0x1"), 400, "tokenId"},
			{"tokenId above 2^256-1", collection(f.erc721, "/"+new(big.Int).Lsh(big.NewInt(1), 256).String()), 400, "tokenId"},
			{"collection of an ERC-20", collection(f.erc20, ""), 400, "ERC-20"},
			{"token of an ERC-20", collection(f.erc20, "/1"), 400, "ERC-20"},
			{"collection of an EOA", collection(f.ewoq.Address(), ""), 404, "not a contract"},
			{"malformed collection address", f.evmURL("/nfts/collections/0x1234/tokens", nil), 400, "address"},
			{"unknown chain", f.base + "/v1/chains/999999/nfts/collections/" + f.erc721.Hex() + "/tokens", 400, "chainId"},
			{"pageSize 0", collection(f.erc721, "?pageSize=0"), 400, "pageSize"},
			{"pageSize 101", collection(f.erc721, "?pageSize=101"), 400, "pageSize"},
			{"page token of another collection", f.collectionURL(f.erc1155, "", url.Values{"pageSize": {"1"}, "pageToken": {tokensToken}}), 400, "pageToken"},
		} {
			r := harness.GetWithRetryAfter(t, ctx, c.url)
			t.Run(c.name, func(t *testing.T) { requireAPIError(t, r, c.status, false, c.mentions) })
		}
	})
}

// TestEVMReindexNft asks for an ERC-721 token and an ERC-1155 id to be read
// again: without a configured API key it is a 401; with one a 201 {}, after
// which metadataLastUpdatedTimestamp moves on and the URI still equals what
// tokenURI / uri(id) return; a second request within the cooldown is a 429
// with Retry-After; a token that does not exist is a 404.
func TestEVMReindexNft(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		f.waitCollectionRead(t, ctx, f.erc721)
		f.waitCollectionRead(t, ctx, f.erc1155)
		post := func(contract common.Address, id string, header map[string]string) harness.Reply {
			return harness.Do(t, ctx, http.MethodPost, f.collectionURL(contract, "/"+id+":reindex", nil), nil, header)
		}
		withKey := map[string]string{"x-data-api-key": harness.APIKey}

		requireAPIError(t, post(f.erc721, "1", nil), http.StatusUnauthorized, false, "API key")
		requireAPIError(t, post(f.erc721, "1", map[string]string{"x-glacier-api-key": "not-a-key"}), http.StatusUnauthorized, false, "")

		for _, tc := range []struct {
			contract common.Address
			id       *big.Int
			art      string
		}{{f.erc721, f.erc721IDs[len(f.erc721IDs)-1], "tokenURI"}, {f.erc1155, f.erc1155IDs[0], "uri"}} {
			what := fmt.Sprintf("%s: reindex %s #%s", f.name(), tc.contract, tc.id)
			details := func() dataapi.Token {
				var tok dataapi.Token
				harness.GetOK(t, ctx, f.collectionURL(tc.contract, "/"+tc.id.String(), nil), &tok)
				return tok
			}
			before := decodeNFTMetadata(t, details().Metadata, what).UpdatedAt
			for time.Now().Unix() <= before { // the timestamp counts seconds
				time.Sleep(100 * time.Millisecond)
			}
			r := post(tc.contract, tc.id.String(), withKey)
			require.Equal(t, http.StatusCreated, r.Status, "%s: %s", what, r.Body)
			require.JSONEq(t, `{}`, string(r.Body), what)

			deadline := time.Now().Add(metadataWait)
			for {
				tok := details()
				if m := decodeNFTMetadata(t, tok.Metadata, what); m.UpdatedAt > before {
					f.checkCollectionToken(t, ctx, tc.contract, tc.id, tok, what+" after")
					break
				}
				require.True(t, time.Now().Before(deadline), "%s: the metadata was not read again", what)
				time.Sleep(200 * time.Millisecond)
			}

			again := post(tc.contract, tc.id.String(), withKey)
			requireAPIError(t, again, http.StatusTooManyRequests, false, "once every 1h0m0s")
			wait, err := strconv.Atoi(again.Header.Get("Retry-After"))
			require.NoError(t, err, "%s: Retry-After %q", what, again.Header.Get("Retry-After"))
			require.True(t, wait > 3500 && wait <= 3600, "%s: Retry-After %d", what, wait)
		}

		requireAPIError(t, post(f.erc721, "1000000", withKey), http.StatusNotFound, false, "1000000")
		requireAPIError(t, post(f.erc721, "x1", withKey), http.StatusBadRequest, false, "tokenId")
		requireAPIError(t, post(f.erc20, "1", withKey), http.StatusBadRequest, false, "ERC-20")
	})
}
