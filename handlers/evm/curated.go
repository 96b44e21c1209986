package evm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
)

// Curated contract metadata: what an operator says about a contract beyond
// what the chain says (description, links, logo, ...). It comes from an
// optional JSON file, keyed by EVM chain id and contract address:
//
//	{
//	  "43114": {
//	    "0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7": {
//	      "description": "Wrapped AVAX",
//	      "officialSite": "https://example.org",
//	      "email": "team@example.org",
//	      "color": "#E84142",
//	      "logoAsset": {"assetId": "wavax-logo", "imageUri": "https://example.org/logo.png"},
//	      "bannerAsset": {"imageUri": "https://example.org/banner.png"},
//	      "resourceLinks": [{"type": "Website", "url": "https://example.org"}],
//	      "tags": ["defi"]
//	    }
//	  }
//	}
//
// Decoding is strict: unknown fields, duplicate keys, malformed chain ids or
// addresses and resource link types outside the OpenAPI's ResourceLinkType
// are errors that name the entry.

// maxCuratedFileBytes bounds the file; curated lists are small.
const maxCuratedFileBytes = 16 << 20

// CuratedContracts holds curated metadata by EVM chain id and address.
type CuratedContracts map[uint64]map[common.Address]CuratedContract

// CuratedContract is the curated metadata of one contract. Its JSON is the
// OpenAPI's, so responses embed it as it is.
type CuratedContract struct {
	Description   string         `json:"description,omitempty"`
	OfficialSite  string         `json:"officialSite,omitempty"`
	Email         string         `json:"email,omitempty"`
	Color         string         `json:"color,omitempty"`
	LogoAsset     *ImageAsset    `json:"logoAsset,omitempty"`
	BannerAsset   *ImageAsset    `json:"bannerAsset,omitempty"`
	ResourceLinks []ResourceLink `json:"resourceLinks,omitempty"`
	Tags          []string       `json:"tags,omitempty"`
}

// ImageAsset is the OpenAPI's ImageAsset.
type ImageAsset struct {
	AssetID  string `json:"assetId,omitempty"`
	ImageURI string `json:"imageUri,omitempty"`
}

// ResourceLink is the OpenAPI's ResourceLink.
type ResourceLink struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// resourceLinkTypes is the OpenAPI's ResourceLinkType enum (case-sensitive).
func resourceLinkTypes() []string {
	return []string{"Blog", "CoinGecko", "CoinMarketCap", "Discord", "Documentation", "Facebook", "Github",
		"Instagram", "LinkedIn", "Medium", "Reddit", "Support", "Telegram", "TikTok", "Twitter", "Website",
		"Whitepaper", "Youtube"}
}

// LoadCuratedContracts reads a curated contracts file (format above). An
// empty path means no file and yields an empty set.
func LoadCuratedContracts(path string) (CuratedContracts, error) {
	if path == "" {
		return CuratedContracts{}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading curated contracts: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCuratedFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading curated contracts %s: %w", path, err)
	}
	if len(data) > maxCuratedFileBytes {
		return nil, fmt.Errorf("curated contracts %s: larger than %d bytes", path, maxCuratedFileBytes)
	}
	curated, err := parseCuratedContracts(data)
	if err != nil {
		return nil, fmt.Errorf("curated contracts %s: %w", path, err)
	}
	return curated, nil
}

// parseCuratedContracts decodes the file's content.
func parseCuratedContracts(data []byte) (CuratedContracts, error) {
	chains, err := objectMembers(data)
	if err != nil {
		return nil, err
	}
	out := make(CuratedContracts, len(chains))
	for _, chain := range chains {
		chainID, err := strconv.ParseUint(chain.key, 10, 64)
		if err != nil || chainID == 0 {
			return nil, fmt.Errorf("chain %q: want an EVM chain id, a positive decimal number", chain.key)
		}
		if out[chainID], err = parseCuratedChain(chain.value); err != nil {
			return nil, fmt.Errorf("chain %q: %w", chain.key, err)
		}
	}
	return out, nil
}

func parseCuratedChain(data []byte) (map[common.Address]CuratedContract, error) {
	contracts, err := objectMembers(data)
	if err != nil {
		return nil, err
	}
	out := make(map[common.Address]CuratedContract, len(contracts))
	for _, contract := range contracts {
		if api.ValidateEVMAddress(contract.key) != nil {
			return nil, fmt.Errorf("contract %q: want 0x followed by 40 hex digits", contract.key)
		}
		addr := common.HexToAddress(contract.key)
		if _, dup := out[addr]; dup {
			return nil, fmt.Errorf("contract %s appears more than once (addresses are case-insensitive)", contract.key)
		}
		entry, err := decodeCuratedContract(contract.value)
		if err != nil {
			return nil, fmt.Errorf("contract %s: %w", contract.key, err)
		}
		out[addr] = entry
	}
	return out, nil
}

func decodeCuratedContract(data []byte) (CuratedContract, error) {
	var c CuratedContract
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return CuratedContract{}, err
	}
	for i, link := range c.ResourceLinks {
		if !slices.Contains(resourceLinkTypes(), link.Type) {
			return CuratedContract{}, fmt.Errorf("resourceLinks[%d]: type %q is not one of %s",
				i, link.Type, api.QuoteList(resourceLinkTypes()))
		}
		if link.URL == "" {
			return CuratedContract{}, fmt.Errorf("resourceLinks[%d]: url is empty", i)
		}
	}
	for i, tag := range c.Tags {
		if tag == "" {
			return CuratedContract{}, fmt.Errorf("tags[%d] is empty", i)
		}
	}
	return c, nil
}

// objectMember is one member of a JSON object, in document order.
type objectMember struct {
	key   string
	value json.RawMessage
}

// objectMembers reads data as one JSON object and returns its members,
// rejecting duplicate keys (which encoding/json would silently merge) and
// anything after the object.
func objectMembers(data []byte) ([]objectMember, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("want a JSON object")
	}
	var members []objectMember
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("malformed JSON: %w", err)
		}
		key, _ := tok.(string) // object keys are always strings
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, fmt.Errorf("%q: malformed JSON: %w", key, err)
		}
		if seen[key] {
			return nil, fmt.Errorf("%q appears more than once", key)
		}
		seen[key] = true
		members = append(members, objectMember{key: key, value: value})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, fmt.Errorf("malformed JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON object")
	}
	return members, nil
}

// lookup returns the curated metadata of a contract.
func (c CuratedContracts) lookup(evmChainID uint64, addr common.Address) (CuratedContract, bool) {
	entry, ok := c[evmChainID][addr]
	return entry, ok
}

// logoURI is the curated logo of a contract, "" when none.
func (c CuratedContracts) logoURI(evmChainID uint64, addr common.Address) string {
	if entry, ok := c.lookup(evmChainID, addr); ok && entry.LogoAsset != nil {
		return entry.LogoAsset.ImageURI
	}
	return ""
}
