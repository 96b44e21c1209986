package seed

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/evmtest"
)

// callGas is the gas limit of every token call of the burst. The calls
// cannot be estimated (their contracts are still in the pool when they are
// sent); the test contracts' mints and transfers use well under 150k, and
// only the gas used is paid.
const callGas = 300_000

// Token amounts and ids of the sample.
var (
	nativeAmount  = new(big.Int).Mul(big.NewInt(1), big.NewInt(1e18)) // 1 AVAX
	legacyAmount  = new(big.Int).Mul(big.NewInt(25), big.NewInt(1e16))
	erc20Minted   = new(big.Int).Mul(big.NewInt(1000), big.NewInt(1e18))
	erc20Sent     = new(big.Int).Mul(big.NewInt(250), big.NewInt(1e18))
	erc1155ID     = big.NewInt(1)
	erc1155Minted = big.NewInt(100)
	erc1155Sent   = big.NewInt(40)
)

// WarpPayload is what the sample's warp message carries (in an
// AddressedCall from the sender).
const WarpPayload = "avadata sample warp message"

// The ERC-721 mints return ids 1, 2, … in order (TestERC721); the
// recipient gets the first.
const erc721RecipientToken = 1

// evmRun is the state of making the C-chain activity.
type evmRun struct {
	ctx    context.Context
	cfg    Config
	s      *Sample
	client *evmtest.Client
	hashes []common.Hash
}

// runEVM deploys the three token contracts, sends native and token
// transfers to the recipient and sends a warp message, all as one burst of
// consecutive nonces, then waits for every receipt.
func runEVM(ctx context.Context, cfg Config, s *Sample) error {
	c, err := evmtest.Dial(ctx, cfg.URI+"/ext/bc/C/rpc", cfg.Key)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	defer c.Close()
	s.EVMChainID = c.ChainID().Uint64()
	r := &evmRun{ctx: ctx, cfg: cfg, s: s, client: c}
	if err := r.burst(); err != nil {
		return err
	}
	return r.wait()
}

func (r *evmRun) burst() error {
	me, to := r.s.Sender.EVM, r.s.Recipient.EVM
	erc20, erc721, erc1155 := contracts.TestERC20(), contracts.TestERC721(), contracts.TestERC1155()
	var err error
	if r.s.ERC20, err = r.deploy(erc20, "Avadata Sample Token", "AST"); err != nil {
		return err
	}
	if r.s.ERC721, err = r.deploy(erc721, "Avadata Sample NFT", "ASN"); err != nil {
		return err
	}
	if r.s.ERC1155, err = r.deploy(erc1155, "https://avadata.invalid/sample/{id}.json"); err != nil {
		return err
	}
	r.s.ERC721RecipientToken = erc721RecipientToken

	sent, err := r.client.Send(r.ctx, evmtest.Tx{To: &to, Value: nativeAmount})
	if err := r.record("native transfer", KindNative, common.Address{}, sent.Hash, err); err != nil {
		return err
	}
	sent, err = r.client.Send(r.ctx, evmtest.Tx{To: &to, Value: legacyAmount, Legacy: true})
	if err := r.record("native transfer (legacy tx)", KindNative, common.Address{}, sent.Hash, err); err != nil {
		return err
	}

	calls := []struct {
		label, kind string
		contract    common.Address
		art         *contracts.Artifact
		method      string
		args        []any
	}{
		{"ERC-20 mint", KindMint, r.s.ERC20, erc20, "mint", []any{me, erc20Minted}},
		{"ERC-20 transfer", KindTransfer, r.s.ERC20, erc20, "transfer", []any{to, erc20Sent}},
		{"ERC-721 mint", KindMint, r.s.ERC721, erc721, "mint", []any{me}},
		{"ERC-721 mint", KindMint, r.s.ERC721, erc721, "mint", []any{me}},
		{"ERC-721 transfer", KindTransfer, r.s.ERC721, erc721, "transferFrom", []any{me, to, big.NewInt(erc721RecipientToken)}},
		{"ERC-1155 mint", KindMint, r.s.ERC1155, erc1155, "mint", []any{me, erc1155ID, erc1155Minted}},
		{"ERC-1155 transfer", KindTransfer, r.s.ERC1155, erc1155, "safeTransferFrom", []any{me, to, erc1155ID, erc1155Sent, []byte{}}},
	}
	for _, c := range calls {
		h, err := r.client.SendWithGas(r.ctx, c.contract, callGas, c.art, c.method, nil, c.args...)
		if err := r.record(c.label, c.kind, c.contract, h, err); err != nil {
			return err
		}
	}
	return r.sendWarp()
}

// sendWarp sends the warp message; wait reads it from the receipt's log,
// since the precompile, not the sender, makes its bytes.
func (r *evmRun) sendWarp() error {
	tx, err := evmtest.WarpTx([]byte(WarpPayload))
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	sent, err := r.client.Send(r.ctx, tx)
	return r.record("warp message", KindWarp, *tx.To, sent.Hash, err)
}

// deploy sends the creation of art; the address is known from the nonce.
func (r *evmRun) deploy(art *contracts.Artifact, args ...any) (common.Address, error) {
	sent, err := r.client.SendDeploy(r.ctx, art, args...)
	return sent.Contract, r.record("deploy "+art.Name, KindDeploy, sent.Contract, sent.Hash, err)
}

func (r *evmRun) record(label, kind string, contract common.Address, h common.Hash, err error) error {
	if err != nil {
		return fmt.Errorf("seed: sending %s: %w", label, err)
	}
	r.s.EVMTxs = append(r.s.EVMTxs, EVMTx{Label: label, Kind: kind, Hash: h, Contract: contract})
	r.hashes = append(r.hashes, h)
	return nil
}

// wait waits for every receipt of the burst, requires each to have
// succeeded and notes its block.
func (r *evmRun) wait() error {
	receipts, err := r.client.WaitReceipts(r.ctx, r.hashes...)
	if err != nil {
		return fmt.Errorf("seed: waiting for the C-chain transactions: %w", err)
	}
	for i, rc := range receipts {
		tx := &r.s.EVMTxs[i]
		if rc.Status != 1 {
			return fmt.Errorf("seed: %s (%s) failed in block %d", tx.Label, tx.Hash, rc.BlockNumber)
		}
		if tx.Kind == KindDeploy && (rc.ContractAddress == nil || *rc.ContractAddress != tx.Contract) {
			return fmt.Errorf("seed: %s (%s) created %v, want %s", tx.Label, tx.Hash, rc.ContractAddress, tx.Contract)
		}
		if tx.Kind == KindWarp {
			msg, err := evmtest.WarpMessage(rc)
			if err != nil {
				return fmt.Errorf("seed: %s: %w", tx.Label, err)
			}
			r.s.Warp = &WarpSample{TxHash: tx.Hash, Message: msg.Bytes()}
		}
		tx.Block = rc.BlockNumber
		r.cfg.logf("seed: %-22s %s (block %d)", tx.Label, tx.Hash, tx.Block)
	}
	return nil
}
