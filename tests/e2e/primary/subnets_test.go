package primary

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary"
	"github.com/ava-labs/avalanchego/wallet/subnet/primary/common"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// The subnet and blockchain operations (listSubnets, getSubnetById,
// listBlockchains, getBlockchainById) against the node: every subnet of
// platform.getSubnets and every chain of platform.getBlockchains (plus
// the P-chain), each subnet's owner, threshold, locktime and L1 state as
// platform.getSubnet tells them, each creation at the P-chain block that
// holds its tx. The subnets: the primary network, the local network's
// avadata and subnet-evm subnets, the L1 scenario's (converted by a
// ConvertSubnetToL1Tx) and one this test creates and hands to a new owner
// with a TransferSubnetOwnershipTx.

// apiSubnet is the Data API's Subnet as the test reads it.
type apiSubnet struct {
	CreateBlockTimestamp int64    `json:"createBlockTimestamp"`
	CreateBlockIndex     string   `json:"createBlockIndex"`
	SubnetID             string   `json:"subnetId"`
	OwnerAddresses       []string `json:"ownerAddresses"`
	Threshold            uint32   `json:"threshold"`
	Locktime             uint64   `json:"locktime"`
	SubnetOwnershipInfo  struct {
		Locktime  uint64   `json:"locktime"`
		Threshold uint32   `json:"threshold"`
		Addresses []string `json:"addresses"`
	} `json:"subnetOwnershipInfo"`
	IsL1                        bool   `json:"isL1"`
	L1ConversionTransactionHash string `json:"l1ConversionTransactionHash"`
	L1ValidatorManagerDetails   *struct {
		BlockchainID    string `json:"blockchainId"`
		ContractAddress string `json:"contractAddress"`
	} `json:"l1ValidatorManagerDetails"`
	Blockchains []apiBlockchain `json:"blockchains"`
}

// apiBlockchain is the Data API's Blockchain as the test reads it.
type apiBlockchain struct {
	CreateBlockTimestamp int64           `json:"createBlockTimestamp"`
	CreateBlockNumber    string          `json:"createBlockNumber"`
	BlockchainID         string          `json:"blockchainId"`
	VMID                 string          `json:"vmId"`
	SubnetID             string          `json:"subnetId"`
	BlockchainName       string          `json:"blockchainName"`
	EVMChainID           *uint64         `json:"evmChainId"`
	GenesisData          json.RawMessage `json:"genesisData"`
}

// nodeSubnet is platform.getSubnet's reply.
type nodeSubnet struct {
	IsPermissioned bool           `json:"isPermissioned"`
	ControlKeys    []string       `json:"controlKeys"`
	Threshold      avajson.Uint32 `json:"threshold"`
	Locktime       avajson.Uint64 `json:"locktime"`
	ConversionID   ids.ID         `json:"conversionID"`
	ManagerChainID ids.ID         `json:"managerChainID"`
	ManagerAddress string         `json:"managerAddress"`
}

// transferredSubnet is the subnet the test creates and hands over.
type transferredSubnet struct {
	id    ids.ID                   // also its CreateSubnetTx
	owner secp256k1fx.OutputOwners // after the transfer
	moved ids.ID                   // the TransferSubnetOwnershipTx
}

const subnetsTimeout = 5 * time.Minute

