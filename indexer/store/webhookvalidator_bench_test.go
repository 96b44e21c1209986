package store

import (
	"fmt"
	"testing"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
	"github.com/avadata/avadata/indexer/webhookdata"
)

// BenchmarkWebhookValidatorBlocks writes P blocks that advance the time
// over 1000 active L1 validators: without validator webhooks (the fast
// path), and with one watching their subnet with a balance threshold no
// balance crosses (a range scan per block that finds nothing).
func BenchmarkWebhookValidatorBlocks(b *testing.B) {
	for _, watched := range []bool{false, true} {
		b.Run(fmt.Sprintf("watched=%v", watched), func(b *testing.B) {
			s, _ := openL1Store(b)
			vals := make([]pdata.L1Validator, 1000)
			for i := range vals {
				vals[i] = pdata.L1Validator{ValidationID: ids.ID{'v', byte(i >> 8), byte(i)}, NodeID: ids.NodeID{byte(i >> 8), byte(i)},
					Subnet: ids.ID{'s'}, Weight: 1, Balance: 1 << 50}
			}
			if watched {
				h := webhookdata.Webhook{ID: webhookdata.ID{1}, EventType: webhookdata.ValidatorActivity, Chain: netinfo.P,
					ChainID: testPChainID, Status: webhookdata.Active, FromHeight: 1, Metadata: webhookdata.Metadata{
						KeyType: webhookdata.KeyTypeSubnetID, Keys: []string{ids.ID{'s'}.String()},
						ValidatorActivitySubEvents: allValidatorSubEvents, L1ValidatorFeeBalanceThreshold: "1000"}}
				if _, err := s.CreateWebhook(b.Context(), h); err != nil {
					b.Fatal(err)
				}
			}
			writeP(b, s, []*pdata.Block{{Number: 1, ID: ids.ID{'B', 1}, Timestamp: l1Day0 + 200, Type: "BanffStandardBlock",
				AdvancesTime: true, Txs: []*pdata.Tx{l1Tx(1, "ConvertSubnetToL1Tx", vals...)}}})
			b.ResetTimer()
			for i := range b.N {
				h := uint64(i + 2)
				writeP(b, s, []*pdata.Block{{Number: h, ID: ids.ID{'B', byte(h >> 16), byte(h >> 8), byte(h)},
					Timestamp: l1Day0 + 200 + int64(i+1)*60, Type: "BanffStandardBlock", AdvancesTime: true}})
			}
		})
	}
}
