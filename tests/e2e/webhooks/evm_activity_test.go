package webhooks

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"testing"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/crypto"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/evmtest"
)

// evmScene is the activity the address_activity test makes on one EVM
// chain: a fresh account (user) that deploys three token contracts and
// moves every kind of token and native value, to and from a fresh
// receive-only address (recipient), with ewoq (the funded genesis key)
// sending some of it so that the watched accounts are also parties other
// than the sender.
type evmScene struct {
	chain     localnet.EVMChain
	ewoq      *evmtest.Client
	user      *evmtest.Client
	recipient common.Address
	// erc20 is the user's first deployment, known before it exists (the
	// address follows from the user's nonce 0): a webhook watches it from
	// its creation on.
	erc20, erc721, erc1155, forwarder, reverter common.Address
	// art holds the contracts' ABIs.
	art struct{ erc20, erc721, erc1155, forwarder, reverter *contracts.Artifact }

	mu   sync.Mutex
	sent []common.Hash
	last uint64 // the highest block of the activity
	// described are the txs sent once avadata had read the ERC-20's and
	// the ERC-721's metadata: their transfers carry the token objects.
	described map[common.Hash]bool
}

// newEVMScene dials chain with ewoq and a fresh user key.
func newEVMScene(t *testing.T, ctx context.Context, chain localnet.EVMChain) *evmScene {
	t.Helper()
	ewoq, err := evmtest.Dial(ctx, chain.RPCURL, genesis.EWOQKey)
	require.NoError(t, err, "dialing %s", chain.RPCURL)
	key, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	user, err := evmtest.Dial(ctx, chain.RPCURL, key)
	require.NoError(t, err)
	other, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	s := &evmScene{chain: chain, ewoq: ewoq, user: user, recipient: other.EthAddress()}
	s.art.erc20, s.art.erc721, s.art.erc1155 = contracts.TestERC20(), contracts.TestERC721(), contracts.TestERC1155()
	s.art.forwarder, s.art.reverter = contracts.Forwarder(), contracts.Reverter()
	s.erc20 = crypto.CreateAddress(user.Address(), 0)
	t.Cleanup(func() { ewoq.Close(); user.Close() })
	return s
}

// chainID is the EVM chain ID as the webhooks API names the chain.
func (s *evmScene) chainID() string { return fmt.Sprint(s.chain.EVMChainID) }

// record notes a sent tx.
func (s *evmScene) record(t *testing.T, what string, h common.Hash, err error) common.Hash {
	t.Helper()
	require.NoError(t, err, "%s: sending %s", s.chain.Name, what)
	s.mu.Lock()
	s.sent = append(s.sent, h)
	s.mu.Unlock()
	return h
}

// wait waits for the receipts of hashes, those of failed with status 0,
// the others 1, and returns them.
func (s *evmScene) wait(t *testing.T, ctx context.Context, hashes []common.Hash, failed ...common.Hash) []*evmtest.Receipt {
	t.Helper()
	rs, err := s.ewoq.WaitReceipts(ctx, hashes...)
	require.NoError(t, err, "%s: waiting for receipts", s.chain.Name)
	for i, r := range rs {
		want := uint64(1)
		for _, f := range failed {
			if f == hashes[i] {
				want = 0
			}
		}
		require.Equal(t, want, r.Status, "%s: status of %s", s.chain.Name, hashes[i])
		s.last = max(s.last, r.BlockNumber)
	}
	return rs
}

