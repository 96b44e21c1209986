package explorer

import (
	"net/http"
	"net/url"
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
	// The chain's latest block, read with the block, says whether there is
	// a next one: at the tip the page links none.
	replies := s.getAll(r.Context(),
		primaryCall(req, p, nil, "blocks", id),
		primaryCall(req, p, url.Values{"pageSize": {"1"}}, "blocks"))
	if err := firstError(replies); err != nil {
		return view{}, err
	}
	block := replies[0].Body
	d := primaryBlockData{primaryPage: p, Block: block}
	if h, err := strconv.ParseUint(str(block["blockNumber"]), 10, 64); err == nil {
		if h < latestHeight(replies[1].Body) {
			d.Next = strconv.FormatUint(h+1, 10)
		}
		if h > 0 {
			d.Previous = strconv.FormatUint(h-1, 10)
		}
	}
	return view{Template: "primary_block", Title: p.Chain.Label + " block " + str(block["blockNumber"]), Data: d}, nil
}

// latestHeight is the height of the newest block of a
// listLatestPrimaryNetworkBlocks reply, 0 when it lists none.
func latestHeight(list object) uint64 {
	blocks, _ := list["blocks"].([]any)
	if len(blocks) == 0 {
		return 0
	}
	newest, _ := blocks[0].(object)
	h, _ := strconv.ParseUint(str(newest["blockNumber"]), 10, 64)
	return h
}