func TestPrimarySubnetsAndBlockchains(t *testing.T) {
	l1 := l1ScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), subnetsTimeout)
	defer cancel()
	uri, base := env.URI(t), env.Base(t)
	moved := createAndTransferSubnet(t, ctx, uri)
	harness.WaitIndexed(t, ctx, base, map[string]uint64{"P": truth.Height(t, ctx, uri, "P")})

	subnets := listBothWays[apiSubnet](t, ctx, base+"/v1/networks/"+primaryNetwork+"/subnets", "subnets",
		func(s apiSubnet) string { return s.SubnetID })
	chains := listBothWays[apiBlockchain](t, ctx, base+"/v1/networks/"+primaryNetwork+"/blockchains", "blockchains",
		func(b apiBlockchain) string { return b.BlockchainID })

	nodeChains := truth.Blockchains(t, ctx, uri)
	checkBlockchains(t, ctx, chains, nodeChains)
	byID := map[string]apiSubnet{}
	for _, s := range subnets {
		byID[s.SubnetID] = s
	}
	require.ElementsMatch(t, nodeSubnetIDs(t, ctx, uri), keysOf(byID), "listSubnets holds platform.getSubnets' subnets")
	for _, s := range subnets {
		checkSubnet(t, ctx, s, chains)
	}

	// The L1 of the L1 scenario: its conversion and manager.
	l1Subnet := byID[l1.subnetID.String()]
	require.True(t, l1Subnet.IsL1)
	require.Equal(t, l1TxOf(t, l1, "ConvertSubnetToL1Tx").id.String(), l1Subnet.L1ConversionTransactionHash)
	require.NotNil(t, l1Subnet.L1ValidatorManagerDetails)
	require.Equal(t, l1.chainID.String(), l1Subnet.L1ValidatorManagerDetails.BlockchainID)
	require.Equal(t, "0x"+hex.EncodeToString(l1.managerAddress), strings.ToLower(l1Subnet.L1ValidatorManagerDetails.ContractAddress))
	require.Equal(t, strconv.FormatUint(l1TxOf(t, l1, "CreateSubnetTx").height, 10), l1Subnet.CreateBlockIndex)
	require.Equal(t, []string{bech32(t, l1.addr)}, l1Subnet.SubnetOwnershipInfo.Addresses)

	// The subnet handed over: its new owner, not its first.
	mine := byID[moved.id.String()]
	require.False(t, mine.IsL1)
	require.Equal(t, moved.owner.Threshold, mine.SubnetOwnershipInfo.Threshold)
	require.Equal(t, moved.owner.Locktime, mine.SubnetOwnershipInfo.Locktime)
	want := make([]string, len(moved.owner.Addrs))
	for i, a := range moved.owner.Addrs {
		want[i] = bech32(t, a)
	}
	require.Equal(t, want, mine.SubnetOwnershipInfo.Addresses)
	require.Empty(t, mine.Blockchains)

	// The local subnet-evm chain: its genesis and EVM chain id, on a
	// subnet that is no L1.
	evm := env.Net(t).EVMChains()[1]
	for _, b := range chains {
		if b.BlockchainID == evm.BlockchainID.String() {
			require.JSONEq(t, string(localnet.SubnetEVMGenesis()), string(b.GenesisData))
			require.NotNil(t, b.EVMChainID)
			require.Equal(t, evm.EVMChainID, *b.EVMChainID)
		}
	}
	require.False(t, byID[evm.SubnetID.String()].IsL1)
	require.Contains(t, chainIDsOf(byID[evm.SubnetID.String()].Blockchains), evm.BlockchainID.String())

	checkSubnetBadInput(t, ctx, base)
}

// listBothWays pages through a listing in both orders (pageSize 2, to the
// end) and returns it oldest first: the same items, one order the other's
// reverse, each got by ID too (the same object), in creation order.
func listBothWays[T any](t *testing.T, ctx context.Context, list, key string, idOf func(T) string) []T {
	t.Helper()
	asc := harness.ListAll[T](t, ctx, list+"?sortOrder=asc&pageSize=2", key, 2)
	desc := harness.ListAll[T](t, ctx, list+"?pageSize=2", key, 2)
	require.Len(t, desc, len(asc))
	keys := make([]string, len(asc))
	for i := range asc {
		keys[i] = idOf(asc[i])
		require.Equal(t, keys[i], idOf(desc[len(desc)-1-i]), "%s: desc is asc reversed", list)
	}
	require.Len(t, asc, len(setOf(keys)), "%s: an item is repeated", list)
	for i := range asc {
		var one T
		harness.GetOK(t, ctx, list+"/"+keys[i], &one)
		require.Equal(t, asc[i], one, "%s/%s is the listing's item", list, keys[i])
	}
	// One more read of the whole list in a page: the same, with no nulls.
	r := harness.GetWithRetryAfter(t, ctx, list+"?sortOrder=asc&pageSize=10000")
	harness.RequireNoNulls(t, r.Body, list)
	return asc
}

