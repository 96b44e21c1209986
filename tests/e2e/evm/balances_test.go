package evm

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// requireNativeBalance compares a nativeTokenBalance with eth_getBalance.
func (f *evmFixture) requireNativeBalance(t *testing.T, ctx context.Context, addr common.Address, got dataapi.NativeBalance, what string) {
	t.Helper()
	want, err := f.ewoq.Balance(ctx, addr)
	require.NoError(t, err)
	harness.RequireDecimal(t, want, got.Balance, what+" balance (eth_getBalance)")
	require.Equal(t, f.chainID(), got.ChainID, what+" chainId")
	require.Equal(t, 18, got.Decimals, what+" decimals")
	require.NotEmpty(t, got.Symbol, what+" symbol")
	require.NotEmpty(t, got.Name, what+" name")
}

// erc721Owners asks the node who owns each minted ERC-721 id.
func (f *evmFixture) erc721Owners(t *testing.T, ctx context.Context) map[common.Address][]*big.Int {
	t.Helper()
	out := map[common.Address][]*big.Int{}
	for _, id := range f.erc721IDs {
		owner := f.callOne(t, ctx, f.erc721, f.art.erc721, "ownerOf", id).(common.Address)
		out[owner] = append(out[owner], id)
	}
	return out
}

// TestEVMErc721Balances lists the ERC-721 tokens of every account of the
// activity and compares them with ownerOf of every minted id, one token per
// page, with and without the contractAddress filter, and the native balance
// the response carries with eth_getBalance.
func TestEVMErc721Balances(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		tok := f.tokens(t, ctx)
		owners := f.erc721Owners(t, ctx)
		require.Len(t, owners, 3, "%s: the activity leaves ERC-721s with three owners: %v", f.name(), owners)
		holders := []common.Address{f.ewoq.Address(), f.user.Address(), f.recipients[0], f.recipients[1], f.recipients[2]}
		for _, holder := range holders {
			want := owners[holder]
			slices.SortFunc(want, func(a, b *big.Int) int { return a.Cmp(b) })
			path := "/addresses/" + holder.Hex() + "/balances:listErc721"
			for _, q := range []url.Values{
				{"pageSize": {"1"}},
				{"pageSize": {"500"}, "contractAddress": {f.erc721.Hex()}},
				{"pageSize": {"2"}, "contractAddress": {strings.ToLower(f.erc721.Hex())}},
			} {
				what := fmt.Sprintf("%s: ERC-721s of %s with %s", f.name(), holder, q.Encode())
				size := mustUint(t, q.Get("pageSize"))
				got := harness.ListAll[dataapi.Token](t, ctx, f.evmURL(path, q), "erc721TokenBalances", int(size))
				require.Len(t, got, len(want), "%s: %+v", what, got)
				for i, id := range want {
					g := got[i]
					requireAddress(t, f.erc721, g.Address, what+" address")
					require.Equal(t, "ERC-721", g.ErcType, what)
					require.NotNil(t, g.TokenID, what)
					harness.RequireDecimal(t, id, *g.TokenID, what+" tokenId")
					require.NotNil(t, g.Name, what+" name")
					require.Equal(t, tok.erc721Name, *g.Name, what+" name")
					require.NotNil(t, g.Symbol, what+" symbol")
					require.Equal(t, tok.erc721Symbol, *g.Symbol, what+" symbol")
					require.NotNil(t, g.ChainID, what+" chainId")
					require.Equal(t, f.chainID(), *g.ChainID, what+" chainId")
					require.NotNil(t, g.TokenURI, what+" tokenUri is required")
					require.NotNil(t, g.Metadata, what+" metadata is required")
					if *g.TokenURI != "" {
						require.Equal(t, f.callOne(t, ctx, f.erc721, f.art.erc721, "tokenURI", id), *g.TokenURI, what+" tokenUri")
					}
					if g.OwnerAddress != nil {
						requireAddress(t, holder, *g.OwnerAddress, what+" ownerAddress")
					}
				}
			}
			// Other contracts hold none of the address's ERC-721s.
			for _, other := range []common.Address{f.erc20, f.erc1155} {
				got := harness.ListAll[dataapi.Token](t, ctx, f.evmURL(path, url.Values{"contractAddress": {other.Hex()}}), "erc721TokenBalances", 10)
				require.Empty(t, got, "%s: ERC-721s of %s in %s", f.name(), holder, other)
			}

			var body struct {
				NativeTokenBalance dataapi.NativeBalance `json:"nativeTokenBalance"`
			}
			harness.GetOK(t, ctx, f.evmURL(path, nil), &body)
			f.requireNativeBalance(t, ctx, holder, body.NativeTokenBalance, fmt.Sprintf("%s: ERC-721 balances of %s: nativeTokenBalance", f.name(), holder))
		}
	})
}

