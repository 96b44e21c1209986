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
	// CreationTx is the asset's CreateAssetTx where the API has it (its ID
	// is the asset's); "" for a genesis asset, like AVAX, whose creation
	// is in no block and has no page.
	CreationTx string
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
		primaryCall(req, p, primaryListQuery(req), "assets", id, "transactions"),
		primaryCall(req, p, nil, "transactions", id))
	if err := firstError(replies[:2]); err != nil {
		return view{}, err
	}
	d := primaryAssetData{primaryPage: p, Asset: replies[0].Body, Txs: replies[1].Body}
	creation, err := notFoundIsNil(replies[2])
	if err != nil {
		return view{}, err
	}
	if creation != nil {
		d.CreationTx = id
	}
	return view{Template: "primary_asset", Title: "Asset " + either(str(d.Asset["symbol"]), short(id)).(string), Data: d}, nil
}