// checkBlockchains checks listBlockchains against platform.getBlockchains
// (and the P-chain, which it does not list): IDs, names, VMs, subnets; a
// chain's createBlockNumber is the P-chain block that holds its
// CreateChainTx, 0 for the genesis' chains.
func checkBlockchains(t *testing.T, ctx context.Context, chains []apiBlockchain, node []truth.Blockchain) {
	t.Helper()
	want := map[string]truth.Blockchain{constants.PlatformChainID.String(): {
		ID: constants.PlatformChainID.String(), SubnetID: constants.PrimaryNetworkID.String(),
		VMID: constants.PlatformVMID.String(), Name: "P-Chain",
	}}
	for _, c := range node {
		want[c.ID] = c
	}
	require.ElementsMatch(t, keysOf(want), chainIDsOf(chains), "listBlockchains holds platform.getBlockchains' chains and the P-chain")
	uri := env.URI(t)
	last := uint64(0)
	for _, b := range chains {
		w := want[b.BlockchainID]
		require.Equal(t, w.Name, b.BlockchainName, b.BlockchainID)
		require.Equal(t, w.VMID, b.VMID, b.BlockchainID)
		require.Equal(t, w.SubnetID, b.SubnetID, b.BlockchainID)
		height, err := strconv.ParseUint(b.CreateBlockNumber, 10, 64)
		require.NoError(t, err)
		require.GreaterOrEqual(t, height, last, "blockchains are in creation order")
		last = height
		if height == 0 {
			require.Equal(t, constants.PrimaryNetworkID.String(), b.SubnetID, "only the primary network's chains are from genesis")
			continue
		}
		id, err := ids.FromString(b.BlockchainID)
		require.NoError(t, err)
		h, blockTime := truth.LocatePTx(t, ctx, uri, height, id)
		require.Equal(t, height, h, "%s: the block of its CreateChainTx", b.BlockchainID)
		require.Equal(t, blockTime, b.CreateBlockTimestamp, b.BlockchainID)
	}
	byAlias := harness.GetWithRetryAfter(t, ctx, env.Base(t)+"/v1/networks/"+primaryNetwork+"/blockchains/c-chain")
	byID := harness.GetWithRetryAfter(t, ctx, env.Base(t)+"/v1/networks/"+primaryNetwork+"/blockchains/"+env.Net(t).EVMChains()[0].BlockchainID.String())
	require.Equal(t, http.StatusOK, byAlias.Status)
	require.JSONEq(t, string(byID.Body), string(byAlias.Body), "c-chain names the C-chain")
}

