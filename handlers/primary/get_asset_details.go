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

// GET /v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}
// (getAssetDetails, X-chain only): an X-chain asset as XChainAssetDetails,
// the shape a CreateAssetTx's assetCreated has. An asset's ID is the ID of
// the CreateAssetTx that created it (AVAX's: its genesis CreateAssetTx), so
// that tx gives the description, the creation time (its block's) and the
// cap (variable when it handed out mint outputs).

// getAssetDetailsRequest is the validated input of getAssetDetails.
type getAssetDetailsRequest struct {
	AssetID ids.ID
}

// parseAssetPath checks {network}, {blockchainId} (the X-chain) and reads
// {assetId}.
func (s *server) parseAssetPath(r *http.Request, heights *api.Heights) (ids.ID, error) {
	if _, err := s.resolveChain(r, heights, xChainOnly()); err != nil {
		return ids.Empty, err
	}
	return api.ParseCB58ID(paramAssetID, api.PathVar(r, paramAssetID))
}

func (s *server) parseGetAssetDetailsRequest(r *http.Request, heights *api.Heights) (getAssetDetailsRequest, error) {
	id, err := s.parseAssetPath(r, heights)
	return getAssetDetailsRequest{AssetID: id}, err
}

func (s *server) serveGetAssetDetails(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseGetAssetDetailsRequest(r, heights)
	if err != nil {
		return err
	}
	creation, err := s.assetCreation(r.Context(), req.AssetID)
	if err != nil {
		return err
	}
	v, err := s.newShaper(r.Context(), netinfo.X, nil) // assetCreated names no other asset
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, v.assetCreated(&creation, creation.Tx.Asset))
	return nil
}

// assetCreation reads the CreateAssetTx of an X-chain asset: a 404 when
// the index holds none.
func (s *server) assetCreation(ctx context.Context, asset ids.ID) (pdata.IndexedTx, error) {
	itx, found, err := s.reader.Tx(ctx, asset)
	if err != nil {
		return pdata.IndexedTx{}, fmt.Errorf("reading the creation of asset %s: %w", asset, err)
	}
	if !found || itx.Chain != netinfo.X || itx.Tx.Asset == nil || itx.Tx.Asset.ID != asset {
		return pdata.IndexedTx{}, api.NotFound("asset %s not found on the %s%s", asset, netinfo.X.DataAPIAlias(),
			s.notFoundHint(ctx, netinfo.X, hintDAG))
	}
	return itx, nil
}
