package primary

import (
	"errors"
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
	"github.com/avadata/avadata/indexer/pdata"
)

const l1ValidatorsPath = "/v1/networks/local/l1Validators"

var l1ValidatorRequired = []string{"validationId", "validationIdHex", "nodeId", "subnetId", "weight", "remainingBalance",
	"creationTimestamp", "blsCredentials", "remainingBalanceOwner", "deactivationOwner"}

// L1 validations of the tests: on subnet l1Subnet, active holds a balance,
// disabled none, removed has weight 0; elsewhere, one of another subnet.
var (
	l1Subnet       = ids.ID{'l', '1'}
	l1Active       = ids.ID{'v', 1}
	l1Disabled     = ids.ID{'v', 2}
	l1Removed      = ids.ID{'v', 3}
	l1Elsewhere    = ids.ID{'v', 4}
	l1ActiveNode   = ids.BuildTestNodeID([]byte{0x11})
	l1ElsewhereNet = ids.ID{'o', 't'}
)

func withL1Validations(fakes *handlertest.Fakes, feesKnown bool) *handlertest.Fakes {
	v := func(id ids.ID, node ids.NodeID, subnet ids.ID, weight, balance uint64) pdata.IndexedL1Validation {
		return pdata.IndexedL1Validation{ValidationID: id, NodeID: node, Subnet: subnet, CreatingTx: ids.ID{'c', id[1]},
			Weight: weight, WeightKnown: true, Active: balance > 0, Balance: balance, CreationTime: 1_600_000_000 + int64(id[1]),
			Creation: &pdata.L1Validator{ValidationID: id, NodeID: node, Subnet: subnet, Weight: 100, Balance: 1_000,
				BLSPublicKey: []byte{0xaa}, BLSProofOfPossession: []byte{0xbb},
				RemainingBalanceOwner: handlertest.Owners(handlertest.PAlice), DeactivationOwner: handlertest.Owners(handlertest.PBob)}}
	}
	fakes.Staking.L1ValidationState = pdata.L1Validations{Height: 77, FeesKnown: feesKnown, Validations: []pdata.IndexedL1Validation{
		v(l1Active, l1ActiveNode, l1Subnet, 10, 500),
		v(l1Disabled, handlertest.NodeB, l1Subnet, 20, 0),
		v(l1Removed, handlertest.NodeC, l1Subnet, 0, 0),
		v(l1Elsewhere, l1ActiveNode, l1ElsewhereNet, 5, 9),
	}}
	return fakes
}

// l1Validations reads every page of a listL1Validators query.
func l1Validations(t *testing.T, srv *handlertest.API, query string) ([]map[string]any, []string) {
	t.Helper()
	var items []map[string]any
	var order []string
	path := l1ValidatorsPath + "?" + query
	for range 50 {
		body := srv.GetBody(t, path)
		require.Equal(t, "77", body["blockHeight"])
		for _, v := range handlertest.Objects(t, body["validators"]) {
			requireKeys(t, v, l1ValidatorRequired...)
			require.NotContains(t, order, v["validationId"], "listed twice")
			items = append(items, v)
			order = append(order, v["validationId"].(string))
		}
		if token, _ := body["nextPageToken"].(string); token == "" {
			return items, order
		}
		path = handlertest.WithToken(l1ValidatorsPath+"?"+query, body)
	}
	t.Fatal("no end")
	return nil, nil
}

