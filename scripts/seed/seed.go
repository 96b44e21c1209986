// Package seed fills a local network with a small sample of real activity,
// so that a first look at avadata's API answers with data: native transfers
// and ERC-20, ERC-721 and ERC-1155 contracts with transfers on the C-chain,
// an X-chain transfer, an X→P and a P→C export/import, and a warp message
// sent through the C-chain's warp precompile. Every transaction is
// signed with one funding key (the pre-funded local key for `make run`)
// through avalanchego's primary-network wallet and the node's eth API.
//
// Run makes the activity and returns a Sample naming what it made; Examples
// turns a Sample into the API requests that show it (the curl lines `make
// run` prints and the README's quick tour); WaitServed waits until avadata
// answers every example with data.
package seed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/common/hexutil"
)

// Config says where and with what key to seed.
type Config struct {
	// URI is the node's HTTP address, e.g. http://127.0.0.1:9650.
	URI string
	// BaseURL is the avadata API on that node, e.g.
	// http://127.0.0.1:9650/ext/bc/data: its signature aggregator says
	// whether the network can sign the warp message.
	BaseURL string
	// Key signs every transaction. It needs SeedXAVAX on the X-chain; the
	// P- and C-chain funds come from its own X→P and P→C moves. A key with
	// C-chain funds of its own (the local network's pre-funded key) spends
	// those too.
	Key *secp256k1.PrivateKey
	// Recipient receives the transfers; nil makes a fresh one. Only its
	// addresses are used, never to sign.
	Recipient *secp256k1.PrivateKey
	// Logf, when set, receives one line per step.
	Logf func(format string, args ...any)
}

// Sample is what Run made: the accounts, contracts and transactions that the
// examples name. It is plain data (JSON), so a later run can print the same
// examples from a saved copy (see WriteRecord).
type Sample struct {
	// Network is the {network} path segment of the primary-network routes
	// (e.g. "local"); NetworkID its numeric ID.
	Network   string `json:"network"`
	NetworkID uint32 `json:"networkId"`
	// EVMChainID is the C-chain's eth_chainId, the {chainId} of the EVM
	// routes.
	EVMChainID uint64 `json:"evmChainId"`
	// Blockchain IDs of the primary network's chains.
	PChain ids.ID `json:"pChain"`
	XChain ids.ID `json:"xChain"`
	CChain ids.ID `json:"cChain"`

	// Sender is the funding key: it signed everything. Recipient only
	// received. Each has its C-chain (EVM) address and its X/P address
	// (one short ID, shown as X-… and P-…).
	Sender    Account `json:"sender"`
	Recipient Account `json:"recipient"`

	// The token contracts the sender deployed on the C-chain.
	ERC20   common.Address `json:"erc20"`
	ERC721  common.Address `json:"erc721"`
	ERC1155 common.Address `json:"erc1155"`
	// ERC721RecipientToken is the ERC-721 token id the recipient holds.
	ERC721RecipientToken uint64 `json:"erc721RecipientToken"`

	// EVMTxs are the C-chain transactions, in send order; PrimaryTxs the
	// X-, P- and C-chain (atomic) transactions, in issue order.
	EVMTxs     []EVMTx     `json:"evmTxs"`
	PrimaryTxs []PrimaryTx `json:"primaryTxs"`

	// Warp is the warp message the sender sent through the C-chain's warp
	// precompile; nil in a record made before the sample had one.
	Warp *WarpSample `json:"warp,omitempty"`

	// Heights are the node's P, X and C heights once every transaction was
	// accepted: avadata has indexed the sample when it reaches them.
	Heights map[string]uint64 `json:"heights"`
	// Took is how long making the activity took.
	Took time.Duration `json:"took"`
	// MadeAt is when Run finished.
	MadeAt time.Time `json:"madeAt"`
}

// Account is one key's addresses.
type Account struct {
	// EVM is the C-chain address.
	EVM common.Address `json:"evm"`
	// Short is the X/P-chain address bytes.
	Short ids.ShortID `json:"short"`
	// X and P are the bech32 forms, e.g. X-local1….
	X string `json:"x"`
	P string `json:"p"`
}

// EVM transaction kinds, EVMTx.Kind.
const (
	KindDeploy   = "deploy"
	KindNative   = "native transfer"
	KindMint     = "mint"
	KindTransfer = "token transfer"
	KindWarp     = "warp message"
)

