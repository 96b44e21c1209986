package store

import (
	"context"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/pdata"
)

// The registry follows the txs that shape it: the genesis makes the
// primary network with the P-chain and the genesis' chains; a subnet's
// owner is the last transfer's; a conversion makes it an L1 with its
// manager; listings page in creation order both ways.
func TestSubnetRegistry(t *testing.T) {
	f := newFixture()
	xChain := f.tx("xchain", "CreateChainTx", nil)
	xChain.Subnet = constants.PrimaryNetworkID
	xChain.Blockchain = &pdata.Blockchain{ID: xChain.ID, Name: "X-Chain", VMID: ids.ID{'a', 'v', 'm'}, Genesis: []byte{1, 2}}
	f.gP.Txs = append(f.gP.Txs, xChain)
	s := openFixture(t, f)

	subnet := f.tx("subnet", "CreateSubnetTx", nil)
	subnet.Subnet, subnet.SubnetOwner = subnet.ID, owners(addrA)
	chain := f.tx("chain", "CreateChainTx", nil)
	chain.Subnet = subnet.ID
	chain.Blockchain = &pdata.Blockchain{ID: chain.ID, Name: "evm", VMID: ids.ID{'e'}, Genesis: []byte(`{"config":{}}`)}
	other := f.tx("other", "CreateSubnetTx", nil)
	other.Subnet, other.SubnetOwner = other.ID, owners(addrB)
	transfer := f.tx("transfer", "TransferSubnetOwnershipTx", nil)
	transfer.Subnet, transfer.SubnetOwner = subnet.ID, &pdata.Owners{Threshold: 2, Locktime: 7, Addrs: []ids.ShortID{addrB, addrD}}
	convert := f.tx("convert", "ConvertSubnetToL1Tx", nil)
	convert.Subnet, convert.L1Manager = subnet.ID, &pdata.L1Manager{BlockchainID: chain.ID, Address: []byte{0xAB}}
	writeP(t, s, []*pdata.Block{
		{Number: 1, ID: ids.ID{1}, Timestamp: 2000, Txs: []*pdata.Tx{subnet, chain}},
		{Number: 2, ID: ids.ID{2}, Timestamp: 2001, Txs: []*pdata.Tx{other, transfer}},
		{Number: 3, ID: ids.ID{3}, Timestamp: 2002, Txs: []*pdata.Tx{convert}},
	})
	ctx := context.Background()
	r := s.PrimaryReader(f.decode)

	got, found, err := r.Subnet(ctx, subnet.ID)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, pdata.TxPos{Height: 1}, got.Created)
	require.Equal(t, int64(2000), got.CreatedTime)
	require.Equal(t, *transfer.SubnetOwner, got.Owner)
	require.True(t, got.IsL1())
	require.Equal(t, convert.ID, got.ConversionTx)
	require.Equal(t, convert.L1Manager, got.Manager)
	require.Len(t, got.Blockchains, 1)
	require.Equal(t, "evm", got.Blockchains[0].Name)
	require.Equal(t, pdata.TxPos{Height: 1, Index: 1}, got.Blockchains[0].Created)

	primary, found, err := r.Subnet(ctx, constants.PrimaryNetworkID)
	require.NoError(t, err)
	require.True(t, found)
	require.False(t, primary.IsL1())
	require.Equal(t, int64(genesisTime), primary.CreatedTime)
	require.Equal(t, []ids.ID{constants.PlatformChainID, xChain.ID}, chainIDs(primary.Blockchains))

	_, found, err = r.Subnet(ctx, ids.ID{'n', 'o'})
	require.NoError(t, err)
	require.False(t, found)

	b, found, err := r.Blockchain(ctx, chain.ID)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, subnet.ID, b.Subnet)
	require.Equal(t, []byte(`{"config":{}}`), b.Genesis)

	all := []ids.ID{constants.PrimaryNetworkID, subnet.ID, other.ID}
	requireSubnetPages(t, r, false, all)
	requireSubnetPages(t, r, true, []ids.ID{other.ID, subnet.ID, constants.PrimaryNetworkID})

	chains, err := r.Blockchains(ctx, pdata.RegistryQuery{})
	require.NoError(t, err)
	require.Equal(t, []ids.ID{constants.PlatformChainID, xChain.ID, chain.ID}, chainIDs(chains))
	chains, err = r.Blockchains(ctx, pdata.RegistryQuery{Desc: true, Limit: 1,
		After: &pdata.RegistryPos{Created: chains[2].Created, ID: chain.ID}})
	require.NoError(t, err)
	require.Equal(t, []ids.ID{xChain.ID}, chainIDs(chains))
}

// requireSubnetPages pages through the subnets one at a time.
func requireSubnetPages(t *testing.T, r *PrimaryReader, desc bool, want []ids.ID) {
	t.Helper()
	var got []ids.ID
	q := pdata.RegistryQuery{Desc: desc, Limit: 1}
	for {
		page, err := r.Subnets(context.Background(), q)
		require.NoError(t, err)
		if len(page) == 0 {
			break
		}
		require.Len(t, page, 1)
		got = append(got, page[0].ID)
		q.After = &pdata.RegistryPos{Created: page[0].Created, ID: page[0].ID}
	}
	require.Equal(t, want, got)
}

func chainIDs(list []pdata.IndexedBlockchain) []ids.ID {
	out := make([]ids.ID, len(list))
	for i := range list {
		out[i] = list[i].ID
	}
	return out
}
