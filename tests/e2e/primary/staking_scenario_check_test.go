package primary

import (
	"testing"
	"time"
)

// TestPrimaryStakingScenario runs the scenario and prints what the node
// said, asking avadata nothing beyond the captures made while staking.
func TestPrimaryStakingScenario(t *testing.T) {
	s := stakingScenarioFixture(t)
	t.Logf("validator node %s, genesis validator %s; scenario took %v (rewards %v after the validator tx)",
		s.nodeID, s.genesisNode, s.took.Round(time.Millisecond), s.rewardedAfter.Round(time.Millisecond))
	for role := range s.addrs {
		t.Logf("%-2s %s active %+v final %+v", role, s.pAddr(t, role), s.activeBalances[role], s.finalBalances[role])
	}
	for _, st := range s.stakers() {
		t.Logf("%-22s %s node %s weight %d start %d end %d potential %d; reward tx %s at %d (height %d, committed %v)",
			st.label, st.id, st.nodeID, st.weight, st.start, st.end, st.potentialReward,
			st.reward.id, st.reward.blockTime, st.reward.height, st.reward.committed)
		for _, u := range st.rewardUTXOs {
			t.Logf("    reward UTXO %s (%s:%d) %d to %v", u.ID, u.TxID, u.Index, u.Amount, u.Addrs)
		}
	}
	for label, r := range s.activeReplies {
		t.Logf("avadata while active, %s: %d %.300s", label, r.Status, r.Body)
	}
}
