package store

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ava-labs/libevm/common"
	"github.com/dgraph-io/badger/v4"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// PendingTokens returns up to limit tokens queued for their metadata.
func (s *Store) PendingTokens(ctx context.Context, chain netinfo.Chain, limit int) ([]evmdata.TokenRef, error) {
	return readQueue(ctx, s, chain, tagNFTQ, limit, "tokens", func(_ *badger.Txn, suffix, v []byte) (evmdata.TokenRef, error) {
		ref := evmdata.TokenRef{Contract: common.BytesToAddress(suffix[:20]), TokenID: new(big.Int).SetBytes(suffix[20:])}
		if len(v) == 1 {
			ref.Kind = evmdata.ErcType(v[0])
		}
		return ref, nil
	})
}

// SetNFTMetadata stores a token's URI and metadata and takes it off the queue.
func (s *Store) SetNFTMetadata(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int,
	m evmdata.NFTMetadata,
) error {
	k := newKey(tagNFTMeta, chain).addr(contract).tokenID(id)
	if err := s.completeQueued(ctx, k, encodeNFTMetadata(&m), newKey(tagNFTQ, chain).addr(contract).tokenID(id)); err != nil {
		return fmt.Errorf("storing %s metadata of %s #%s: %w", chain, contract, id, err)
	}
	return nil
}

// NFTMetadata returns a token's URI and metadata; nil when not read yet.
func (s *Store) NFTMetadata(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int) (*evmdata.NFTMetadata, error) {
	var m *evmdata.NFTMetadata
	err := s.read(ctx, func(txn *badger.Txn) error {
		var err error
		m, err = readNFTMetadata(txn, chain, contract, id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s metadata of %s #%s: %w", chain, contract, id, err)
	}
	return m, nil
}

func readNFTMetadata(txn *badger.Txn, chain netinfo.Chain, contract common.Address, id *big.Int) (*evmdata.NFTMetadata, error) {
	v, err := getValue(txn, newKey(tagNFTMeta, chain).addr(contract).tokenID(id))
	if err != nil || v == nil {
		return nil, err
	}
	m, err := decodeNFTMetadata(v)
	if err != nil {
		return nil, err
	}
	return &m, nil
}

func encodeNFTMetadata(m *evmdata.NFTMetadata) []byte {
	w := rowWriter{}
	w.byte(rowVersion1)
	w.string(m.TokenURI)
	w.string(string(m.Status))
	w.uint(uint64(m.UpdatedAt))
	for _, s := range []string{m.Name, m.Description, m.ImageURI, m.AnimationURI, m.ExternalURL, m.Background, m.Attributes} {
		w.string(s)
	}
	w.bool(m.Decimals != nil)
	if m.Decimals != nil {
		w.byte(*m.Decimals)
	}
	return w.buf
}

func decodeNFTMetadata(v []byte) (evmdata.NFTMetadata, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return evmdata.NFTMetadata{}, fmt.Errorf("NFT metadata row version %d", ver)
	}
	var m evmdata.NFTMetadata
	m.TokenURI = r.string()
	m.Status = evmdata.IndexStatus(r.string())
	m.UpdatedAt = int64(r.uint())
	for _, f := range []*string{&m.Name, &m.Description, &m.ImageURI, &m.AnimationURI, &m.ExternalURL, &m.Background, &m.Attributes} {
		*f = r.string()
	}
	if r.bool() {
		d := r.byte()
		m.Decimals = &d
	}
	return m, r.done()
}
