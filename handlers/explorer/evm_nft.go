package explorer

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/avadata/avadata/handlers/api"
)

// evmNFTData is what an NFT's page shows: the token (getTokenDetails: its
// owner, URI and metadata) and its collection (getContractMetadata).
type evmNFTData struct {
	Chain      object
	Token      object
	Collection object
	// ImageURL is the metadata's image where the page may show it: the
	// operator let avadata fetch NFT metadata (Config.RemoteImages) and
	// the URL is https on a named host (isRemoteImageURL). Otherwise the
	// page shows the URL as text.
	ImageURL string
}

func (s *server) serveEVMNFT(r *http.Request, req *request) (view, error) {
	chainID, address, id := api.PathVar(r, evmVarChainID), api.PathVar(r, evmVarAddress), api.PathVar(r, "tokenId")
	chain, replies, err := s.readEVM(r.Context(), chainID,
		evmChainCall(nil, chainID, "nfts", "collections", address, "tokens", id),
		evmChainCall(nil, chainID, "addresses", address))
	if err != nil {
		return view{}, err
	}
	if err := firstError(replies); err != nil {
		return view{}, err
	}
	data := evmNFTData{Chain: chain, Token: replies[0].Body, Collection: replies[1].Body}
	meta, _ := data.Token["metadata"].(object)
	if image := str(meta["imageUri"]); req.RemoteImages && isRemoteImageURL(image) {
		data.ImageURL = image
	}
	return view{Template: "evm_nft", Title: evmTitle(chain, tokenTitle(data.Collection)+" #"+short(id)), Data: data}, nil
}

// isRemoteImageURL says whether an NFT's image may load from its URL in
// the visitor's browser: an https URL of a host named in DNS. The token's
// creator chose the URL, so it must not make the operator's browser reach
// the operator's own machine or network: IP literals are refused (with the
// numeric forms browsers read as IPv4, like 127.1 or 0x7f.1), and so is
// localhost. Plain http is refused too (anyone on the path could see or
// swap the image).
func isRemoteImageURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Opaque != "" {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if !dnsHostShape.MatchString(host) || host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return false
	}
	// A host whose last label is a number is an IPv4 address to a browser
	// (the URL standard's "ends in a number").
	last := host[strings.LastIndexByte(host, '.')+1:]
	return !ipv4NumberShape.MatchString(last)
}

var (
	// dnsHostShape is a host name in DNS's letters, punycode included:
	// no IPv6 literal, zone or escape gets through.
	dnsHostShape = regexp.MustCompile(`^[a-z0-9_-]+(\.[a-z0-9_-]+)*$`)
	// ipv4NumberShape is a label the URL standard reads as a number:
	// decimal or octal digits, or 0x and hex digits.
	ipv4NumberShape = regexp.MustCompile(`^([0-9]+|0x[0-9a-f]*)$`)
)
