package primary

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/dataapi"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// listL1Validators (GET /v1/networks/{network}/l1Validators) against
// platform.getL1Validator and platform.getCurrentValidators of the L1's
// subnet: on the shared network the L1 scenario's converted, topped-up and
// disabled validator; on the 2-node network (checkL1ValidatorsSigned, run by
// TestPrimaryL1WarpTxsSigned) a converted and re-weighted one, a registered
// one then disabled, and a registered, run dry, topped-up one then removed.

// l1ValidatorE2E is an L1ValidatorDetailsFull.
type l1ValidatorE2E struct {
	ValidationID      string `json:"validationId"`
	ValidationIDHex   string `json:"validationIdHex"`
	NodeID            string `json:"nodeId"`
	SubnetID          string `json:"subnetId"`
	Weight            uint64 `json:"weight"`
	RemainingBalance  uint64 `json:"remainingBalance"`
	CreationTimestamp int64  `json:"creationTimestamp"`
	BLSCredentials    struct {
		PublicKey string `json:"publicKey"`
	} `json:"blsCredentials"`
	RemainingBalanceOwner balanceOwnerE2E `json:"remainingBalanceOwner"`
	DeactivationOwner     balanceOwnerE2E `json:"deactivationOwner"`
}

type balanceOwnerE2E struct {
	Addresses []string `json:"addresses"`
	Threshold uint32   `json:"threshold"`
}

// l1Listing is every page of a listL1Validators query, with the block
// height of its first page.
type l1Listing struct {
	height     string
	validators []l1ValidatorE2E
}

func listL1ValidatorsAt(t *testing.T, ctx context.Context, base, network string, q url.Values, pageSize int) l1Listing {
	t.Helper()
	list := base + "/v1/networks/" + network + "/l1Validators"
	q = cloneValues(q)
	q.Set("pageSize", strconv.Itoa(pageSize))
	var out l1Listing
	for range 100 {
		var page struct {
			Validators    []l1ValidatorE2E `json:"validators"`
			BlockHeight   string           `json:"blockHeight"`
			NextPageToken string           `json:"nextPageToken"`
		}
		harness.GetOK(t, ctx, list+"?"+q.Encode(), &page)
		if out.height == "" {
			out.height = page.BlockHeight
		}
		out.validators = append(out.validators, page.Validators...)
		if page.NextPageToken == "" {
			return out
		}
		q.Set("pageToken", page.NextPageToken)
	}
	t.Fatal("no end after 100 pages")
	return out
}

func (l l1Listing) ids() []string {
	out := make([]string, len(l.validators))
	for i, v := range l.validators {
		out[i] = v.ValidationID
	}
	return out
}

// nodeSubnetValidator is getCurrentValidators' entry of an L1 validator.
type nodeSubnetValidator struct {
	ValidationID *ids.ID        `json:"validationID"`
	NodeID       ids.NodeID     `json:"nodeID"`
	Weight       avajson.Uint64 `json:"weight"`
	Balance      avajson.Uint64 `json:"balance"`
}

