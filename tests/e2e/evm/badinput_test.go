package evm

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestEVMBadInput sends malformed and unanswerable requests to the EVM
// endpoints of each chain and checks each gets its status with the spec's
// error body (message, error, statusCode; the metrics service's message an
// array of strings) and a JSON content type, never a 5xx.
func TestEVMBadInput(t *testing.T) {
	forEachChain(t, func(t *testing.T, ctx context.Context, f *evmFixture) {
		me := f.ewoq.Address().Hex()
		chain := env.Base(t) + "/v1/chains/" + f.chainID()
		holders := func(chainID, addr string) string {
			return env.Metrics(t) + "/v2/chains/" + chainID + "/contracts/" + addr + "/nfts:listHolders"
		}
		// The P-chain ID (the same on every network) names no EVM chain.
		const pChainID = "11111111111111111111111111111111LpoYY"

		// Tokens of other listings: another endpoint, another address.
		_, transfersToken := harness.ListPage[dataapi.Transfer](t, ctx, chain+"/tokens/"+f.erc20.Hex()+"/transfers?pageSize=1", "transfers")
		require.NotEmpty(t, transfersToken, "the ERC-20 has more than one transfer")
		_, ewoqToken := harness.ListPage[dataapi.TxDetails](t, ctx, chain+"/addresses/"+me+"/transactions?pageSize=1", "transactions")
		require.NotEmpty(t, ewoqToken, "EWOQ has more than one transaction")
		unknownTx := common.HexToHash("0x" + "ab" + "00000000000000000000000000000000000000000000000000000000000042").Hex()

		cases := []struct {
			name     string
			url      string
			status   int
			metrics  bool
			mentions string
		}{
			{"malformed address", chain + "/addresses/0x1234/transactions", 400, false, "address"},
			{"non-hex address", chain + "/addresses/0xZZ97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC/transactions", 400, false, "address"},
			{"malformed address, native balance", chain + "/addresses/0x12/balances:getNative", 400, false, "address"},
			{"malformed address, ERC-721 balances", chain + "/addresses/nope/balances:listErc721", 400, false, "address"},
			{"malformed address, contract metadata", chain + "/addresses/0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52", 400, false, "address"},
			{"malformed address, deployment", chain + "/contracts/0x8db9/transactions:getDeployment", 400, false, "address"},
			{"malformed address, token transfers", chain + "/tokens/0x8db9/transfers", 400, false, "address"},
			{"malformed contractAddress", chain + "/addresses/" + me + "/balances:listErc721?contractAddress=0x12", 400, false, "contractAddress"},
			{"unknown chain id", env.Base(t) + "/v1/chains/999999/addresses/" + me + "/transactions", 400, false, "chainId"},
			{"another network's C-chain", env.Base(t) + "/v1/chains/43114/addresses/" + me + "/transactions", 400, false, "chainId"},
			{"another network's C-chain, tx", env.Base(t) + "/v1/chains/43114/transactions/" + unknownTx, 400, false, "chainId"},
			{"P-chain as an EVM chain", env.Base(t) + "/v1/chains/" + pChainID + "/addresses/" + me + "/transactions", 400, false, "chainId"},
			{"pageSize 0", chain + "/addresses/" + me + "/transactions?pageSize=0", 400, false, "pageSize"},
			{"pageSize 101", chain + "/addresses/" + me + "/transactions?pageSize=101", 400, false, "pageSize"},
			{"pageSize 0, token transfers", chain + "/tokens/" + f.erc20.Hex() + "/transfers?pageSize=0", 400, false, "pageSize"},
			{"pageSize 101, token transfers", chain + "/tokens/" + f.erc20.Hex() + "/transfers?pageSize=101", 400, false, "pageSize"},
			{"pageSize 0, ERC-721 balances", chain + "/addresses/" + me + "/balances:listErc721?pageSize=0", 400, false, "pageSize"},
			{"pageSize 501, ERC-721 balances", chain + "/addresses/" + me + "/balances:listErc721?pageSize=501", 400, false, "pageSize"},
			{"pageSize not a number", chain + "/addresses/" + me + "/transactions?pageSize=ten", 400, false, "pageSize"},
			{"bad sortOrder", chain + "/addresses/" + me + "/transactions?sortOrder=sideways", 400, false, "sortOrder"},
			{"negative startBlock", chain + "/addresses/" + me + "/transactions?startBlock=-1", 400, false, "startBlock"},
			{"non-numeric endBlock", chain + "/tokens/" + f.erc20.Hex() + "/transfers?endBlock=latest", 400, false, "endBlock"},
			{"page token of another endpoint", chain + "/addresses/" + me + "/transactions?pageToken=" + url.QueryEscape(transfersToken), 400, false, "pageToken"},
			{"page token of another address", chain + "/addresses/" + f.user.Address().Hex() + "/transactions?pageToken=" + url.QueryEscape(ewoqToken), 400, false, "pageToken"},
			{"page token of another token", chain + "/tokens/" + f.erc721.Hex() + "/transfers?pageToken=" + url.QueryEscape(transfersToken), 400, false, "pageToken"},
			{"garbage page token", chain + "/addresses/" + me + "/transactions?pageToken=not-a-token", 400, false, "pageToken"},
			{"malformed tx hash", chain + "/transactions/0x1234", 400, false, "txHash"},
			{"non-hex tx hash", chain + "/transactions/0x" + "zz" + unknownTx[4:], 400, false, "txHash"},
			{"unknown tx hash", chain + "/transactions/" + unknownTx, 404, false, ""},
			{"deployment of an EOA", chain + "/contracts/" + me + "/transactions:getDeployment", 404, false, ""},
			{"holders: pageSize 0", holders(f.chainID(), f.erc721.Hex()) + "?pageSize=0", 400, true, "pageSize"},
			{"holders: pageSize 5001", holders(f.chainID(), f.erc721.Hex()) + "?pageSize=5001", 400, true, "pageSize"},
			{"holders: blockchain ID", holders(f.chain.BlockchainID.String(), f.erc721.Hex()), 400, true, "chainId"},
			{"holders: unknown chain", holders("999999", f.erc721.Hex()), 400, true, "chainId"},
			{"holders: malformed address", holders(f.chainID(), "0x1234"), 400, true, "address"},
			{"holders: an ERC-20", holders(f.chainID(), f.erc20.Hex()), 400, true, ""},
			{"holders: an EOA", holders(f.chainID(), me), 404, true, ""},
			{"holders: page token of a data listing", holders(f.chainID(), f.erc721.Hex()) + "?pageToken=" + url.QueryEscape(transfersToken), 400, true, "pageToken"},
		}
		for _, c := range cases {
			r := harness.GetWithRetryAfter(t, ctx, c.url)
			require.Less(t, r.Status, 500, "%s: GET %s: %s", c.name, c.url, r.Body)
			t.Run(c.name, func(t *testing.T) {
				requireAPIError(t, r, c.status, c.metrics, c.mentions)
			})
		}

		// The edges of the ranges are fine.
		for _, u := range []string{
			chain + "/addresses/" + me + "/transactions?pageSize=1",
			chain + "/addresses/" + me + "/transactions?pageSize=100",
			chain + "/addresses/" + me + "/balances:listErc721?pageSize=500",
			holders(f.chainID(), f.erc721.Hex()) + "?pageSize=5000",
		} {
			r := harness.GetWithRetryAfter(t, ctx, u)
			require.Equal(t, http.StatusOK, r.Status, "GET %s: %s", u, r.Body)
		}
	})
}
