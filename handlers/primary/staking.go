package primary

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm/reward"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// What the staking endpoints (5, 9, 11, 12) share: the staking reader,
// staker and reward positions, and the split of a reward between a delegator
// and its validator.

// stakingReader is the index's staking reader; a build without one answers
// 503 rather than failing on a nil reader.
func (s *server) stakingReader() (StakingReader, error) {
	if s.staking == nil {
		return nil, api.NewError(http.StatusServiceUnavailable, "staking data is not available: this node gives avadata no staking index")
	}
	return s.staking, nil
}

// stakersOf looks up the stakers the staking txs among txs add, by staking
// tx ID: at most one read for the validators and one for the delegators
// (the reader lists one kind at a time). status, when set, keeps the
// stakers with that status at now.
func (s *server) stakersOf(ctx context.Context, txs []pdata.IndexedTx, status string, now int64) (map[ids.ID]*pdata.IndexedStaker, error) {
	var validators, delegators []ids.ID
	for i := range txs {
		switch st := txs[i].Tx.Staker; {
		case st == nil:
		case st.Delegator:
			delegators = append(delegators, txs[i].Tx.ID)
		default:
			validators = append(validators, txs[i].Tx.ID)
		}
	}
	out := map[ids.ID]*pdata.IndexedStaker{}
	if len(validators)+len(delegators) == 0 {
		return out, nil
	}
	reader, err := s.stakingReader()
	if err != nil {
		return nil, err
	}
	for _, kind := range []struct {
		delegators bool
		txIDs      []ids.ID
	}{{false, validators}, {true, delegators}} {
		if len(kind.txIDs) == 0 {
			continue
		}
		stakers, err := reader.Stakers(ctx, pdata.StakerQuery{
			Delegators: kind.delegators, TxIDs: kind.txIDs, Status: status, Now: now, Limit: len(kind.txIDs),
		})
		if err != nil {
			return nil, fmt.Errorf("looking up %d stakers by staking tx: %w", len(kind.txIDs), err)
		}
		for i := range stakers {
			// The status is checked here too: the listing must not rest on
			// every reader applying a filter it may skip for TxIDs.
			if st := &stakers[i]; status == "" || st.Status(now) == status {
				out[st.TxID] = st
			}
		}
	}
	return out, nil
}

// pageStakersOf maps the staking txs among txs to their staker records
// (PChainTransaction.rewardTxHash and estimatedReward).
func (s *server) pageStakersOf(ctx context.Context, txs []pdata.IndexedTx) (map[ids.ID]*pdata.IndexedStaker, error) {
	if s.staking == nil {
		return nil, nil // both fields are optional: a build without staking data leaves them out
	}
	return s.stakersOf(ctx, txs, "", 0)
}

// Staker and reward positions (PageToken.Extra): a time, then a 32-byte ID
// (pdata.StakerPos: start time and staking tx; pdata.RewardPos: the reward
// tx's time and the reward UTXO).
const timeIDPosLen = 8 + ids.IDLen

func encodeTimeID(t int64, id ids.ID) []byte {
	return append(binary.BigEndian.AppendUint64(nil, uint64(t)), id[:]...)
}

func decodeTimeID(b []byte) (int64, ids.ID, bool) {
	if len(b) != timeIDPosLen {
		return 0, ids.Empty, false
	}
	return int64(binary.BigEndian.Uint64(b)), ids.ID(b[8:]), true
}

func decodeStakerPos(b []byte) (pdata.StakerPos, bool) {
	t, id, ok := decodeTimeID(b)
	return pdata.StakerPos{Start: t, TxID: id}, ok
}

func decodeRewardPos(b []byte) (pdata.RewardPos, bool) {
	t, id, ok := decodeTimeID(b)
	return pdata.RewardPos{Time: t, UTXOID: id}, ok
}

