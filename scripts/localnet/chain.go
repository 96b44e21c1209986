package localnet

import (
	"context"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"

	"github.com/avadata/avadata/vm"
)

const (
	// walletTimeout bounds the two P-chain txs. A wallet call otherwise
	// blocks forever when the chain cannot decide (localnet.md §8.14); on a
	// healthy single node both take about a second.
	walletTimeout = time.Minute
	// walletPollFrequency replaces the wallet's 100 ms default, which adds
	// up to 100 ms to each tx for nothing on a local node.
	walletPollFrequency = 10 * time.Millisecond
)

// createAvadataChain creates a subnet owned by the pre-funded EWOQ key and
// the avadata chain in it. With sybil protection off the node creates the
// chain as soon as the CreateChainTx is accepted: no subnet validators and
// no --track-subnets are needed.
func createAvadataChain(ctx context.Context, uri string, genesisBytes []byte, logf func(string, ...any)) (subnetID, chainID ids.ID, err error) {
	ctx, cancel := context.WithTimeout(ctx, walletTimeout)
	defer cancel()

	kc := secp256k1fx.NewKeychain(genesis.EWOQKey)
	// The P-chain wallet is all that is needed; it fetches EWOQ's UTXOs.
	wallet, err := primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{})
	if err != nil {
		return ids.Empty, ids.Empty, fmt.Errorf("making the P-chain wallet: %w", err)
	}
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(walletPollFrequency)}

	owner := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{genesis.EWOQKey.Address()}}
	start := time.Now()
	subnetTx, err := wallet.IssueCreateSubnetTx(owner, opts...)
	if err != nil {
		return ids.Empty, ids.Empty, fmt.Errorf("issuing CreateSubnetTx: %w", err)
	}
	subnetID = subnetTx.ID()
	logf("subnet %s created in %s", subnetID, time.Since(start).Round(time.Millisecond))

	// The wallet learnt the new subnet's owner when it issued the
	// CreateSubnetTx, so it can sign the CreateChainTx without a refetch.
	start = time.Now()
	chainTx, err := wallet.IssueCreateChainTx(subnetID, genesisBytes, vm.ID, nil, chainName, opts...)
	if err != nil {
		return ids.Empty, ids.Empty, fmt.Errorf("issuing CreateChainTx: %w", err)
	}
	chainID = chainTx.ID()
	logf("avadata chain %s created in %s", chainID, time.Since(start).Round(time.Millisecond))
	return subnetID, chainID, nil
}