// WarpSample is the sample's warp message.
type WarpSample struct {
	// TxHash is the C-chain transaction that called sendWarpMessage.
	TxHash common.Hash `json:"txHash"`
	// Message is the unsigned warp message, as the precompile's
	// SendWarpMessage log holds it: what aggregateSignatures takes.
	Message hexutil.Bytes `json:"message"`
	// Signable says whether avadata's signature aggregator signed Message
	// when the sample was made. On a network without sybil protection
	// (one-node `make run`) nobody can sign: the aggregator answers 404.
	Signable bool `json:"signable"`
}

// EVMTx is one C-chain transaction of the sample.
type EVMTx struct {
	Label string      `json:"label"`
	Kind  string      `json:"kind"`
	Hash  common.Hash `json:"hash"`
	// Contract is the token contract the transaction deployed or called;
	// zero for native transfers.
	Contract common.Address `json:"contract,omitzero"`
	Block    uint64         `json:"block"`
}

// PrimaryTx is one P-, X- or C-chain (atomic) transaction of the sample.
type PrimaryTx struct {
	Label string `json:"label"`
	// Chain is "X", "P" or "C".
	Chain  string `json:"chain"`
	ID     ids.ID `json:"id"`
	TxType string `json:"txType"` // BaseTx, ImportTx or ExportTx
}

// NativeTransfer returns the first native transfer of the sample.
func (s *Sample) NativeTransfer() (EVMTx, bool) {
	for _, tx := range s.EVMTxs {
		if tx.Kind == KindNative {
			return tx, true
		}
	}
	return EVMTx{}, false
}

// Deployment returns the transaction that deployed contract.
func (s *Sample) Deployment(contract common.Address) (EVMTx, bool) {
	for _, tx := range s.EVMTxs {
		if tx.Kind == KindDeploy && tx.Contract == contract {
			return tx, true
		}
	}
	return EVMTx{}, false
}

// PrimaryTxsOn returns the sample's transactions on chain ("X", "P", "C").
func (s *Sample) PrimaryTxsOn(chain string) []PrimaryTx {
	var out []PrimaryTx
	for _, tx := range s.PrimaryTxs {
		if tx.Chain == chain {
			out = append(out, tx)
		}
	}
	return out
}

// Run makes the sample activity on the node at cfg.URI and returns what it
// made. The primary-network moves come first, since the P→C import is what
// funds a key that starts with AVAX on X only; the C-chain activity follows
// in one burst of consecutive nonces (C-chain blocks are ~2 s apart, so
// waiting per transaction would take half a minute).
//
// The burst ends with a warp message sent through the warp precompile.
func Run(ctx context.Context, cfg Config) (*Sample, error) {
	if cfg.URI == "" || cfg.BaseURL == "" || cfg.Key == nil {
		return nil, errors.New("seed: URI, BaseURL and Key are required")
	}
	recipient := cfg.Recipient
	if recipient == nil {
		var err error
		if recipient, err = secp256k1.NewPrivateKey(); err != nil {
			return nil, fmt.Errorf("seed: making the recipient key: %w", err)
		}
	}
	began := time.Now()
	s := &Sample{}
	p, err := newPrimaryRun(ctx, cfg, s, recipient)
	if err != nil {
		return nil, err
	}
	if err := p.run(); err != nil {
		return nil, err
	}
	if err := runEVM(ctx, cfg, s); err != nil {
		return nil, err
	}
	if err := checkSignable(ctx, cfg, s); err != nil {
		return nil, err
	}
	if s.Heights, err = nodeHeights(ctx, cfg.URI); err != nil {
		return nil, err
	}
	s.Took, s.MadeAt = time.Since(began), time.Now().UTC()
	cfg.logf("sample activity made in %s: %d C-chain txs, %d X/P/C txs",
		s.Took.Round(time.Millisecond), len(s.EVMTxs), len(s.PrimaryTxs))
	return s, nil
}

// checkSignable notes whether the network can sign the warp message.
func checkSignable(ctx context.Context, cfg Config, s *Sample) error {
	ok, why, err := signable(ctx, cfg.BaseURL, s.Network, s.Warp.Message)
	if err != nil {
		return err
	}
	s.Warp.Signable = ok
	if !ok {
		cfg.logf("seed: the warp message cannot be signed on this network: %.200s", why)
	}
	return nil
}

func (c *Config) logf(format string, args ...any) {
	if c.Logf != nil {
		c.Logf(format, args...)
	}
}
