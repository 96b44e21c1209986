package primary

import (
	"fmt"
	"math/big"
	"net/http"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// GET /v1/networks/{network}/rewards (listHistoricalPrimaryNetworkRewards): the
// reward UTXOs paid to any of the addresses, or to stakers of any of the nodes
// (either filter, as the index's RewardQuery selects them), one
// HistoricalReward per UTXO, newest reward tx first by default.
//
// Paging: the token carries the last reward's place (pdata.RewardPos: the
// reward tx's time, then the UTXO ID).
//
// currency is validated and part of the page token's filters but changes
// nothing: the only member it would price, reward.historicalPrice, is
// optional and avadata has no price history, so it is left out.

// listHistoricalPrimaryNetworkRewardsRequest is the validated input of
// GET /v1/networks/{network}/rewards. At least one of Addresses and NodeIDs
// is set.
type listHistoricalPrimaryNetworkRewardsRequest struct {
	rewardSelection
	Currency string // lower-case, default usd
	Page     api.Page
}

func (s *server) parseListHistoricalPrimaryNetworkRewardsRequest(r *http.Request, heights *api.Heights) (listHistoricalPrimaryNetworkRewardsRequest, error) {
	var req listHistoricalPrimaryNetworkRewardsRequest
	var err error
	if req.rewardSelection, err = s.parseRewardSelection(r, heights); err != nil {
		return req, err
	}
	q := r.URL.Query()
	if req.Currency, err = api.ParseCurrency(q); err != nil {
		return req, err
	}
	req.Page, err = s.ParsePage(r.Context(), heights, q, api.DataPaging(routeListHistoricalPrimaryNetworkRewards, true), strings.Join(req.Addresses, ","),
		joinNodeIDs(req.NodeIDs), req.Currency)
	return req, err
}

func (s *server) serveListHistoricalPrimaryNetworkRewards(w http.ResponseWriter, r *http.Request, heights *api.Heights) error {
	req, err := s.parseListHistoricalPrimaryNetworkRewardsRequest(r, heights)
	if err != nil {
		return err
	}
	reader, err := s.stakingReader()
	if err != nil {
		return err
	}
	after, err := api.ResumeAfter(req.Page, decodeRewardPos)
	if err != nil {
		return err
	}
	ctx := r.Context()
	items, err := reader.Rewards(ctx, pdata.RewardQuery{
		Addrs: req.AddressIDs, NodeIDs: req.NodeIDs, Desc: req.Page.Order == api.SortDesc, After: after,
		Limit: req.Page.Size + 1, // one more tells whether a next page exists
	})
	if err != nil {
		return fmt.Errorf("listing rewards: %w", err)
	}
	items, more := api.TrimPage(items, req.Page.Size)
	resp := listRewardsResponse{HistoricalRewards: make([]historicalReward, 0, len(items))}
	if more {
		pos := rewardPosOf(&items[len(items)-1])
		if resp.NextPageToken, err = s.NextPageToken(req.Page, pos.Time, encodeTimeID(pos.Time, pos.UTXOID)); err != nil {
			return err
		}
	}
	assets := make([]ids.ID, len(items))
	for i := range items {
		assets[i] = items[i].UTXO.Asset
	}
	shapes, err := s.newShaper(ctx, netinfo.P, assets)
	if err != nil {
		return err
	}
	for i := range items {
		resp.HistoricalRewards = append(resp.HistoricalRewards, shapes.historicalReward(&items[i]))
	}
	api.WriteJSON(w, http.StatusOK, resp)
	return nil
}

// rewardPosOf is a reward's place in the listing: the reward tx's time is
// the reward UTXO's creation time (the staker's RewardTime stands in should
// a reader leave the UTXO's unset).
func rewardPosOf(ir *pdata.IndexedReward) pdata.RewardPos {
	t := ir.UTXO.CreatedTime
	if t == 0 {
		t = ir.Staker.RewardTime
	}
	return pdata.RewardPos{Time: t, UTXOID: ir.UTXO.ID}
}

// historicalReward shapes one reward UTXO. txHash is the staking tx (the
// reward UTXO's ID names it too), rewardTxHash the RewardValidatorTx that
// paid it, amountStaked the staker's weight.
func (v *shaper) historicalReward(ir *pdata.IndexedReward) historicalReward {
	u, st := &ir.UTXO, &ir.Staker
	rewardTx := u.CreatingTx
	if rewardTx == ids.Empty {
		rewardTx = st.RewardTx
	}
	return historicalReward{
		Addresses:      v.addresses(u.Owners.Addrs),
		TxHash:         st.TxID.String(),
		AmountStaked:   api.FormatUint(st.Staker.Weight),
		NodeID:         st.Staker.NodeID.String(),
		StartTimestamp: st.Staker.Start,
		EndTimestamp:   st.Staker.End,
		RewardType:     rewardTypeOf(u, &st.Staker),
		UTXOID:         u.ID.String(),
		OutputIndex:    u.OutputIndex,
		Reward:         v.assetAmount(u.Asset, new(big.Int).SetUint64(u.Amount), false),
		RewardTxHash:   rewardTx.String(),
	}
}

// rewardTypeOf keeps RewardType's closed enum: the index only writes its
// three values, and anything else is taken as the staker's own reward.
func rewardTypeOf(u *pdata.IndexedUTXO, st *pdata.Staker) string {
	switch {
	case validRewardType(u.RewardType):
		return u.RewardType
	case st.Delegator:
		return pdata.RewardDelegator
	default:
		return pdata.RewardValidator
	}
}