// TestEVMNFTHolders lists the holders of the ERC-721 and ERC-1155
// contracts on the metrics service and compares them with the node:
// ownerOf of every minted id (ERC-721: sortKey is the token count, equal to
// balanceOf), balanceOf of every id for every address that ever received
// one (ERC-1155: sortKey is the number of ids held), and the totals.
func TestEVMNFTHolders(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		f.waitContractMetadata(t, ctx)
		tok := f.tokens(t, ctx)

		// ERC-721: ownerOf of every id.
		want721 := map[common.Address]uint64{}
		for owner, ids := range f.erc721Owners(t, ctx) {
			want721[owner] = uint64(len(ids))
			bal := f.callOne(t, ctx, f.erc721, f.art.erc721, "balanceOf", owner).(*big.Int)
			require.Equal(t, uint64(len(ids)), bal.Uint64(), "%s: balanceOf(%s) and ownerOf disagree", f.name(), owner)
		}
		body := f.checkHolders(t, ctx, f.erc721, want721, uint64(len(f.erc721IDs)))
		require.NotNil(t, body.NFTCollectionName, "nftCollectionName")
		require.Equal(t, tok.erc721Name, *body.NFTCollectionName)
		require.NotNil(t, body.NFTSymbol, "nftSymbol")
		require.Equal(t, tok.erc721Symbol, *body.NFTSymbol)

		// ERC-1155: every address that ever received a token, every id.
		candidates := map[common.Address]bool{}
		ids := map[string]*big.Int{}
		for _, tr := range f.truth.TokenTransfers(f.erc1155) {
			if tr.To != (common.Address{}) {
				candidates[tr.To] = true
			}
			ids[tr.TokenID.String()] = tr.TokenID
		}
		want1155 := map[common.Address]uint64{}
		supply := map[string]*big.Int{}
		for holder := range candidates {
			for key, id := range ids {
				bal := f.callOne(t, ctx, f.erc1155, f.art.erc1155, "balanceOf", holder, id).(*big.Int)
				if bal.Sign() > 0 {
					want1155[holder]++
					if supply[key] == nil {
						supply[key] = new(big.Int)
					}
					supply[key].Add(supply[key], bal)
				}
			}
		}
		require.Len(t, want1155, 4, "%s: the activity leaves ERC-1155s with four holders", f.name())
		f.checkHolders(t, ctx, f.erc1155, want1155, uint64(len(supply)))
	})
}

// checkHolders lists the holders of token in pages of one and in one page,
// and compares them and the totals with want (holder -> sortKey).
func (f *evmFixture) checkHolders(t *testing.T, ctx context.Context, token common.Address, want map[common.Address]uint64, totalTokens uint64) dataapi.NFTHolders {
	t.Helper()
	u := env.Metrics(t) + "/v2/chains/" + f.chainID() + "/contracts/" + token.Hex() + "/nfts:listHolders"
	var body dataapi.NFTHolders
	harness.GetOK(t, ctx, u, &body)
	what := fmt.Sprintf("%s: holders of %s", f.name(), token)
	require.Equal(t, uint64(len(want)), body.TotalHolders, what+" totalHolders")
	require.Equal(t, totalTokens, body.TotalTokens, what+" totalTokens")
	for _, pageSize := range []int{1, 1000} {
		got := body.Addresses
		if pageSize == 1 {
			got = harness.ListAll[dataapi.Holder](t, ctx, harness.WithQuery(u, "pageSize", "1"), "addresses", 1)
		}
		gotMap := map[common.Address]uint64{}
		for _, h := range got {
			require.True(t, common.IsHexAddress(h.Address), what+": address %q", h.Address)
			addr := common.HexToAddress(h.Address)
			_, dup := gotMap[addr]
			require.False(t, dup, what+": %s listed twice", addr)
			gotMap[addr] = h.SortKey
		}
		require.Equal(t, want, gotMap, "%s (pageSize %d)", what, pageSize)
	}
	return body
}

