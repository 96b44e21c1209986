package explorer

import (
	"net/http"
	"net/url"

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
	// the URL is http(s). Otherwise the page shows the URL as text.
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
	if image := str(meta["imageUri"]); req.RemoteImages && isWebURL(image) {
		data.ImageURL = image
	}
	return view{Template: "evm_nft", Title: evmTitle(chain, tokenTitle(data.Collection)+" #"+short(id)), Data: data}, nil
}

// isWebURL says whether raw is an absolute http or https URL.
func isWebURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}
