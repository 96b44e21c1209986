package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// primaryAssetData is what an X-chain asset's page shows.
type primaryAssetData struct {
	primaryPage
	// Asset is getAssetDetails' reply, Txs listAssetTransactions' page.
	Asset, Txs object
}

// servePrimaryAsset draws /x-chain/asset/{assetId}: the asset as its
// CreateAssetTx made it, and the transactions that moved it, paged.
func (s *server) servePrimaryAsset(r *http.Request, req *request) (view, error) {
	p, err := s.primaryPageOf("x-chain")
	if err != nil {
		return view{}, err
	}
	id := api.PathVar(r, "assetId")
	replies := s.getAll(r.Context(),
		primaryCall(req, p, nil, "assets", id),
		primaryCall(req, p, primaryListQuery(req), "assets", id, "transactions"))
	if err := firstError(replies); err != nil {
		return view{}, err
	}
	d := primaryAssetData{primaryPage: p, Asset: replies[0].Body, Txs: replies[1].Body}
	return view{Template: "primary_asset", Title: "Asset " + either(str(d.Asset["symbol"]), short(id)).(string), Data: d}, nil
}
