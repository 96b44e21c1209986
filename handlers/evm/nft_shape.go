package evm

import (
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
)

// Shaping NFTs: the token a transfer moves carries its URI and metadata as
// read (an ERC-1155 id its uri(id) as the contract returned it, {id} and
// all), and a collection's tokens are Erc721Token or Erc1155Token by their
// standard.

// nftKey names one token in the shaper's metadata cache.
type nftKey struct {
	contract common.Address
	id       string
}

// nftMetadata returns a token's metadata (nil when not read yet), read once
// per request.
func (v *shaper) nftMetadata(contract common.Address, id *big.Int) *evmdata.NFTMetadata {
	if id == nil || v.err != nil {
		return nil
	}
	k := nftKey{contract: contract, id: id.String()}
	if m, ok := v.nftMeta[k]; ok {
		return m
	}
	m, err := v.s.reader.NFTMetadata(v.ctx, v.chain.Chain, contract, id)
	if err != nil {
		v.fail(fmt.Errorf("reading the metadata of %s #%s: %w", contract, id, err))
		return nil
	}
	if v.nftMeta == nil {
		v.nftMeta = make(map[nftKey]*evmdata.NFTMetadata)
	}
	v.nftMeta[k] = m
	return m
}

// collectionToken shapes one token of a collection: an ERC-721 token with
// its owner, or an ERC-1155 token.
func (v *shaper) collectionToken(contract common.Address, t evmdata.CollectionToken) any {
	if t.Kind == evmdata.Erc1155 {
		return v.erc1155Token(contract, t.TokenID, t.Metadata)
	}
	token := v.erc721Token(contract, t.TokenID, t.Metadata)
	token.OwnerAddress = t.Owner.Hex()
	return token
}