// checkSubnet checks one subnet against platform.getSubnet and its
// CreateSubnetTx's block; its blockchains are listBlockchains' of it.
func checkSubnet(t *testing.T, ctx context.Context, s apiSubnet, chains []apiBlockchain) {
	t.Helper()
	uri := env.URI(t)
	require.Equal(t, s.OwnerAddresses, s.SubnetOwnershipInfo.Addresses, s.SubnetID)
	require.Equal(t, s.Threshold, s.SubnetOwnershipInfo.Threshold, s.SubnetID)
	require.Equal(t, s.Locktime, s.SubnetOwnershipInfo.Locktime, s.SubnetID)
	onSubnet := []apiBlockchain{}
	for _, b := range chains {
		if b.SubnetID == s.SubnetID {
			onSubnet = append(onSubnet, b)
		}
	}
	require.Equal(t, onSubnet, s.Blockchains, "%s: its blockchains, in creation order", s.SubnetID)
	if s.SubnetID == constants.PrimaryNetworkID.String() {
		require.Equal(t, "0", s.CreateBlockIndex)
		require.False(t, s.IsL1)
		require.Empty(t, s.OwnerAddresses)
		require.Zero(t, s.Threshold)
		require.Len(t, s.Blockchains, 3, "P, X and C")
		return
	}
	id, err := ids.FromString(s.SubnetID)
	require.NoError(t, err)
	var node nodeSubnet
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getSubnet", map[string]any{"subnetID": id}, &node))
	keys := make([]string, len(node.ControlKeys))
	for i, k := range node.ControlKeys {
		keys[i] = strings.TrimPrefix(k, "P-")
	}
	require.Equal(t, keys, s.SubnetOwnershipInfo.Addresses, "%s: owner", s.SubnetID)
	require.Equal(t, uint32(node.Threshold), s.SubnetOwnershipInfo.Threshold, s.SubnetID)
	require.Equal(t, uint64(node.Locktime), s.SubnetOwnershipInfo.Locktime, s.SubnetID)
	require.Equal(t, node.ConversionID != ids.Empty, s.IsL1, "%s: isL1 is whether the node has its conversion", s.SubnetID)
	if s.IsL1 {
		require.NotNil(t, s.L1ValidatorManagerDetails)
		require.Equal(t, node.ManagerChainID.String(), s.L1ValidatorManagerDetails.BlockchainID, s.SubnetID)
		require.Equal(t, strings.ToLower(node.ManagerAddress), strings.ToLower(s.L1ValidatorManagerDetails.ContractAddress), s.SubnetID)
		var convert struct {
			UnsignedTx struct {
				SubnetID string `json:"subnetID"`
				ChainID  string `json:"chainID"`
			} `json:"unsignedTx"`
		}
		require.NoError(t, json.Unmarshal(nodePTxJSON(t, ctx, uri, ids.FromStringOrPanic(s.L1ConversionTransactionHash)), &convert))
		require.Equal(t, s.SubnetID, convert.UnsignedTx.SubnetID, "the conversion tx converts this subnet")
		require.Equal(t, node.ManagerChainID.String(), convert.UnsignedTx.ChainID)
	} else {
		require.Empty(t, s.L1ConversionTransactionHash, s.SubnetID)
		require.Nil(t, s.L1ValidatorManagerDetails, s.SubnetID)
	}
	height, err := strconv.ParseUint(s.CreateBlockIndex, 10, 64)
	require.NoError(t, err)
	h, blockTime := truth.LocatePTx(t, ctx, uri, height, id)
	require.Equal(t, height, h, "%s: the block of its CreateSubnetTx", s.SubnetID)
	require.Equal(t, blockTime, s.CreateBlockTimestamp, s.SubnetID)
}

// checkSubnetBadInput: every bad input of the four operations gets the
// spec's error body.
func checkSubnetBadInput(t *testing.T, ctx context.Context, base string) {
	t.Helper()
	n := base + "/v1/networks/" + primaryNetwork
	unknown := ids.GenerateTestID().String()
	_, token := harness.ListPage[apiSubnet](t, ctx, n+"/subnets?pageSize=1", "subnets")
	require.NotEmpty(t, token)
	cases := []struct {
		name, url string
		status    int
		mentions  string
	}{
		{"subnets: other network", base + "/v1/networks/mainnet/subnets", 400, "network"},
		{"subnets: unknown network", base + "/v1/networks/devnet/subnets", 400, "network"},
		{"subnets: pageSize 0", n + "/subnets?pageSize=0", 400, "pageSize"},
		{"subnets: pageSize 10001", n + "/subnets?pageSize=10001", 400, "pageSize"},
		{"subnets: sortOrder", n + "/subnets?sortOrder=up", 400, "sortOrder"},
		{"subnets: pageToken", n + "/subnets?pageToken=garbage", 400, "pageToken"},
		{"subnets: token of the other order", n + "/subnets?pageSize=1&sortOrder=asc&pageToken=" + token, 400, "pageToken"},
		{"subnets: token of blockchains", n + "/blockchains?pageSize=1&pageToken=" + token, 400, "pageToken"},
		{"subnet: other network", base + "/v1/networks/fuji/subnets/" + unknown, 400, "network"},
		{"subnet: not cb58", n + "/subnets/not-an-id", 400, "subnetId"},
		{"subnet: hex", n + "/subnets/0x" + strings.Repeat("ab", 32), 400, "subnetId"},
		{"subnet: unknown", n + "/subnets/" + unknown, 404, unknown},
		{"blockchains: other network", base + "/v1/networks/mainnet/blockchains", 400, "network"},
		{"blockchains: pageSize", n + "/blockchains?pageSize=x", 400, "pageSize"},
		{"blockchains: sortOrder", n + "/blockchains?sortOrder=1", 400, "sortOrder"},
		{"blockchains: pageToken", n + "/blockchains?pageToken=garbage", 400, "pageToken"},
		{"blockchain: other network", base + "/v1/networks/mainnet/blockchains/p-chain", 400, "network"},
		{"blockchain: not cb58", n + "/blockchains/d-chain", 400, "blockchainId"},
		{"blockchain: unknown", n + "/blockchains/" + unknown, 404, unknown},
		{"blockchain: mainnet C-chain", n + "/blockchains/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5", 404, "not found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			harness.RequireErrorBody(t, harness.GetWithRetryAfter(t, ctx, c.url), c.status, c.mentions)
		})
	}
}

