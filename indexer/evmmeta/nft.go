package evmmeta

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/nodeapi"
)

// maxMetadataBytes bounds a token's metadata document.
const maxMetadataBytes = 256 << 10

// describeTokensSome reads the URIs of a batch of queued NFTs and decodes
// data: URIs on the spot. Documents behind http(s) or ipfs URIs are fetched
// only when the operator turned fetching on (FetchOptions); otherwise they
// stay unindexed.
func (d *Describer) describeTokensSome(ctx context.Context) (int, error) {
	pending, err := d.store.PendingTokens(ctx, d.chain, batchContracts)
	if err != nil || len(pending) == 0 {
		return 0, err
	}
	calls := make([]nodeapi.ContractCall, len(pending))
	for i, t := range pending {
		sel := selTokenURI
		if t.Kind == evmdata.Erc1155 {
			sel = selURI
		}
		calls[i] = nodeapi.ContractCall{To: t.Contract, Data: withUint(sel, t.TokenID)}
	}
	if err := d.node.CallContracts(ctx, calls); err != nil {
		return 0, err
	}
	for i, t := range pending {
		m := tokenMetadata(t, calls[i])
		if m.Status == evmdata.IndexStatusUnindexed && d.fetcher != nil {
			d.fetchDocument(ctx, &m, documentURI(t, m.TokenURI), t.Kind)
		}
		m.UpdatedAt = time.Now().Unix()
		if err := d.store.SetNFTMetadata(ctx, d.chain, t.Contract, t.TokenID, m); err != nil {
			return i, fmt.Errorf("storing metadata of %s #%s: %w", t.Contract, t.TokenID, err)
		}
	}
	return len(pending), nil
}

// fetchDocument reads a metadata document from its http(s) or ipfs URI
// (the token URI with any ERC-1155 {id} substituted) and records why when
// it cannot.
func (d *Describer) fetchDocument(ctx context.Context, m *evmdata.NFTMetadata, uri string, kind evmdata.ErcType) {
	doc, err := d.fetcher.fetch(ctx, uri)
	switch {
	case err == nil:
		fillFromDocument(m, doc, kind)
	case errors.Is(err, errScheme):
		m.Status = evmdata.IndexStatusInvalidScheme
	case errors.Is(err, errTooLarge):
		m.Status = evmdata.IndexStatusTooLarge
	default:
		m.Status = evmdata.IndexStatusUnreachable
	}
}

// tokenMetadata turns the answer to tokenURI/uri into the token's metadata.
// The token URI is kept as the contract returned it (an ERC-1155 uri(id) is
// a template with {id}, which clients substitute themselves); the metadata
// document is read at the URI with {id} substituted.
func tokenMetadata(t evmdata.TokenRef, answer nodeapi.ContractCall) evmdata.NFTMetadata {
	if answer.Err != nil {
		return evmdata.NFTMetadata{Status: evmdata.IndexStatusMissingToken}
	}
	uri, ok := decodeString(answer.Result)
	if !ok || strings.TrimSpace(uri) == "" {
		return evmdata.NFTMetadata{Status: evmdata.IndexStatusInvalidTokenURI}
	}
	m := evmdata.NFTMetadata{TokenURI: uri}
	doc, isData, err := readDataURI(documentURI(t, uri))
	switch {
	case !isData:
		m.Status = evmdata.IndexStatusUnindexed
	case err != nil:
		m.Status = evmdata.IndexStatusInvalidTokenURI
	default:
		fillFromDocument(&m, doc, t.Kind)
	}
	return m
}

// documentURI is where a token's metadata document is: its URI, with an
// ERC-1155 token's {id} substituted.
func documentURI(t evmdata.TokenRef, uri string) string {
	if t.Kind == evmdata.Erc1155 {
		return expandIDTemplate(uri, t.TokenID)
	}
	return uri
}

// expandIDTemplate substitutes ERC-1155's {id}: the id as 64 lower-case hex
// digits.
func expandIDTemplate(uri string, id *big.Int) string {
	return strings.ReplaceAll(uri, "{id}", fmt.Sprintf("%064x", id))
}

// readDataURI decodes a data: URI ("data:[<type>][;base64],<data>"); isData
// is false for any other scheme.
func readDataURI(uri string) ([]byte, bool, error) {
	rest, ok := strings.CutPrefix(uri, "data:")
	if !ok {
		return nil, false, nil
	}
	header, payload, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, true, fmt.Errorf("data URI without a comma")
	}
	if len(payload) > 2*maxMetadataBytes {
		return nil, true, fmt.Errorf("data URI of %d bytes", len(payload))
	}
	if strings.HasSuffix(header, ";base64") {
		b, err := base64.StdEncoding.DecodeString(payload)
		return b, true, err
	}
	s, err := url.PathUnescape(payload)
	return []byte(s), true, err
}

// metadataDocument is the ERC-721 / ERC-1155 metadata JSON schema.
type metadataDocument struct {
	Name            string          `json:"name"`
	Description     string          `json:"description"`
	Image           string          `json:"image"`
	ImageURL        string          `json:"image_url"`
	AnimationURL    string          `json:"animation_url"`
	ExternalURL     string          `json:"external_url"`
	BackgroundColor string          `json:"background_color"`
	Attributes      json.RawMessage `json:"attributes"`
	Properties      json.RawMessage `json:"properties"`
	Decimals        *uint8          `json:"decimals"`
}

func fillFromDocument(m *evmdata.NFTMetadata, doc []byte, kind evmdata.ErcType) {
	var d metadataDocument
	if len(doc) > maxMetadataBytes || json.Unmarshal(doc, &d) != nil {
		m.Status = evmdata.IndexStatusInvalidMetadata
		return
	}
	m.Status = evmdata.IndexStatusIndexed
	m.Name, m.Description = d.Name, d.Description
	m.ImageURI = d.Image
	if m.ImageURI == "" {
		m.ImageURI = d.ImageURL
	}
	m.AnimationURI, m.ExternalURL, m.Background = d.AnimationURL, d.ExternalURL, d.BackgroundColor
	attrs := d.Attributes
	if kind == evmdata.Erc1155 {
		attrs = d.Properties
		m.Decimals = d.Decimals
	}
	if len(attrs) > 0 && string(attrs) != "null" {
		m.Attributes = string(attrs)
	}
}
