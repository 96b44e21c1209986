package primary

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
)

// listLatestPrimaryNetworkTransactions on P for the L1 scenario: by
// l1ValidationId (the L1 validator's txs, and nothing else) and by L's
// address, each L1 field against platform.getTx (json),
// platform.getL1Validator and platform.getUTXOs (the disable's refund).

// listL1Txs pages through listLatestPrimaryNetworkTransactions on P of the
// shared network with q.
func listL1Txs(t *testing.T, ctx context.Context, q url.Values) []dataapi.L1Tx {
	t.Helper()
	return listL1TxsAt(t, ctx, env.Base(t), primaryNetwork, q)
}

// listL1TxsAt pages through listLatestPrimaryNetworkTransactions on P of the
// avadata at base, whose {network} segment is network.
func listL1TxsAt(t *testing.T, ctx context.Context, base, network string, q url.Values) []dataapi.L1Tx {
	t.Helper()
	var all []dataapi.L1Tx
	q = cloneValues(q)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 100, "P transactions %v: paging does not end", q)
		var page struct {
			Transactions  []dataapi.L1Tx `json:"transactions"`
			NextPageToken string         `json:"nextPageToken"`
		}
		harness.GetOK(t, ctx, base+"/v1/networks/"+network+"/blockchains/p-chain/transactions?"+q.Encode(), &page)
		all = append(all, page.Transactions...)
		if page.NextPageToken == "" {
			return all
		}
		q.Set("pageToken", page.NextPageToken)
	}
}

func l1Fixture(t *testing.T) (*l1Scenario, context.Context) {
	t.Helper()
	s := l1ScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	waitCtx, waitCancel := context.WithTimeout(ctx, primaryIndexTimeout)
	defer waitCancel()
	harness.WaitIndexed(t, waitCtx, env.Base(t), map[string]uint64{"P": s.txs[len(s.txs)-1].height})
	return s, ctx
}

func l1Hashes(txs []dataapi.L1Tx) []string {
	out := make([]string, len(txs))
	for i, tx := range txs {
		out[i] = tx.TxHash
	}
	return out
}

func l1TxHashes(txs []*l1Tx) []string {
	out := make([]string, len(txs))
	for i, tx := range txs {
		out[i] = tx.id.String()
	}
	return out
}

// nodeL1TxJSON is the unsigned part of platform.getTx (json) for the L1
// tx types: the fields the Data API's L1 fields come from.
type nodeL1TxJSON struct {
	SubnetID   ids.ID         `json:"subnetID"`
	ChainID    ids.ID         `json:"chainID"`
	Address    string         `json:"address"`
	ChainName  string         `json:"chainName"`
	VMID       ids.ID         `json:"vmID"`
	Owner      *nodeOwner     `json:"owner"`
	Balance    avajson.Uint64 `json:"balance"`
	Validation ids.ID         `json:"validationID"`
	Message    string         `json:"message"`
	Validators []struct {
		NodeID  string         `json:"nodeID"`
		Weight  avajson.Uint64 `json:"weight"`
		Balance avajson.Uint64 `json:"balance"`
	} `json:"validators"`
}

func decodeNodeL1Tx(t *testing.T, raw json.RawMessage) nodeL1TxJSON {
	t.Helper()
	var tx struct {
		Unsigned nodeL1TxJSON `json:"unsignedTx"`
	}
	require.NoError(t, json.Unmarshal(raw, &tx), "platform.getTx: %s", raw)
	return tx.Unsigned
}

func sameHex(t *testing.T, want []byte, got, what string) {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(strings.ToLower(got), "0x"))
	require.NoError(t, err, "%s: %q is not hex", what, got)
	require.Equal(t, want, b, what)
}

func numberIs(t *testing.T, want uint64, got json.Number, what string) {
	t.Helper()
	require.NotEmpty(t, got, "%s missing", what)
	require.Equal(t, json.Number(strconv.FormatUint(want, 10)), json.Number(strings.Trim(string(got), `"`)), what)
}

