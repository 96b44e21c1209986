package store

import (
	"fmt"
	"slices"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/pdata"
)

// Row codecs of stakers (0x30) and their node index summaries (0x31). The
// staker row keeps the whole pdata.Staker rather than leaning on the staking
// tx's bytes: a post-Durango staker's start is the chain time at acceptance,
// which the bytes do not hold, and the readers then need no tx decoder.

// Staker row flags.
const (
	stkDelegator byte = 1 << iota
	stkRewardsOwner
	stkDelegationOwner
	stkRewarded
	stkCommitted
	stkRemoved
	stkPotential
)

// encodeStaker encodes what the index stores of s: the staking tx and how
// its period ended, not the fields the reader derives (delegators, fees,
// the delegators' validator).
func encodeStaker(s *pdata.IndexedStaker) []byte {
	st := &s.Staker
	w := rowWriter{buf: make([]byte, 0, 256+32*len(st.Stake))}
	w.byte(rowVersion1)
	w.byte(flag(st.Delegator, stkDelegator) | flag(st.RewardsOwner != nil, stkRewardsOwner) |
		flag(st.DelegationRewardsOwner != nil, stkDelegationOwner) | flag(s.RewardTx != ids.Empty, stkRewarded) |
		flag(s.Committed, stkCommitted) | flag(s.RemoveTx != ids.Empty, stkRemoved) |
		flag(s.PotentialReward != nil, stkPotential))
	w.string(s.Type)
	w.uint(s.Height)
	w.int(s.Time)
	w.raw(st.NodeID.Bytes())
	w.id(st.Subnet)
	w.int(st.Start)
	w.int(st.End)
	w.uint(st.Weight)
	w.uint(uint64(st.DelegationShares))
	if st.RewardsOwner != nil {
		writeOwners(&w, st.RewardsOwner)
	}
	if st.DelegationRewardsOwner != nil {
		writeOwners(&w, st.DelegationRewardsOwner)
	}
	w.bytes(st.BLSPublicKey)
	w.bytes(st.BLSProofOfPossession)
	writeIDs(&w, st.Stake)
	if s.RewardTx != ids.Empty {
		w.id(s.RewardTx)
		w.int(s.RewardTime)
		// Reward types in a fixed order, so one staker always encodes
		// alike (map order is random).
		types := rewardTypes(s)
		w.uint(uint64(len(types)))
		for _, t := range types {
			w.string(t)
			w.uint(s.Rewards[t])
			writeShortIDs(&w, s.RewardOwners[t])
		}
	}
	if s.RemoveTx != ids.Empty {
		w.id(s.RemoveTx)
		w.int(s.RemoveTime)
	}
	if s.PotentialReward != nil {
		w.uint(*s.PotentialReward)
	}
	return w.buf
}

func rewardTypes(s *pdata.IndexedStaker) []string {
	var types []string
	for t := range s.Rewards {
		types = append(types, t)
	}
	for t := range s.RewardOwners {
		if _, ok := s.Rewards[t]; !ok {
			types = append(types, t)
		}
	}
	slices.Sort(types)
	return types
}

func decodeStaker(txID ids.ID, v []byte) (pdata.IndexedStaker, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return pdata.IndexedStaker{}, fmt.Errorf("staker row version %d", ver)
	}
	flags := r.byte()
	s := pdata.IndexedStaker{TxID: txID}
	st := &s.Staker
	st.Delegator = flags&stkDelegator != 0
	s.Type = r.string()
	s.Height = r.uint()
	s.Time = r.int()
	st.NodeID = ids.NodeID(r.shortID())
	st.Subnet = r.id()
	st.Start = r.int()
	st.End = r.int()
	st.Weight = r.uint()
	st.DelegationShares = uint32(r.uint())
	if flags&stkRewardsOwner != 0 {
		st.RewardsOwner = readOwners(&r)
	}
	if flags&stkDelegationOwner != 0 {
		st.DelegationRewardsOwner = readOwners(&r)
	}
	st.BLSPublicKey = r.bytes()
	st.BLSProofOfPossession = r.bytes()
	st.Stake = readIDs(&r)
	if len(st.Stake) == 0 {
		st.Stake = nil
	}
	if flags&stkRewarded != 0 {
		s.RewardTx = r.id()
		s.RewardTime = r.int()
		s.Committed = flags&stkCommitted != 0
		n := r.uint()
		if n > uint64(len(r.buf)) {
			r.fail()
		}
		for i := uint64(0); i < n && r.err == nil; i++ {
			if s.Rewards == nil {
				s.Rewards, s.RewardOwners = map[string]uint64{}, map[string][]ids.ShortID{}
			}
			t := r.string()
			s.Rewards[t] = r.uint()
			s.RewardOwners[t] = readShortIDs(&r)
		}
	}
	if flags&stkRemoved != 0 {
		s.RemoveTx = r.id()
		s.RemoveTime = r.int()
	}
	if flags&stkPotential != 0 {
		reward := r.uint()
		s.PotentialReward = &reward
	}
	return s, r.done()
}

func writeOwners(w *rowWriter, o *pdata.Owners) {
	w.uint(uint64(o.Threshold))
	w.uint(o.Locktime)
	writeShortIDs(w, o.Addrs)
}

func readOwners(r *rowReader) *pdata.Owners {
	return &pdata.Owners{Threshold: uint32(r.uint()), Locktime: r.uint(), Addrs: readShortIDs(r)}
}

// stakerSummary is the value of a staker's node index row (0x31): what
// relating validators and delegators of one node needs (which delegators a
// validator's period holds, which validator a delegator's period lies in),
// without reading every staker row.
type stakerSummary struct {
	End    int64
	Weight uint64
	Subnet ids.ID
	// Fee is the VALIDATOR_FEE the staker's reward tx paid (a pre-Cortina
	// delegator's fee to its validator, or a validator's accrued fees).
	Fee uint64
}

func summaryOf(s *pdata.IndexedStaker) stakerSummary {
	return stakerSummary{End: s.Staker.End, Weight: s.Staker.Weight, Subnet: s.Staker.Subnet,
		Fee: s.Rewards[pdata.RewardValidatorFee]}
}

func encodeSummary(s *stakerSummary) []byte {
	w := rowWriter{buf: make([]byte, 0, 56)}
	w.byte(rowVersion1)
	w.int(s.End)
	w.uint(s.Weight)
	// Most stakers are the primary network's (ids.Empty): store others only.
	w.bool(s.Subnet != ids.Empty)
	if s.Subnet != ids.Empty {
		w.id(s.Subnet)
	}
	w.uint(s.Fee)
	return w.buf
}

func decodeSummary(v []byte) (stakerSummary, error) {
	r := rowReader{buf: v}
	if ver := r.byte(); ver != rowVersion1 {
		return stakerSummary{}, fmt.Errorf("staker summary version %d", ver)
	}
	s := stakerSummary{End: r.int(), Weight: r.uint()}
	if r.bool() {
		s.Subnet = r.id()
	}
	s.Fee = r.uint()
	return s, r.done()
}