// TestEVMNativeBalance compares balances:getNative of accounts, contracts
// and an unused address with eth_getBalance.
func TestEVMNativeBalance(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		f.sync(t, ctx)
		addrs := []common.Address{
			f.ewoq.Address(), f.user.Address(), f.recipients[0], f.recipients[1], f.recipients[2],
			f.children[0].addr, f.children[1].addr, f.forwarder, common.HexToAddress("0x00000000000000000000000000000000000b0b00"),
		}
		for _, addr := range addrs {
			for _, chainID := range []string{f.chainID(), f.chain.BlockchainID.String()} {
				var body struct {
					NativeTokenBalance dataapi.NativeBalance `json:"nativeTokenBalance"`
				}
				harness.GetOK(t, ctx, env.Base(t)+"/v1/chains/"+chainID+"/addresses/"+addr.Hex()+"/balances:getNative", &body)
				f.requireNativeBalance(t, ctx, addr, body.NativeTokenBalance, fmt.Sprintf("%s: native balance of %s (chain %s)", f.name(), addr, chainID))
			}
		}
	})
}

// TestEVMChains checks the chain list has every EVM chain of the network
// with its EVM chain ID and blockchain ID, that each chain can be got by
// either ID, and that each rpcUrl answers eth_chainId with the chain's ID.
func TestEVMChains(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), evmTestTimeout)
	defer cancel()
	var list struct {
		Chains []dataapi.Chain `json:"chains"`
	}
	harness.GetOK(t, ctx, env.Base(t)+"/v1/chains", &list)
	for _, chain := range env.Net(t).EVMChains() {
		id := fmt.Sprint(chain.EVMChainID)
		i := slices.IndexFunc(list.Chains, func(c dataapi.Chain) bool { return c.ChainID == id })
		require.GreaterOrEqual(t, i, 0, "chain %s (%d) not in %+v", chain.Name, chain.EVMChainID, list.Chains)
		got := list.Chains[i]
		what := fmt.Sprintf("chain %s (%d)", chain.Name, chain.EVMChainID)
		require.NotNil(t, got.PlatformChainID, what+" platformChainId (the blockchain ID)")
		require.Equal(t, chain.BlockchainID.String(), *got.PlatformChainID, what+" platformChainId")
		require.NotNil(t, got.SubnetID, what+" subnetId")
		require.Equal(t, chain.SubnetID.String(), *got.SubnetID, what+" subnetId")
		require.Equal(t, "EVM", got.VMName, what)
		require.Equal(t, "OK", got.Status, what)
		require.NotEmpty(t, got.ChainName, what)
		require.Equal(t, 18, got.NetworkToken.Decimals, what)

		// The rpcUrl leads to the chain: its eth_chainId is the chain's.
		rpcURL := got.RPCURL
		if strings.HasPrefix(rpcURL, "/") {
			rpcURL = env.URI(t) + rpcURL
		}
		var evmID hexutil.Uint64
		require.NoError(t, json.Unmarshal(harness.CallRPC(t, ctx, rpcURL, "eth_chainId", []any{}), &evmID), what+" rpcUrl %s", got.RPCURL)
		require.Equal(t, chain.EVMChainID, uint64(evmID), what+" rpcUrl %s", got.RPCURL)

		var byEVMID, byBlockchainID dataapi.Chain
		harness.GetOK(t, ctx, env.Base(t)+"/v1/chains/"+id, &byEVMID)
		harness.GetOK(t, ctx, env.Base(t)+"/v1/chains/"+chain.BlockchainID.String(), &byBlockchainID)
		require.Equal(t, got, byEVMID, what+" by EVM chain ID")
		require.Equal(t, got, byBlockchainID, what+" by blockchain ID")
	}
}
