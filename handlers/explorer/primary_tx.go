package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// primaryTxData is what a P, X or C atomic transaction's page shows.
type primaryTxData struct {
	primaryPage
	// Tx is getTxByHash's reply: PChainTransaction, an X-chain linear or
	// non-linear transaction, or a C-chain import or export.
	Tx object
	// Memo is the tx's memo as text where it is printable, else its hex.
	Memo string
	// StakeStart is when a staking tx's stake started: its startTimestamp,
	// or where that is 0 its block's time (StakeStartIsBlockTime): since
	// Durango a stake starts when its tx is accepted, and wallets leave
	// the tx's own start time 0.
	StakeStart            any
	StakeStartIsBlockTime bool
}

// servePrimaryTx draws /{p-chain|x-chain|c-chain}/tx/{txId}: the tx, what
// it moved, and the UTXOs it consumed and emitted.
func (s *server) servePrimaryTx(r *http.Request, req *request) (view, error) {
	p, err := s.primaryPageOfPath(r)
	if err != nil {
		return view{}, err
	}
	id := api.PathVar(r, "txId")
	tx, err := s.get(r.Context(), primaryCall(req, p, nil, "transactions", id))
	if err != nil {
		return view{}, err
	}
	d := primaryTxData{primaryPage: p, Tx: tx, Memo: memoText(tx["memo"]), StakeStart: tx["startTimestamp"]}
	if str(d.StakeStart) == "0" {
		d.StakeStart, d.StakeStartIsBlockTime = tx["blockTimestamp"], true
	}
	return view{Template: "primary_tx", Title: p.Chain.Label + " transaction " + short(id), Data: d}, nil
}
