package explorer

import (
	"net/http"
	"strconv"

	"github.com/avadata/avadata/handlers/api"
)

// primaryBlockData is what a P- or X-chain block's page shows.
type primaryBlockData struct {
	primaryPage
	// Block is getBlockById's reply.
	Block object
	// Previous and Next are the heights either side ("" where there is
	// none): the page's neighbours by height.
	Previous, Next string
}

// servePrimaryBlock draws /{p-chain|x-chain}/block/{idOrHeight}: the block
// with its proposer and its transactions linked.
func (s *server) servePrimaryBlock(r *http.Request, req *request) (view, error) {
	p, err := s.primaryPageOfPath(r)
	if err != nil {
		return view{}, err
	}
	id := api.PathVar(r, "blockId")
	block, err := s.get(r.Context(), primaryCall(req, p, nil, "blocks", id))
	if err != nil {
		return view{}, err
	}
	d := primaryBlockData{primaryPage: p, Block: block}
	if h, err := strconv.ParseUint(str(block["blockNumber"]), 10, 64); err == nil {
		d.Next = strconv.FormatUint(h+1, 10)
		if h > 0 {
			d.Previous = strconv.FormatUint(h-1, 10)
		}
	}
	return view{Template: "primary_block", Title: p.Chain.Label + " block " + str(block["blockNumber"]), Data: d}, nil
}