func TestListL1Validators(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withL1Validations(handlertest.WithFixtures(t, handlertest.NewFakes()), true))
	items, order := l1Validations(t, srv, "")
	require.Equal(t, validatorTxs(l1Active, l1Elsewhere), order, "active ones only, by validation ID")
	require.Equal(t, map[string]any{
		"validationId": l1Active.String(), "validationIdHex": hexID(l1Active), "nodeId": l1ActiveNode.String(),
		"subnetId": l1Subnet.String(), "weight": float64(10), "remainingBalance": float64(500),
		"creationTimestamp":     float64(1_600_000_001),
		"blsCredentials":        map[string]any{"publicKey": "0xaa", "proofOfPossession": "0xbb"},
		"remainingBalanceOwner": map[string]any{"addresses": []any{handlertest.Bech32Of(t, handlertest.PAlice)}, "threshold": float64(1)},
		"deactivationOwner":     map[string]any{"addresses": []any{handlertest.Bech32Of(t, handlertest.PBob)}, "threshold": float64(1)},
	}, items[0])

	_, all := l1Validations(t, srv, "includeInactiveL1Validators=true&pageSize=1")
	require.Equal(t, validatorTxs(l1Active, l1Disabled, l1Removed, l1Elsewhere), all)
	_, one := l1Validations(t, srv, "includeInactiveL1Validators=TRUE&l1ValidationId="+hexID(l1Removed))
	require.Equal(t, validatorTxs(l1Removed), one)
	_, none := l1Validations(t, srv, "l1ValidationId="+l1Removed.String())
	require.Empty(t, none, "inactive ones need includeInactiveL1Validators")
	_, byNode := l1Validations(t, srv, "nodeId="+l1ActiveNode.String())
	require.Equal(t, validatorTxs(l1Active, l1Elsewhere), byNode)
	_, bySubnet := l1Validations(t, srv, "subnetId="+l1Subnet.String()+"&includeInactiveL1Validators=true")
	require.Equal(t, validatorTxs(l1Active, l1Disabled, l1Removed), bySubnet)
}

func TestListL1ValidatorsLiveBalances(t *testing.T) {
	fakes := withL1Validations(handlertest.WithFixtures(t, handlertest.NewFakes()), false)
	u64 := func(n uint64) *uint64 { return &n }
	live := func(id ids.ID, weight, balance uint64) platformvm.ClientPermissionlessValidator {
		return platformvm.ClientPermissionlessValidator{ClientStaker: platformvm.ClientStaker{Weight: weight},
			ClientL1Validator: platformvm.ClientL1Validator{ValidationID: &id, Balance: u64(balance)}}
	}
	fakes.Platform.State.Subnets = map[ids.ID][]platformvm.ClientPermissionlessValidator{
		l1Subnet:       {live(l1Active, 11, 400), live(l1Disabled, 20, 0)},
		l1ElsewhereNet: {},
	}
	srv := newTestAPI(t, handlertest.Config(), fakes)
	items, order := l1Validations(t, srv, "includeInactiveL1Validators=true")
	require.Equal(t, validatorTxs(l1Active, l1Disabled, l1Removed, l1Elsewhere), order)
	got := map[string][2]any{}
	for _, v := range items {
		got[v["validationId"].(string)] = [2]any{v["weight"], v["remainingBalance"]}
	}
	require.Equal(t, map[string][2]any{
		l1Active.String():    {float64(11), float64(400)},
		l1Disabled.String():  {float64(20), float64(0)},
		l1Removed.String():   {float64(0), float64(0)},
		l1Elsewhere.String(): {float64(0), float64(0)}, // the node does not list it: removed
	}, got, "the node's weights and balances where the index lacks the fee state")

	fakes.Platform.Err = errors.New("node down")
	handlertest.RequireDataError(t, srv.Get(t, l1ValidatorsPath), http.StatusServiceUnavailable, "balances")
}

func TestListL1ValidatorsBadInput(t *testing.T) {
	srv := newTestAPI(t, handlertest.Config(), withL1Validations(handlertest.WithFixtures(t, handlertest.NewFakes()), true))
	handlertest.RunRouteCases(t, srv, []handlertest.RouteCase{
		handlertest.Invalid("include", l1ValidatorsPath+"?includeInactiveL1Validators=yes", "invalid includeInactiveL1Validators", "true or false"),
		handlertest.Invalid("validation ID", l1ValidatorsPath+"?l1ValidationId=abc", "invalid l1ValidationId"),
		handlertest.Invalid("node ID", l1ValidatorsPath+"?nodeId=NodeID-abc", "invalid nodeId"),
		handlertest.Invalid("subnet ID", l1ValidatorsPath+"?subnetId=abc", "invalid subnetId"),
		handlertest.Invalid("pageSize", l1ValidatorsPath+"?pageSize=1000", "invalid pageSize"),
		handlertest.Invalid("network", "/v1/networks/mainnet/l1Validators", "network"),
	})
}