func nodeSubnetValidators(t *testing.T, ctx context.Context, uri string, subnetID ids.ID) map[ids.ID]nodeSubnetValidator {
	t.Helper()
	var reply struct {
		Validators []nodeSubnetValidator `json:"validators"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getCurrentValidators",
		map[string]any{"subnetID": subnetID}, &reply))
	out := map[ids.ID]nodeSubnetValidator{}
	for _, v := range reply.Validators {
		if v.ValidationID != nil {
			out[*v.ValidationID] = v
		}
	}
	return out
}

// requireL1ValidatorIs checks a listed validation against getL1Validator
// and the tx that created it.
func requireL1ValidatorIs(t *testing.T, got l1ValidatorE2E, v *l1Validator, node nodeL1Validator, created int64) {
	t.Helper()
	what := "L1 validation " + v.validationID.String()
	require.Equal(t, v.validationID.String(), got.ValidationID, what)
	require.Equal(t, "0x"+hexOf(v.validationID[:]), got.ValidationIDHex, what)
	require.Equal(t, node.NodeID.String(), got.NodeID, what)
	require.Equal(t, node.SubnetID.String(), got.SubnetID, what)
	require.Equal(t, uint64(node.Weight), got.Weight, what+" weight")
	require.Equal(t, uint64(node.Balance), got.RemainingBalance, what+" remainingBalance")
	require.Equal(t, created, got.CreationTimestamp, what+" creationTimestamp")
	require.Equal(t, node.PublicKey, got.BLSCredentials.PublicKey, what+" BLS public key")
	for _, o := range []struct {
		name string
		want *nodeOwner
		got  balanceOwnerE2E
	}{{"remainingBalanceOwner", node.RemainingBalanceOwner, got.RemainingBalanceOwner},
		{"deactivationOwner", node.DeactivationOwner, got.DeactivationOwner}} {
		require.NotNil(t, o.want, what)
		require.Equal(t, uint32(o.want.Threshold), o.got.Threshold, what+" "+o.name)
		require.ElementsMatch(t, addressBytesOf(t, o.want.Addresses), addressBytesOf(t, o.got.Addresses), what+" "+o.name)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}

// txTime is the block time of one of the scenario's txs.
func (s *l1Scenario) txTime(t *testing.T, txType string, validationID ids.ID) int64 {
	t.Helper()
	for _, tx := range s.txs {
		if tx.txType == txType && (validationID == ids.Empty || tx.validationID == validationID) {
			return tx.blockTime
		}
	}
	t.Fatalf("no %s of %s in the scenario", txType, validationID)
	return 0
}

func TestPrimaryL1ValidatorsListed(t *testing.T) {
	s := l1ScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	uri := env.URI(t)
	head := truth.Height(t, ctx, uri, "P")
	harness.WaitIndexed(t, ctx, env.Base(t), map[string]uint64{"P": head})

	first := s.first
	node := truth.GetL1Validator(t, ctx, uri, first.validationID)
	require.Zero(t, uint64(node.Balance), "the scenario disabled it")
	subnet := url.Values{"subnetId": {s.subnetID.String()}}
	all := cloneValues(subnet)
	all.Set("includeInactiveL1Validators", "true")
	got := listL1ValidatorsAt(t, ctx, env.Base(t), primaryNetwork, all, 10)
	require.Equal(t, []string{first.validationID.String()}, got.ids())
	height, err := strconv.ParseUint(got.height, 10, 64)
	require.NoError(t, err)
	require.GreaterOrEqual(t, height, head, "blockHeight: the index's P height")
	requireL1ValidatorIs(t, got.validators[0], first, node, s.txTime(t, "ConvertSubnetToL1Tx", first.validationID))
	live := nodeSubnetValidators(t, ctx, uri, s.subnetID)
	require.Contains(t, live, first.validationID, "a disabled validator keeps its weight")
	require.Equal(t, uint64(live[first.validationID].Weight), got.validators[0].Weight)

	require.Empty(t, listL1ValidatorsAt(t, ctx, env.Base(t), primaryNetwork, subnet, 10).validators,
		"a disabled validator is inactive: listed only with includeInactiveL1Validators")
	for _, q := range []url.Values{
		{"l1ValidationId": {first.validationID.String()}, "includeInactiveL1Validators": {"true"}},
		{"l1ValidationId": {"0x" + hexOf(first.validationID[:])}, "includeInactiveL1Validators": {"true"}},
		{"nodeId": {first.NodeID.String()}, "includeInactiveL1Validators": {"true"}},
	} {
		require.Equal(t, []string{first.validationID.String()},
			listL1ValidatorsAt(t, ctx, env.Base(t), primaryNetwork, q, 1).ids(), "%v", q)
	}
	other := url.Values{"subnetId": {ids.GenerateTestID().String()}, "includeInactiveL1Validators": {"true"}}
	require.Empty(t, listL1ValidatorsAt(t, ctx, env.Base(t), primaryNetwork, other, 10).validators)

	for _, c := range []struct{ name, query, mentions string }{
		{"includeInactiveL1Validators", "includeInactiveL1Validators=maybe", "includeInactiveL1Validators"},
		{"l1ValidationId", "l1ValidationId=xyz", "l1ValidationId"},
		{"nodeId", "nodeId=NodeID-xyz", "nodeId"},
		{"subnetId", "subnetId=xyz", "subnetId"},
		{"pageSize", "pageSize=1000", "pageSize"},
		{"pageToken", "pageToken=abc", "pageToken"},
	} {
		r := harness.GetWithRetryAfter(t, ctx, networkURL(t, "l1Validators", nil)+"?"+c.query)
		harness.RequireErrorBody(t, r, http.StatusBadRequest, c.mentions)
	}
}

// checkL1ValidatorsSigned finishes TestPrimaryL1WarpTxsSigned's L1 on the
// 2-node network: L disables the second validator, a warp message removes
// the third (weight 0), and listL1Validators must then show the three as
// getL1Validator and getCurrentValidators of the subnet do, at the same
// P-chain height.
func checkL1ValidatorsSigned(t *testing.T, ctx context.Context, sn *harness.TwoNodes, r *l1Run,
	issueWarp func(string, func(uint64) (*txs.Tx, error)) *txs.Tx, second, third *l1Validator,
) {
	t.Helper()
	s := r.l1Scenario
	tx, err := r.w.IssueDisableL1ValidatorTx(second.validationID, r.opts()...)
	require.NoError(t, err, "DisableL1ValidatorTx of the second validator")
	r.record(&l1Tx{label: "disable second", txType: "DisableL1ValidatorTx", id: tx.ID(), validationID: second.validationID})
	tx = issueWarp("SetL1ValidatorWeightTx (remove third)", func(attempt uint64) (*txs.Tx, error) {
		msg, err := message.NewL1ValidatorWeight(third.validationID, attempt, 0)
		require.NoError(t, err)
		return r.w.IssueSetL1ValidatorWeightTx(signL1Warp(t, r.w.Builder().Context().NetworkID, s, msg.Bytes()), r.opts()...)
	})
	r.record(&l1Tx{label: "remove third", txType: "SetL1ValidatorWeightTx", id: tx.ID(), validationID: third.validationID})

	all := url.Values{"subnetId": {s.subnetID.String()}, "includeInactiveL1Validators": {"true"}}
	for attempt := 1; ; attempt++ {
		h := truth.Height(t, ctx, sn.URI, "P")
		waitCtx, cancel := context.WithTimeout(ctx, primaryIndexTimeout)
		harness.WaitIndexed(t, waitCtx, sn.Base, map[string]uint64{"P": h})
		cancel()
		nodes := map[ids.ID]nodeL1Validator{}
		for _, v := range []*l1Validator{s.first, second} {
			nodes[v.validationID] = truth.GetL1Validator(t, ctx, sn.URI, v.validationID)
		}
		var removed struct{}
		err := truth.Call(ctx, sn.URI+"/ext/bc/P", "platform.getL1Validator",
			map[string]any{"validationID": third.validationID}, &removed)
		require.ErrorContains(t, err, "not found", "getL1Validator of the removed validator")
		live := nodeSubnetValidators(t, ctx, sn.URI, s.subnetID)
		got := listL1ValidatorsAt(t, ctx, sn.Base, sn.Network, all, 10)
		if got.height != strconv.FormatUint(h, 10) || truth.Height(t, ctx, sn.URI, "P") != h {
			require.Less(t, attempt, 5, "the P-chain keeps moving")
			continue
		}
		require.ElementsMatch(t, []string{s.first.validationID.String(), second.validationID.String(),
			third.validationID.String()}, got.ids())
		require.Equal(t, got.ids(), listL1ValidatorsAt(t, ctx, sn.Base, sn.Network, all, 1).ids(), "paging one by one")
		for _, g := range got.validators {
			switch g.ValidationID {
			case third.validationID.String():
				require.Zero(t, g.Weight, "the removed validator's weight")
				require.Zero(t, g.RemainingBalance, "the removed validator's balance")
				require.NotContains(t, live, third.validationID)
			case s.first.validationID.String():
				require.Equal(t, uint64(250), g.Weight, "the re-weighted validator")
				requireL1ValidatorIs(t, g, s.first, nodes[s.first.validationID], s.txTime(t, "ConvertSubnetToL1Tx", s.first.validationID))
			default:
				require.Zero(t, g.RemainingBalance, "the disabled validator")
				requireL1ValidatorIs(t, g, second, nodes[second.validationID], s.txTime(t, "RegisterL1ValidatorTx", second.validationID))
			}
			if id, err := ids.FromString(g.ValidationID); err == nil && g.Weight > 0 {
				require.Equal(t, uint64(live[id].Weight), g.Weight, "getCurrentValidators(subnet) weight of %s", id)
				require.Equal(t, uint64(live[id].Balance), g.RemainingBalance, "getCurrentValidators(subnet) balance of %s", id)
			}
		}
		active := listL1ValidatorsAt(t, ctx, sn.Base, sn.Network, url.Values{"subnetId": {s.subnetID.String()}}, 10)
		require.Equal(t, []string{s.first.validationID.String()}, active.ids(), "by default the active ones only")
		t.Logf("listL1Validators at P height %d: %d validations, as getL1Validator and getCurrentValidators say", h, len(got.validators))
		requireRefundsIndexed(t, ctx, sn, s)
		return
	}
}

// addressBytesOf decodes addresses of any network ("P-custom1...",
// "local1..."): the 2-node network is a custom one.
func addressBytesOf(t *testing.T, addrs []string) []ids.ShortID {
	t.Helper()
	out := make([]ids.ShortID, len(addrs))
	for i, a := range addrs {
		if j := strings.IndexByte(a, '-'); j >= 0 {
			a = a[j+1:]
		}
		_, b, err := address.ParseBech32(a)
		require.NoError(t, err, "address %q", a)
		out[i], err = ids.ToShortID(b)
		require.NoError(t, err)
	}
	return out
}

// requireRefundsIndexed checks L's unlocked AVAX on avadata is the node's
// (platform.getBalance): the refunds of the disabled and the removed
// validator are among its UTXOs (the removed one's owner read from the
// index, the node having dropped the validation).
func requireRefundsIndexed(t *testing.T, ctx context.Context, sn *harness.TwoNodes, s *l1Scenario) {
	t.Helper()
	var bal dataapi.Balances
	harness.GetOK(t, ctx, sn.Base+"/v1/networks/"+sn.Network+"/blockchains/p-chain/balances?addresses="+url.QueryEscape(s.pAddr(t)), &bal)
	var got uint64
	for _, a := range bal.Balances["unlockedUnstaked"] {
		if a.AssetID == s.avax.String() {
			var err error
			got, err = strconv.ParseUint(a.Amount, 10, 64)
			require.NoError(t, err)
		}
	}
	node := truth.BalanceOnP(t, ctx, sn.URI, s.pAddr(t))
	require.Equal(t, node.Unlocked[s.avax], got, "L's unlocked AVAX, refunds included")
}