// makeActivity sends the scene's txs in bursts of consecutive nonces
// (waiting per tx would take a block each): native value (EIP-1559 and
// legacy), deployments, ERC-20 mint/transfer/transferFrom, ERC-721
// mint/transferFrom/safeTransferFrom, ERC-1155 mint/mintBatch/single/batch
// transfers, internal value transfers made by a contract, and a reverted
// tx with a reverted internal value transfer.
func (s *evmScene) makeActivity(t *testing.T, ctx context.Context) {
	t.Helper()
	me, user, r := s.ewoq.Address(), s.user.Address(), s.recipient
	call := func(c *evmtest.Client, what string, to common.Address, art *contracts.Artifact, method string, value *big.Int, args ...any) common.Hash {
		h, err := c.SendTransact(ctx, to, art, method, value, args...)
		return s.record(t, what, h, err)
	}
	deploy := func(c *evmtest.Client, art *contracts.Artifact, addr *common.Address, args ...any) common.Hash {
		sent, err := c.SendDeploy(ctx, art, args...)
		*addr = sent.Contract
		return s.record(t, "deploy "+art.Name, sent.Hash, err)
	}

	fund, err := s.ewoq.SendValue(ctx, user, harness.Ether(10))
	s.wait(t, ctx, []common.Hash{s.record(t, "fund the user", fund, err),
		deploy(s.ewoq, s.art.forwarder, &s.forwarder), deploy(s.ewoq, s.art.reverter, &s.reverter)})

	var erc20 common.Address
	s.wait(t, ctx, []common.Hash{
		deploy(s.user, s.art.erc20, &erc20, fmt.Sprintf("Token %d", s.chain.EVMChainID), "T20"),
		deploy(s.user, s.art.erc721, &s.erc721, fmt.Sprintf("NFT %d", s.chain.EVMChainID), "T721"),
		deploy(s.user, s.art.erc1155, &s.erc1155, "https://avadata.invalid/erc1155/{id}.json"),
	})
	require.Equal(t, s.erc20, erc20, "the user's first contract")

	// Gas is estimated against the accepted state: a transfer goes in a
	// burst after the mint it spends, a transferFrom after the approval.
	legacy, err := s.user.Send(ctx, evmtest.Tx{To: &r, Value: big.NewInt(1e15), Legacy: true})
	rs := s.wait(t, ctx, []common.Hash{
		call(s.user, "ERC-20 mint", s.erc20, s.art.erc20, "mint", nil, user, harness.Ether(1000)),
		call(s.user, "ERC-721 mint 1", s.erc721, s.art.erc721, "mint", nil, user),
		call(s.user, "ERC-721 mint 2", s.erc721, s.art.erc721, "mint", nil, user),
		call(s.user, "ERC-1155 mint", s.erc1155, s.art.erc1155, "mint", nil, user, big.NewInt(1), big.NewInt(100)),
		call(s.user, "ERC-1155 mintBatch", s.erc1155, s.art.erc1155, "mintBatch", nil, user,
			[]*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(20), big.NewInt(30)}),
		s.record(t, "legacy value to the recipient", legacy.Hash, err),
		call(s.user, "Forwarder.forward to the recipient", s.forwarder, s.art.forwarder, "forward", big.NewInt(2e15), r),
	})
	ids := make([]*big.Int, 2)
	for i, rc := range rs[1:3] {
		logs := rc.LogsFrom(s.erc721)
		require.Len(t, logs, 1)
		ev, err := s.art.erc721.ParseEvent("Transfer", logs[0].Topics, logs[0].Data)
		require.NoError(t, err)
		ids[i] = ev["tokenId"].(*big.Int)
	}

	safe721, err := s.art.erc721.MethodName("safeTransferFrom(address,address,uint256)")
	require.NoError(t, err)
	reverted, err := s.user.SendWithGas(ctx, s.forwarder, 200_000, s.art.forwarder, "forward", big.NewInt(1e15), s.reverter)
	reverted = s.record(t, "Forwarder.forward to the Reverter (status 0)", reverted, err)
	s.wait(t, ctx, []common.Hash{
		call(s.user, "ERC-20 transfer", s.erc20, s.art.erc20, "transfer", nil, r, harness.Ether(10)),
		call(s.user, "ERC-20 approve ewoq", s.erc20, s.art.erc20, "approve", nil, me, harness.Ether(100)),
		call(s.user, "ERC-721 transferFrom", s.erc721, s.art.erc721, "transferFrom", nil, user, r, ids[0]),
		call(s.user, "ERC-721 safeTransferFrom", s.erc721, s.art.erc721, safe721, nil, user, r, ids[1]),
		call(s.user, "ERC-1155 safeTransferFrom", s.erc1155, s.art.erc1155, "safeTransferFrom", nil, user, r,
			big.NewInt(1), big.NewInt(10), []byte{}),
		call(s.user, "ERC-1155 safeBatchTransferFrom", s.erc1155, s.art.erc1155, "safeBatchTransferFrom", nil, user, r,
			[]*big.Int{big.NewInt(2), big.NewInt(3)}, []*big.Int{big.NewInt(5), big.NewInt(6)}, []byte{}),
		call(s.ewoq, "Forwarder.split to the recipient and the user", s.forwarder, s.art.forwarder, "split", big.NewInt(4e15), r, user),
		reverted,
	}, reverted)
	s.wait(t, ctx, []common.Hash{
		call(s.ewoq, "ERC-20 transferFrom by ewoq", s.erc20, s.art.erc20, "transferFrom", nil, user, r, harness.Ether(5)),
	})
}

// transfersOfDescribedTokens waits until avadata has read the ERC-20's and
// the ERC-721's metadata from the contracts (a background task), then moves
// each token once more.
func (s *evmScene) transfersOfDescribedTokens(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	for _, token := range []common.Address{s.erc20, s.erc721} {
		harness.WaitDescribed(t, ctx, base+"/v1/chains/"+s.chainID()+"/addresses/"+token.Hex())
	}
	user := s.user.Address()
	hashes := []common.Hash{}
	for _, c := range []struct {
		what   string
		to     common.Address
		art    *contracts.Artifact
		method string
		args   []any
	}{
		{"ERC-20 transfer of a described token", s.erc20, s.art.erc20, "transfer", []any{s.recipient, harness.Ether(1)}},
		{"ERC-721 mint of a described token", s.erc721, s.art.erc721, "mint", []any{user}},
	} {
		h, err := s.user.SendTransact(ctx, c.to, c.art, c.method, nil, c.args...)
		hashes = append(hashes, s.record(t, c.what, h, err))
	}
	s.wait(t, ctx, hashes)
	s.described = map[common.Hash]bool{}
	for _, h := range hashes {
		s.described[h] = true
	}
}
