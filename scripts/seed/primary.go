package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/avalanchego/utils/units"
	"github.com/ava-labs/avalanchego/vms/avm"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
)

// The amounts the primary-network moves carry. The C-chain import is what
// pays for the C-chain activity of a key that had no C-chain funds.
const (
	xTransferAmount = 2 * units.Avax
	xToPAmount      = 6 * units.Avax
	pToCAmount      = 5 * units.Avax
	// SeedXAVAX is what Config.Key needs on the X-chain: the moves above
	// plus a margin for their fees.
	SeedXAVAX = xTransferAmount + xToPAmount + units.Avax
)

// pollFrequency is how often the wallet asks whether a tx was accepted;
// local blocks come within a second, so the default second would double
// the seeding time.
const pollFrequency = 20 * time.Millisecond

// primaryRun is the state of making the X, P and atomic activity.
type primaryRun struct {
	ctx    context.Context
	cfg    Config
	s      *Sample
	wallet *primary.Wallet
	avax   ids.ID
}

func newPrimaryRun(ctx context.Context, cfg Config, s *Sample, recipient *secp256k1.PrivateKey) (*primaryRun, error) {
	kc := secp256k1fx.NewKeychain(cfg.Key)
	// The wallet reads the key's UTXOs once, here, and from then on tracks
	// the ones its own transactions create, atomic memory included.
	w, err := primary.MakeWallet(ctx, cfg.URI, kc, kc, primary.WalletConfig{})
	if err != nil {
		return nil, fmt.Errorf("seed: making the wallet: %w", err)
	}
	xCtx := w.X().Builder().Context()
	s.NetworkID = xCtx.NetworkID
	s.Network = constants.NetworkName(xCtx.NetworkID)
	s.PChain, s.XChain, s.CChain = constants.PlatformChainID, xCtx.BlockchainID, w.C().Builder().Context().BlockchainID
	hrp := constants.GetHRP(xCtx.NetworkID)
	if s.Sender, err = account(cfg.Key, hrp); err != nil {
		return nil, err
	}
	if s.Recipient, err = account(recipient, hrp); err != nil {
		return nil, err
	}
	return &primaryRun{ctx: ctx, cfg: cfg, s: s, wallet: w, avax: xCtx.AVAXAssetID}, nil
}

// account is key's addresses on the network with bech32 prefix hrp.
func account(key *secp256k1.PrivateKey, hrp string) (Account, error) {
	short := key.Address()
	x, err := address.Format("X", hrp, short.Bytes())
	if err != nil {
		return Account{}, fmt.Errorf("seed: formatting an X address: %w", err)
	}
	p, err := address.Format("P", hrp, short.Bytes())
	if err != nil {
		return Account{}, fmt.Errorf("seed: formatting a P address: %w", err)
	}
	return Account{EVM: key.EthAddress(), Short: short, X: x, P: p}, nil
}

func (r *primaryRun) opts() []common.Option {
	return []common.Option{common.WithContext(r.ctx), common.WithPollFrequency(pollFrequency)}
}

func (r *primaryRun) out(to ids.ShortID, amount uint64) *avax.TransferableOutput {
	return &avax.TransferableOutput{
		Asset: avax.Asset{ID: r.avax},
		Out:   &secp256k1fx.TransferOutput{Amt: amount, OutputOwners: owner(to)},
	}
}

func owner(addr ids.ShortID) secp256k1fx.OutputOwners {
	return secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{addr}}
}

// record notes an accepted transaction (the wallet returns once the node
// accepted it) or wraps the error of issuing it.
func (r *primaryRun) record(label, chain, txType string, tx interface{ ID() ids.ID }, err error) error {
	if err != nil {
		return fmt.Errorf("seed: %s: %w", label, err)
	}
	id := tx.ID()
	r.s.PrimaryTxs = append(r.s.PrimaryTxs, PrimaryTx{Label: label, Chain: chain, ID: id, TxType: txType})
	r.cfg.logf("seed: %-22s %s", label, id)
	return nil
}

// run makes an X transfer to the recipient, then moves the sender's AVAX
// X→P and P→C, each exported and imported.
func (r *primaryRun) run() error {
	sender, recipient := r.s.Sender, r.s.Recipient
	me := owner(sender.Short)

	tx, err := r.wallet.X().IssueBaseTx([]*avax.TransferableOutput{r.out(recipient.Short, xTransferAmount)},
		append(r.opts(), common.WithMemo([]byte("avadata sample")))...)
	if err := r.record("X transfer", "X", "BaseTx", tx, err); err != nil {
		return err
	}

	xExport, err := r.wallet.X().IssueExportTx(r.s.PChain, []*avax.TransferableOutput{r.out(sender.Short, xToPAmount)}, r.opts()...)
	if err := r.record("X export to P", "X", "ExportTx", xExport, err); err != nil {
		return err
	}
	pImport, err := r.wallet.P().IssueImportTx(r.s.XChain, &me, r.opts()...)
	if err := r.record("P import from X", "P", "ImportTx", pImport, err); err != nil {
		return err
	}

	pExport, err := r.wallet.P().IssueExportTx(r.s.CChain, []*avax.TransferableOutput{r.out(sender.Short, pToCAmount)}, r.opts()...)
	if err := r.record("P export to C", "P", "ExportTx", pExport, err); err != nil {
		return err
	}
	cImport, err := r.wallet.C().IssueImportTx(r.s.PChain, sender.EVM, r.opts()...)
	return r.record("C import from P", "C", "ImportTx", cImport, err)
}

// nodeHeights reads the node's accepted heights of P, X and C.
func nodeHeights(ctx context.Context, uri string) (map[string]uint64, error) {
	p, err := platformvm.NewClient(uri).GetHeight(ctx)
	if err != nil {
		return nil, fmt.Errorf("seed: reading the P-chain height: %w", err)
	}
	x, err := avm.NewClient(uri, "X").GetHeight(ctx)
	if err != nil {
		return nil, fmt.Errorf("seed: reading the X-chain height: %w", err)
	}
	eth, err := rpc.DialContext(ctx, uri+"/ext/bc/C/rpc")
	if err != nil {
		return nil, fmt.Errorf("seed: dialing the C-chain: %w", err)
	}
	defer eth.Close()
	var c hexutil.Uint64
	if err := eth.CallContext(ctx, &c, "eth_blockNumber"); err != nil {
		return nil, fmt.Errorf("seed: reading the C-chain height: %w", err)
	}
	return map[string]uint64{"P": p, "X": x, "C": uint64(c)}, nil
}
