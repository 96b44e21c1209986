package primary

import (
	"testing"
	"time"
)

// TestPrimaryL1Scenario runs the scenario and prints what the node said.
func TestPrimaryL1Scenario(t *testing.T) {
	s := l1ScenarioFixture(t)
	t.Logf("L = %s; subnet %s, chain %s; took %v", s.pAddr(t), s.subnetID, s.chainID, s.took.Round(time.Millisecond))
	for _, tx := range s.txs {
		t.Logf("%-20s %-28s %s height %d time %d validation %s refund %+v", tx.label, tx.txType, tx.id,
			tx.height, tx.blockTime, tx.validationID, tx.refund)
	}
	if s.warpRefusal != "" {
		t.Logf("warp refused: %s", s.warpRefusal)
	}
	for _, v := range []*l1Validator{s.first} {
		t.Logf("L1 validator %s (%s): %+v", v.validationID, v.NodeID, v.node)
	}
}