// createAndTransferSubnet: EWOQ creates a subnet owned by a fresh key K,
// then (K signing for the subnet) hands it to two fresh keys, threshold 2,
// with a locktime.
func createAndTransferSubnet(t *testing.T, ctx context.Context, uri string) transferredSubnet {
	t.Helper()
	k, err := secp256k1.NewPrivateKey()
	require.NoError(t, err)
	opts := []common.Option{common.WithContext(ctx), common.WithPollFrequency(20 * time.Millisecond)}
	w, err := primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(genesis.EWOQKey), primary.WalletConfig{})
	require.NoError(t, err, "EWOQ P wallet")
	tx, err := w.IssueCreateSubnetTx(&secp256k1fx.OutputOwners{Threshold: 1, Addrs: []ids.ShortID{k.Address()}}, opts...)
	require.NoError(t, err, "CreateSubnetTx")
	out := transferredSubnet{id: tx.ID()}

	newOwners := []ids.ShortID{ids.GenerateTestShortID(), ids.GenerateTestShortID()}
	utils.Sort(newOwners)
	out.owner = secp256k1fx.OutputOwners{Threshold: 2, Locktime: 1_234_567_890, Addrs: newOwners}
	w, err = primary.MakePWallet(ctx, uri, secp256k1fx.NewKeychain(genesis.EWOQKey, k),
		primary.WalletConfig{SubnetIDs: []ids.ID{out.id}})
	require.NoError(t, err, "P wallet with the subnet's owner")
	tx, err = w.IssueTransferSubnetOwnershipTx(out.id, &out.owner, opts...)
	require.NoError(t, err, "TransferSubnetOwnershipTx")
	out.moved = tx.ID()
	t.Logf("subnet %s created, handed over by %s", out.id, out.moved)
	return out
}

func nodeSubnetIDs(t *testing.T, ctx context.Context, uri string) []string {
	t.Helper()
	var reply struct {
		Subnets []struct {
			ID string `json:"id"`
		} `json:"subnets"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getSubnets", struct{}{}, &reply))
	out := make([]string, len(reply.Subnets))
	for i, s := range reply.Subnets {
		out[i] = s.ID
	}
	return out
}

func l1TxOf(t *testing.T, s *l1Scenario, txType string) *l1Tx {
	t.Helper()
	for _, tx := range s.txs {
		if tx.txType == txType {
			return tx
		}
	}
	t.Fatalf("the L1 scenario has no %s", txType)
	return nil
}

func bech32(t *testing.T, a ids.ShortID) string {
	t.Helper()
	s, err := address.FormatBech32(constants.GetHRP(constants.LocalID), a[:])
	require.NoError(t, err)
	return s
}

func chainIDsOf(chains []apiBlockchain) []string {
	out := make([]string, len(chains))
	for i, b := range chains {
		out[i] = b.BlockchainID
	}
	return out
}

func keysOf[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func setOf(list []string) map[string]bool {
	out := make(map[string]bool, len(list))
	for _, s := range list {
		out[s] = true
	}
	return out
}
