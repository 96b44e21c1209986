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
	var out []evmdata.TokenRef
	err := s.view(ctx, func(txn *badger.Txn) error {
		prefix := newKey(tagNFTQ, chain)
		return scanRange(ctx, txn, prefix, prefix, nil, false, func(item *badger.Item) (bool, error) {
			k := item.Key()[len(prefix):]
			p := evmdata.TokenRef{Contract: common.BytesToAddress(k[:20]), TokenID: new(big.Int).SetBytes(k[20:])}
			if err := item.Value(func(v []byte) error {
				if len(v) == 1 {
					p.Kind = evmdata.ErcType(v[0])
				}
				return nil
			}); err != nil {
				return false, err
			}
			out = append(out, p)
			return len(out) < limit, nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s tokens to describe: %w", chain, err)
	}
	return out, nil
}

// SetNFTMetadata stores a token's URI and metadata and takes it off the queue.
func (s *Store) SetNFTMetadata(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int,
	m evmdata.NFTMetadata,
) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := s.db.Update(func(txn *badger.Txn) error {
		if err := txn.Set(newKey(tagNFTMeta, chain).addr(contract).tokenID(id), encodeNFTMetadata(&m)); err != nil {
			return err
		}
		return txn.Delete(newKey(tagNFTQ, chain).addr(contract).tokenID(id))
	})
	if err != nil {
		return fmt.Errorf("storing %s metadata of %s #%s: %w", chain, contract, id, err)
	}
	return nil
}

// NFTMetadata returns a token's URI and metadata; nil when not read yet.
func (s *Store) NFTMetadata(ctx context.Context, chain netinfo.Chain, contract common.Address, id *big.Int) (*evmdata.NFTMetadata, error) {
	var m *evmdata.NFTMetadata
	err := s.view(ctx, func(txn *badger.Txn) error {
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