// checkL1Tx checks one listed tx of the scenario against the node.
func (s *l1Scenario) checkL1Tx(t *testing.T, want *l1Tx, got dataapi.L1Tx) {
	t.Helper()
	what := want.label + " " + want.id.String()
	require.Equal(t, want.txType, got.TxType, what)
	require.Equal(t, want.blockTime, got.BlockTimestamp, "%s: blockTimestamp", what)
	require.Equal(t, strconv.FormatUint(want.height, 10), got.BlockNumber, "%s: blockNumber", what)
	n := decodeNodeL1Tx(t, want.json)
	switch want.txType {
	case "CreateSubnetTx":
		require.NotNil(t, got.SubnetOwnershipInfo, "%s: subnetOwnershipInfo", what)
		require.Equal(t, uint64(n.Owner.Locktime), got.SubnetOwnershipInfo.Locktime, what)
		require.Equal(t, uint32(n.Owner.Threshold), got.SubnetOwnershipInfo.Threshold, what)
		require.Equal(t, shortIDsOf(t, n.Owner.Addresses), shortIDsOf(t, got.SubnetOwnershipInfo.Addresses), "%s: owners", what)
		return
	case "CreateChainTx":
		require.NotNil(t, got.BlockchainInfo, "%s: blockchainInfo", what)
		require.Equal(t, n.ChainName, got.BlockchainInfo.ChainName, what)
		require.Equal(t, n.VMID.String(), got.BlockchainInfo.VMID, what)
		require.Equal(t, n.SubnetID.String(), got.SubnetID, "%s: subnetId", what)
		return
	case "BaseTx":
		return
	}
	if want.amountBalanceBurn != 0 {
		require.Equal(t, want.amountBalanceBurn, dataapi.Amounts(t, what, got.AmountL1ValidatorBalanceBurned)[s.avax],
			"%s: amountL1ValidatorBalanceBurned", what)
	}
	require.Len(t, got.L1ValidatorDetails, 1, "%s: l1ValidatorDetails", what)
	d := got.L1ValidatorDetails[0]
	v := s.first
	require.Equal(t, v.validationID.String(), d.ValidationID, "%s: validationId", what)
	sameHex(t, v.validationID[:], d.ValidationIDHex, what+": validationIdHex")
	require.Equal(t, v.node.NodeID.String(), d.NodeID, "%s: nodeId (getL1Validator)", what)
	require.Equal(t, v.node.SubnetID.String(), d.SubnetID, "%s: subnetId (getL1Validator)", what)
	switch want.txType {
	case "ConvertSubnetToL1Tx":
		require.Len(t, n.Validators, 1)
		numberIs(t, uint64(n.Validators[0].Weight), d.Weight, what+": weight")
		numberIs(t, uint64(n.Validators[0].Balance), d.RemainingBalance, what+": remainingBalance")
		require.NotNil(t, got.L1ValidatorManagerDetails, "%s: l1ValidatorManagerDetails", what)
		require.Equal(t, n.ChainID.String(), got.L1ValidatorManagerDetails.BlockchainID, what)
		sameHex(t, hexutil.MustDecode(n.Address), got.L1ValidatorManagerDetails.ContractAddress, what+": contractAddress")
		require.Equal(t, n.SubnetID.String(), got.SubnetID, "%s: subnetId", what)
	case "IncreaseL1ValidatorBalanceTx":
		require.Equal(t, want.validationID, n.Validation, "%s: node validationID", what)
		numberIs(t, uint64(n.Balance), d.BalanceChange, what+": balanceChange")
	case "SetL1ValidatorWeightTx":
		numberIs(t, want.weight, d.Weight, what+": weight")
		numberIs(t, uint64(s.first.node.Weight), d.Weight, what+": weight (getL1Validator)")
	case "DisableL1ValidatorTx":
		require.Equal(t, want.validationID, n.Validation, "%s: node validationID", what)
		// The refund of the remaining balance is emitted, as the node has it.
		var found bool
		for _, u := range got.EmittedUTXOs {
			if u.UTXOID == want.refund.ID.String() {
				found = true
				harness.RequireUintString(t, want.refund.Amount, u.Asset.Amount, what+": refund")
				require.Equal(t, want.refund.Addrs, shortIDsOf(t, u.Addresses), "%s: refund owner", what)
			}
		}
		require.True(t, found, "%s: refund UTXO %s not emitted: %+v", what, want.refund.ID, got.EmittedUTXOs)
		require.LessOrEqual(t, want.refund.Amount, v.balanceBeforeDisable, "%s: refund above the balance before", what)
	case "RegisterL1ValidatorTx":
		numberIs(t, want.weight, d.Weight, what+": weight")
		numberIs(t, uint64(n.Balance), d.RemainingBalance, what+": remainingBalance")
	}
}

// TestPrimaryL1TxsByValidationID: listLatestPrimaryNetworkTransactions with
// l1ValidationId lists exactly the txs about that L1 validator (newest
// first), each as the node has it; txTypes narrows the list.
func TestPrimaryL1TxsByValidationID(t *testing.T) {
	s, ctx := l1Fixture(t)
	byID := map[string]*l1Tx{}
	for _, tx := range s.txs {
		byID[tx.id.String()] = tx
	}
	for _, v := range []*l1Validator{s.first} {
		want := s.txsOf(v.validationID)
		got := listL1Txs(t, ctx, url.Values{"l1ValidationId": {v.validationID.String()}})
		require.ElementsMatch(t, l1TxHashes(want), l1Hashes(got), "txs of L1 validator %s", v.validationID)
		for _, g := range got {
			s.checkL1Tx(t, byID[g.TxHash], g)
		}
		paged := listL1Txs(t, ctx, url.Values{"l1ValidationId": {v.validationID.String()}, "pageSize": {"1"}})
		require.Equal(t, l1Hashes(got), l1Hashes(paged), "pageSize 1")
	}
	got := listL1Txs(t, ctx, url.Values{"l1ValidationId": {s.first.validationID.String()}, "txTypes": {"IncreaseL1ValidatorBalanceTx"}})
	var increases []string
	for _, tx := range s.txs {
		if tx.txType == "IncreaseL1ValidatorBalanceTx" {
			increases = append(increases, tx.id.String())
		}
	}
	require.Equal(t, increases, l1Hashes(got), "txTypes=IncreaseL1ValidatorBalanceTx")
}

// TestPrimaryL1TxsOfAddress: L's P list is exactly the scenario's txs, each L1
// field as the node has it (subnetOwnershipInfo, blockchainInfo too).
func TestPrimaryL1TxsOfAddress(t *testing.T) {
	s, ctx := l1Fixture(t)
	got := listL1Txs(t, ctx, url.Values{"addresses": {s.pAddr(t)}})
	require.ElementsMatch(t, l1TxHashes(s.txs), l1Hashes(got), "txs of L")
	byID := map[string]*l1Tx{}
	for _, tx := range s.txs {
		byID[tx.id.String()] = tx
	}
	for _, g := range got {
		s.checkL1Tx(t, byID[g.TxHash], g)
	}
}