// listStakers reads one page of the staker listing q (getSingleValidatorDetails
// and listDelegators) in pg's order, after pg's position, and the token of the
// next page ("" at the end).
func (s *server) listStakers(ctx context.Context, q pdata.StakerQuery, pg api.Page) ([]pdata.IndexedStaker, string, error) {
	reader, err := s.stakingReader()
	if err != nil {
		return nil, "", err
	}
	if q.After, err = api.ResumeAfter(pg, decodeStakerPos); err != nil {
		return nil, "", err
	}
	q.Desc = pg.Order == api.SortDesc
	q.Limit = pg.Size + 1 // one more tells whether a next page exists
	stakers, err := reader.Stakers(ctx, q)
	if err != nil {
		return nil, "", fmt.Errorf("listing stakers: %w", err)
	}
	stakers, more := api.TrimPage(stakers, pg.Size)
	if !more {
		return stakers, "", nil
	}
	last := &stakers[len(stakers)-1]
	token, err := s.NextPageToken(pg, last.Staker.Start, encodeTimeID(last.Staker.Start, last.TxID))
	return stakers, token, err
}

// stakerAddresses shows a staker's rewards owner ([] when it names none).
func (v *shaper) stakerAddresses(st *pdata.Staker) []string {
	if st.RewardsOwner == nil {
		return []string{}
	}
	return v.addresses(st.RewardsOwner.Addrs)
}

// delegationFeeOf splits a delegation's gross reward the way the P-chain
// does (reward.Split): the validator's fee, at shares parts per million,
// and the delegator's net reward.
func delegationFeeOf(gross uint64, shares uint32) (fee, net uint64) {
	if shares > reward.PercentDenominator {
		shares = reward.PercentDenominator // the chain caps fees at 100%
	}
	return reward.Split(gross, shares)
}

// grossOfNet finds the gross reward a delegation whose delegator earned net
// had, for a validator fee of shares: the smallest gross whose split leaves
// net. Used when the fee was not paid by the delegation's own reward tx
// (post-Cortina validators accrue it and are paid at their own end). The
// split rounds down, so several grosses leave the same net: the one found
// can be short of the real one by at most 10^6/(10^6 - shares) nAVAX (1 or
// 2 for usual fees). With a 100% fee nothing is left to invert and net is
// all that is known.
func grossOfNet(net uint64, shares uint32) uint64 {
	if shares >= reward.PercentDenominator || net == 0 {
		return net
	}
	rest := reward.PercentDenominator - uint64(shares)
	// gross >= net * 10^6 / rest: start at the quotient rounded down and
	// step up to the first gross that leaves net (one step at most while
	// rest*gross fits 64 bits; past that the chain splits whole millions of
	// nAVAX, which the quotient already is). The real gross is at or above
	// the start, so the loop ends there at the latest.
	gross := mulDiv(net, reward.PercentDenominator, rest)
	for {
		if _, n := delegationFeeOf(gross, shares); n >= net {
			return gross
		}
		gross++
	}
}

// mulDiv returns a*b/c rounded down without overflowing in a*b (for c and
// b up to 10^6): rewards are far below 2^64, a*10^6 need not be.
func mulDiv(a, b, c uint64) uint64 {
	return a/c*b + a%c*b/c
}

// rewardSelection is the addresses and nodeIds filters of the reward
// listings (listHistoricalPrimaryNetworkRewards,
// listPendingPrimaryNetworkRewards).
type rewardSelection struct {
	Addresses []string // X/P-chain addresses as given
	// AddressIDs are the 20 bytes of Addresses, in the same order.
	AddressIDs []ids.ShortID
	NodeIDs    []ids.NodeID
}

// parseRewardSelection resolves the network (staking data is the
// P-chain's) and reads addresses and nodeIds, at least one of them.
func (s *server) parseRewardSelection(r *http.Request, heights *api.Heights) (rewardSelection, error) {
	var sel rewardSelection
	var err error
	if err = api.ResolveNetwork(api.PathVar(r, api.ParamNetwork), s.Network()); err != nil {
		return sel, err
	}
	s.ReadsChain(heights, netinfo.P)
	q := r.URL.Query()
	if sel.Addresses, sel.AddressIDs, err = s.parsePrimaryAddresses(q, api.ParamAddresses, false); err != nil {
		return sel, err
	}
	if sel.NodeIDs, err = api.ParseNodeIDList(q, api.ParamNodeIDs); err != nil {
		return sel, err
	}
	if len(sel.Addresses) == 0 && len(sel.NodeIDs) == 0 {
		return sel, api.BadRequest("%s or %s is required: give at least one of them", api.ParamAddresses, api.ParamNodeIDs)
	}
	return sel, nil
}
