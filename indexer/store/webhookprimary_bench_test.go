package store

import (
	"testing"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// BenchmarkPrimaryWebhookWriter is BenchmarkPrimaryWriterBaseTxs (2,000
// blocks) with primary-network webhooks on the P-chain: none; one watching
// an address no tx names (what every tx pays once a webhook exists); one
// watching the recipient of every tx (a balance_change per block); and the
// same with a threshold, which reads the recipient's unspent UTXOs at
// every tx, 1 to 2,000 of them.
func BenchmarkPrimaryWebhookWriter(b *testing.B) {
	recipient := ids.ShortID{0xE2} // benchPrimaryWriter's
	watch := func(subs []string, filter *webhookdata.BalanceThresholdFilter, addr ids.ShortID) func(*Store) {
		return func(s *Store) {
			n := testNetwork(nil)
			n.AVAXAssetID = avax
			s.SetPrimaryNetwork(n)
			watchPrimary(b, s, 1, netinfo.P, subs, filter, 0, addr)
		}
	}
	threshold := &webhookdata.BalanceThresholdFilter{BalanceType: "unlockedUnstaked", BalanceThreshold: "1000000000"}
	for _, c := range []struct {
		name  string
		setup func(*Store)
	}{
		{"none", nil},
		{"unmatched", watch(allPrimarySubs, threshold, ids.ShortID{0xF0})},
		{"balance_change", watch(changeOnly, nil, recipient)},
		{"threshold", watch(allPrimarySubs, threshold, recipient)},
	} {
		b.Run(c.name, func(b *testing.B) { benchPrimaryWriter(b, 2_000, c.setup) })
	}
}
