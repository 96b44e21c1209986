package primary

import (
	"context"
	"fmt"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// The subnet and blockchain operations (listSubnets, getSubnetById,
// listBlockchains, getBlockchainById) read the P-chain's registry the
// index keeps (pdata.Subnet): the primary network and its P-, X- and
// C-chain, every subnet a CreateSubnetTx made with its current owner, its
// conversion to an L1 and validator manager, and every chain a
// CreateChainTx made. They read the P-chain's data, so they report its
// height.
//
// Listings go in creation order (the creating tx's place on the P-chain,
// which is also its time order), newest first by default. A page token
// carries the last item's place and ID; items created while a client pages
// come before the first page (desc) or after the last (asc), so nothing is
// repeated or lost. A subnet's owner and L1 state are its current ones.

const (
	paramBlockchainID = "blockchainId"
)

// registryPaging is the paging of the subnet and blockchain listings.
func registryPaging(route string) api.Paging {
	return api.Paging{Route: route, Size: api.RegistryPageSize(), Sortable: true}
}

// parseRegistryPage reads the network and the paging of a subnet or
// blockchain listing.
func (s *server) parseRegistryPage(r *http.Request, heights *api.Heights, route string) (api.Page, error) {
	if err := api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return api.Page{}, err
	}
	s.ReadsChain(heights, netinfo.P)
	return s.ParsePage(r.Context(), heights, r.URL.Query(), registryPaging(route))
}

// listRegistry reads one page of a subnet or blockchain listing (what
// names it in errors) with list, and the token of the next page ("" at the
// end).
func listRegistry[T any](ctx context.Context, s *server, pg api.Page, what string,
	list func(context.Context, pdata.RegistryQuery) ([]T, error), posOf func(*T) pdata.RegistryPos,
) ([]T, string, error) {
	after, err := api.ResumeAfter(pg, decodeRegistryPos)
	if err != nil {
		return nil, "", err
	}
	items, err := list(ctx, pdata.RegistryQuery{
		Desc: pg.Order == api.SortDesc, After: after,
		Limit: pg.Size + 1, // one more tells whether a next page exists
	})
	if err != nil {
		return nil, "", fmt.Errorf("listing %s: %w", what, err)
	}
	items, more := api.TrimPage(items, pg.Size)
	if !more {
		return items, "", nil
	}
	pos := posOf(&items[len(items)-1])
	s.PageReaches(pg, netinfo.P, pos.Created.Height)
	token, err := s.NextPageToken(pg, int64(pos.Created.Height), encodeRegistryPos(pos))
	return items, token, err
}

const registryPosLen = 8 + 4 + ids.IDLen

func encodeRegistryPos(p pdata.RegistryPos) []byte {
	return append(encodePrimaryTxPos(p.Created), p.ID[:]...)
}

func decodeRegistryPos(b []byte) (pdata.RegistryPos, bool) {
	if len(b) != registryPosLen {
		return pdata.RegistryPos{}, false
	}
	created, _ := decodePrimaryTxPos(b[:primaryTxPosLen])
	return pdata.RegistryPos{Created: created, ID: ids.ID(b[primaryTxPosLen:])}, true
}

func subnetPos(sn *pdata.Subnet) pdata.RegistryPos {
	return pdata.RegistryPos{Created: sn.Created, ID: sn.ID}
}

func blockchainPos(b *pdata.IndexedBlockchain) pdata.RegistryPos {
	return pdata.RegistryPos{Created: b.Created, ID: b.ID}
}

// registryShaper shapes subnets and blockchains: P-chain addresses.
func (s *server) registryShaper() *shaper { return &shaper{node: s.Network(), chain: netinfo.P} }

// subnet shapes a subnet with its blockchains.
func (v *shaper) subnet(sn *pdata.Subnet) subnetReply {
	owners := v.addresses(sn.Owner.Addrs)
	out := subnetReply{
		CreateBlockTimestamp: sn.CreatedTime,
		CreateBlockIndex:     api.FormatUint(sn.Created.Height),
		SubnetID:             sn.ID.String(),
		OwnerAddresses:       owners,
		Threshold:            sn.Owner.Threshold,
		Locktime:             sn.Owner.Locktime,
		SubnetOwnershipInfo:  subnetOwnershipInfo{Locktime: sn.Owner.Locktime, Threshold: sn.Owner.Threshold, Addresses: owners},
		IsL1:                 sn.IsL1(),
		Blockchains:          make([]blockchainReply, len(sn.Blockchains)),
	}
	if sn.IsL1() {
		out.L1ConversionTransactionHash = sn.ConversionTx.String()
	}
	if m := sn.Manager; m != nil {
		out.L1ValidatorManagerDetails = &l1ValidatorManagerDetails{
			BlockchainID: m.BlockchainID.String(), ContractAddress: managerAddress(m.Address),
		}
	}
	for i := range sn.Blockchains {
		out.Blockchains[i] = blockchain(&sn.Blockchains[i])
	}
	return out
}

// blockchain shapes a blockchain.
func blockchain(b *pdata.IndexedBlockchain) blockchainReply {
	return blockchainReply{
		CreateBlockTimestamp: b.CreatedTime,
		CreateBlockNumber:    api.FormatUint(b.Created.Height),
		BlockchainID:         b.ID.String(),
		VMID:                 b.VMID.String(),
		SubnetID:             b.Subnet.String(),
		BlockchainName:       b.Name,
		EVMChainID:           evmChainIDOf(b.Genesis),
		GenesisData:          genesisData(b.Genesis),
	}
}
