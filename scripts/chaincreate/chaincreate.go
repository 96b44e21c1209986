// Package chaincreate creates the avadata subnet and chain on a network
// with a funded P-chain key: the pre-funded local key for `make run` and the
// e2e tests, the operator's own key on Fuji or Mainnet.
package chaincreate

import (
	"context"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"

	"github.com/avadata/avadata/vm"
)

const (
	// ChainName is the name recorded in the CreateChainTx.
	ChainName = "avadata"
	// timeout bounds the two P-chain txs. A wallet call otherwise blocks
	// forever when the chain cannot decide.
	timeout = 2 * time.Minute
	// pollFrequency replaces the wallet's 100 ms default.
	pollFrequency = 10 * time.Millisecond
)

// DefaultGenesis is the avadata chain's genesis. The VM only hashes it into
// its genesis block, so any bytes work; these say what the chain is.
func DefaultGenesis() []byte { return []byte(`{"name":"avadata"}`) }

// Create issues a CreateSubnetTx owned by key and the avadata CreateChainTx
// in that subnet, through the node at uri, and returns their IDs. logf (may
// be nil) receives one line per step.
func Create(ctx context.Context, uri string, key *secp256k1.PrivateKey, genesisBytes []byte, logf func(string, ...any)) (subnetID, chainID ids.ID, err error) {
	return CreateSubnetAndChain(ctx, uri, key, vm.ID, ChainName, genesisBytes, logf)
}

// CreateSubnetAndChain issues a CreateSubnetTx owned by key and a
// CreateChainTx of VM vmID named chainName in that subnet, through the node
// at uri, and returns their IDs. logf (may be nil) receives one line per
// step. The local network also uses it for its subnet-evm chain.
func CreateSubnetAndChain(ctx context.Context, uri string, key *secp256k1.PrivateKey, vmID ids.ID, chainName string,
	genesisBytes []byte, logf func(string, ...any),
) (subnetID, chainID ids.ID, err error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	kc := secp256k1fx.NewKeychain(key)
	wallet, err := primary.MakePWallet(ctx, uri, kc, primary.WalletConfig{})
	if err != nil {
		return ids.Empty, ids.Empty, fmt.Errorf("making the P-chain wallet: %w", err)
	}
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(pollFrequency)}

	owner := &secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{key.Address()}}
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
	chainTx, err := wallet.IssueCreateChainTx(subnetID, genesisBytes, vmID, nil, chainName, opts...)
	if err != nil {
		return ids.Empty, ids.Empty, fmt.Errorf("issuing CreateChainTx of %s: %w", chainName, err)
	}
	chainID = chainTx.ID()
	logf("%s chain %s created in %s", chainName, chainID, time.Since(start).Round(time.Millisecond))
	return subnetID, chainID, nil
}
