package primary

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// The explorer's staking pages in a real browser, on the staking and L1
// scenarios: what each page shows against the node's own answers
// (platform.getCurrentValidators, getRewardUTXOs, getSubnets,
// getBlockchains, getL1Validator), the validators filter form, paging with
// Next, and the links subnet → blockchain → EVM chain, validator →
// delegator, L1 → L1 validator.

func TestPrimaryExplorerStaking(t *testing.T) {
	s, ctx := stakingFixture(t)
	l1 := l1ScenarioFixture(t)
	uri := env.URI(t)
	waitCtx, cancel := context.WithTimeout(ctx, primaryIndexTimeout)
	harness.WaitIndexed(t, waitCtx, env.Base(t), map[string]uint64{"P": truth.Height(t, ctx, uri, "P")})
	cancel()
	start := time.Now()
	root := env.Base(t) + "/explorer"
	b := harness.NewBrowser(t, uri)

	checkExplorerValidators(t, ctx, b, root)
	checkExplorerValidator(t, b, root, s)
	checkExplorerSubnets(t, ctx, b, root, l1)
	t.Logf("explorer staking pages checked in %v", time.Since(start).Round(time.Millisecond))
}

// checkExplorerValidators pages through the active primary-network
// validators two at a time and holds them against getCurrentValidators,
// then narrows them with the filter form.
func checkExplorerValidators(t *testing.T, ctx context.Context, b *harness.Browser, root string) {
	t.Helper()
	primaryID := constants.PrimaryNetworkID.String()
	first := root + "/validators?" + url.Values{"validationStatus": {"active"}, "subnetId": {primaryID}, "pageSize": {"2"}}.Encode()

	// The totals, and the filter form: a part of one node ID narrows the
	// list as the node's validators say; the form keeps the other filters.
	node := nodeCurrentValidators(t, ctx, env.URI(t))
	require.NotEmpty(t, node)
	require.Equal(t, int64(http.StatusOK), b.Open(t, first))
	b.RequireClean(t)
	explorerShot(t, b, "validators")
	var total uint64
	for _, v := range node {
		total += uint64(v.Weight)
	}
	require.Equal(t, strconv.Itoa(len(node)), b.Text(t, "[data-field=validatorCount]"), "getNetworkDetails' validator count")
	require.Equal(t, harness.NanoAVAX(total)+" AVAX", b.Text(t, "[data-field=validatorStake]"), "the validators' own stake")
	id := node[0].NodeID.String()
	part := id[len(id)-5:]
	require.EqualValues(t, http.StatusOK, b.Submit(t, "form#validator-filters input[name=nodeIds]", part))
	b.RequireClean(t)
	loc, err := url.Parse(b.Location(t))
	require.NoError(t, err)
	require.Equal(t, part, loc.Query().Get("nodeIds"))
	require.Equal(t, "active", loc.Query().Get("validationStatus"))
	var narrowed []string
	for _, v := range node {
		if strings.Contains(v.NodeID.String(), part) {
			narrowed = append(narrowed, v.NodeID.String())
		}
	}
	require.ElementsMatch(t, narrowed, b.Attrs(t, "table#validators tbody tr[data-node]", "data-node"), "nodeIds=%s", part)
	require.Equal(t, []string{part}, b.Attrs(t, "input[name=nodeIds]", "value"), "the form echoes its filter")

	// Every active primary validator with its stake, two a page, read
	// until the node's set stands still across the pages.
	var shown map[string]string // node ID → stake shown
	var locations []string      // of the pages, in order
	for attempt := 0; ; attempt++ {
		node = nodeCurrentValidators(t, ctx, env.URI(t))
		require.Equal(t, int64(http.StatusOK), b.Open(t, first))
		b.RequireClean(t)
		shown, locations = map[string]string{}, nil
		for {
			locations = append(locations, b.Location(t))
			nodes := b.Attrs(t, "table#validators tbody tr[data-node]", "data-node")
			stakes := b.Texts(t, "table#validators tbody tr[data-node] td[data-field=amountStaked]")
			require.Len(t, stakes, len(nodes))
			require.LessOrEqual(t, len(nodes), 2, "pageSize=2")
			for i, n := range nodes {
				shown[n] = stakes[i]
			}
			if b.Count(t, "a[rel=next]") == 0 {
				break
			}
			require.EqualValues(t, http.StatusOK, b.Click(t, "a[rel=next]"))
			b.RequireClean(t)
		}
		if len(nodeCurrentValidators(t, ctx, env.URI(t))) == len(node) || attempt == 3 {
			break
		}
	}
	want := map[string]string{}
	for _, v := range node {
		want[v.NodeID.String()] = harness.NanoAVAX(uint64(v.Weight))
	}
	require.Equal(t, want, shown, "the active primary validators and their stake, as getCurrentValidators says")
	require.Greater(t, len(locations), 1, "two per page: the list pages")
	require.EqualValues(t, http.StatusOK, b.Back(t))
	require.Equal(t, locations[len(locations)-2], b.Location(t))
	b.RequireClean(t)

	// On a phone the page needs no sideways scrolling.
	restore := b.PhoneWidth(t)
	require.True(t, b.FitsWidth(t), "the validators page fits a phone's width")
	restore()

	// A value the API refuses is its 400, with its message.
	require.Equal(t, int64(http.StatusBadRequest), b.Open(t, root+"/validators?minFeePercentage=1"))
	require.Contains(t, b.Text(t, ".error .message"), "minFeePercentage")
	b.RequireClean(t)
}

// checkExplorerValidator checks the scenario validator's page: its
// completed validation and rewards as the reward UTXOs say, its delegators
// with their stake, and the link to a delegator's tx.
func checkExplorerValidator(t *testing.T, b *harness.Browser, root string, s *stakingScenario) {
	t.Helper()
	page := root + "/validators/" + s.nodeID.String()
	require.Equal(t, int64(http.StatusOK), b.Open(t, page))
	b.RequireClean(t)
	explorerShot(t, b, "validator")
	sel := fmt.Sprintf("section.validation[data-tx=%q]", s.validator.id.String())
	require.Equal(t, 1, b.Count(t, sel), "the scenario's validation")
	require.Equal(t, "completed", b.Attrs(t, sel, "data-status")[0])
	require.Equal(t, harness.NanoAVAX(s.validator.weight)+" AVAX", b.Text(t, sel+" [data-field=amountStaked]"))
	// The validator's reward UTXOs: the validation reward to S, the
	// delegation fees to F.
	var toS, toF uint64
	for _, u := range s.validator.rewardUTXOs {
		switch {
		case slices.Contains(u.Addrs, s.addrs["S"]):
			toS += u.Amount
		case slices.Contains(u.Addrs, s.addrs["F"]):
			toF += u.Amount
		}
	}
	require.Equal(t, harness.NanoAVAX(toS)+" AVAX", b.Text(t, sel+" [data-field=validationReward]"), "getRewardUTXOs: the validation reward")
	require.Equal(t, harness.NanoAVAX(toF)+" AVAX", b.Text(t, sel+" [data-field=delegationReward]"), "getRewardUTXOs: the delegation fees")
	require.Equal(t, []string{s.addr(t, "S")}, b.Attrs(t, sel+" [data-field=rewardAddresses] a", "data-address"))

	// Delegators, with the stake and net reward each was paid.
	require.EqualValues(t, http.StatusOK, b.Click(t, `nav.tabs a[href*="tab=delegators"]`))
	b.RequireClean(t)
	want := map[string]string{}
	for _, d := range []*stakerTx{s.d1, s.d2} {
		var paid uint64
		for _, u := range d.rewardUTXOs {
			paid += u.Amount
		}
		want[d.id.String()] = harness.NanoAVAX(d.weight) + " / " + harness.NanoAVAX(paid)
	}
	got := map[string]string{}
	txs := b.Attrs(t, "table#delegators tbody tr[data-tx]", "data-tx")
	stakes := b.Texts(t, "table#delegators tbody tr[data-tx] td[data-field=amountDelegated]")
	nets := b.Texts(t, "table#delegators tbody tr[data-tx] td[data-field=netReward]")
	require.Len(t, stakes, len(txs))
	require.Len(t, nets, len(txs))
	for i, tx := range txs {
		got[tx] = stakes[i] + " / " + nets[i]
	}
	require.Equal(t, want, got, "the delegators' stake and reward UTXOs")

	// Validator → delegator: the link leads to the delegation's P-chain tx.
	delegatorsPage := b.Location(t)
	first := txs[0]
	require.EqualValues(t, http.StatusOK, b.Click(t, fmt.Sprintf("tr[data-tx=%q] a.delegator", first)))
	require.True(t, strings.HasSuffix(b.Location(t), "/explorer/p-chain/tx/"+first), b.Location(t))
	b.RequireClean(t)
	require.EqualValues(t, http.StatusOK, b.Back(t))
	require.Equal(t, delegatorsPage, b.Location(t))
	b.RequireClean(t)

	// Rewards: every reward UTXO of the node's stakers, with its amount.
	// (Opened, not clicked: chromedp does not see the nodes of a page the
	// history restored.)
	require.Equal(t, int64(http.StatusOK), b.Open(t, page+"?tab=rewards"))
	b.RequireClean(t)
	wantRewards := map[string]string{}
	for _, st := range []*stakerTx{s.validator, s.d1, s.d2} {
		for _, u := range st.rewardUTXOs {
			wantRewards[u.ID.String()] = harness.NanoAVAX(u.Amount)
		}
	}
	gotRewards := map[string]string{}
	utxos := b.Attrs(t, "table#rewards tbody tr[data-utxo]", "data-utxo")
	amounts := b.Texts(t, "table#rewards tbody tr[data-utxo] td[data-field=amount]")
	require.Len(t, amounts, len(utxos))
	for i, u := range utxos {
		gotRewards[u] = amounts[i]
	}
	require.Equal(t, wantRewards, gotRewards, "the rewards tab holds getRewardUTXOs of the node's stakers")
}

// checkExplorerSubnets checks the subnets list against getSubnets, the
// L1's page and its L1 validator against getL1Validator, and a blockchain
// against getBlockchains, following the links between them.
func checkExplorerSubnets(t *testing.T, ctx context.Context, b *harness.Browser, root string, l1 *l1Scenario) {
	t.Helper()
	uri := env.URI(t)
	require.Equal(t, int64(http.StatusOK), b.Open(t, root+"/subnets"))
	b.RequireClean(t)
	explorerShot(t, b, "subnets")
	require.ElementsMatch(t, nodeSubnetIDs(t, ctx, uri), b.Attrs(t, "table#subnets tbody tr[data-subnet]", "data-subnet"),
		"the subnets of platform.getSubnets")
	l1Row := fmt.Sprintf("tr[data-subnet=%q]", l1.subnetID.String())
	require.Equal(t, "L1", b.Text(t, l1Row+" [data-field=kind]"))

	// Subnets → the L1.
	require.EqualValues(t, http.StatusOK, b.Click(t, l1Row+" a.subnet"))
	b.RequireClean(t)
	subnetPage := b.Location(t)
	require.True(t, strings.HasSuffix(subnetPage, "/explorer/subnets/"+l1.subnetID.String()), subnetPage)
	require.Equal(t, l1TxOf(t, l1, "ConvertSubnetToL1Tx").id.String(), b.Text(t, "#conversion-tx"))
	require.Equal(t, l1.chainID.String(), b.Text(t, "#manager-chain"))
	require.ElementsMatch(t, chainsOfSubnet(t, ctx, l1.subnetID), b.Attrs(t, "table#blockchains tbody tr[data-blockchain]", "data-blockchain"),
		"the L1's blockchains, as platform.getBlockchains says")
	// Its one validator was disabled: no active one.
	require.Equal(t, 0, b.Count(t, "table#l1-validators tbody tr[data-validation]"), "no active L1 validator")

	// The L1 → its manager chain (the local subnet-evm chain), with the
	// link to its EVM pages → that chain's subnet, and back.
	evm := env.Net(t).EVMChains()[1]
	require.Equal(t, evm.BlockchainID, l1.chainID)
	require.EqualValues(t, http.StatusOK, b.Click(t, "#manager-chain"))
	b.RequireClean(t)
	explorerShot(t, b, "blockchain")
	blockchainPage := b.Location(t)
	var nodeChain truth.Blockchain
	for _, c := range truth.Blockchains(t, ctx, uri) {
		if c.ID == evm.BlockchainID.String() {
			nodeChain = c
		}
	}
	require.Equal(t, nodeChain.Name, b.Text(t, "[data-field=name]"), "platform.getBlockchains' name")
	require.Equal(t, nodeChain.VMID, b.Text(t, "[data-field=vmId]"))
	require.Equal(t, nodeChain.SubnetID, b.Text(t, "#subnet-link"))
	require.Equal(t, nodeChain.ID, b.Text(t, "#creation-tx"))
	evmLink := b.Attrs(t, "#evm-chain", "href")
	require.Len(t, evmLink, 1, "a followed EVM chain links to its pages")
	require.True(t, strings.HasSuffix(evmLink[0], "/explorer/evm/"+strconv.FormatUint(evm.EVMChainID, 10)), evmLink[0])
	require.EqualValues(t, http.StatusOK, b.Click(t, "#subnet-link"))
	b.RequireClean(t)
	require.ElementsMatch(t, chainsOfSubnet(t, ctx, evm.SubnetID), b.Attrs(t, "table#blockchains tbody tr[data-blockchain]", "data-blockchain"),
		"the subnet's blockchains, as platform.getBlockchains says")
	require.Equal(t, []string{nodeChain.Name}, b.Texts(t, "table#blockchains tbody [data-field=name]"))
	require.EqualValues(t, http.StatusOK, b.Back(t))
	require.Equal(t, blockchainPage, b.Location(t))
	b.RequireClean(t)

	// The L1's validators, inactive ones included: the disabled one, with
	// getL1Validator's weight and balance.
	require.Equal(t, int64(http.StatusOK), b.Open(t, subnetPage))
	require.EqualValues(t, http.StatusOK, b.Click(t, "#toggle-inactive"))
	b.RequireClean(t)
	explorerShot(t, b, "subnet-l1")
	inactivePage := b.Location(t)
	v := truth.GetL1Validator(t, ctx, uri, l1.first.validationID)
	row := fmt.Sprintf("tr[data-validation=%q]", l1.first.validationID.String())
	require.Equal(t, 1, b.Count(t, row))
	require.Equal(t, v.NodeID.String(), b.Text(t, row+" [data-field=nodeId]"))
	require.Equal(t, strconv.FormatUint(uint64(v.Weight), 10), b.Text(t, row+" [data-field=weight]"), "getL1Validator's weight")
	require.Equal(t, harness.NanoAVAX(uint64(v.Balance)), b.Text(t, row+" [data-field=remainingBalance]"), "getL1Validator's balance")

	// The L1 → its validator.
	require.EqualValues(t, http.StatusOK, b.Click(t, row+" a.l1-validator"))
	b.RequireClean(t)
	explorerShot(t, b, "l1-validator")
	require.Equal(t, l1.first.validationID.String(), b.Text(t, "#validation-id"))
	require.Equal(t, v.NodeID.String(), b.Text(t, "[data-field=nodeId]"))
	require.Equal(t, strconv.FormatUint(uint64(v.Weight), 10), b.Text(t, "[data-field=weight]"))
	require.True(t, strings.HasPrefix(b.Text(t, "[data-field=remainingBalance]"), harness.NanoAVAX(uint64(v.Balance))+" AVAX"))
	require.NotNil(t, v.RemainingBalanceOwner)
	owners := make([]string, len(v.RemainingBalanceOwner.Addresses))
	for i, a := range v.RemainingBalanceOwner.Addresses {
		owners[i] = strings.TrimPrefix(a, "P-")
	}
	require.Equal(t, owners, b.Attrs(t, "[data-field=remainingBalanceOwner] a", "data-address"), "getL1Validator's remaining balance owner")
	status := "active"
	if v.Balance == 0 {
		status = "inactive"
	}
	require.Equal(t, []string{status}, b.Attrs(t, "[data-field=status] [data-status]", "data-status"))
	require.Equal(t, l1TxOf(t, l1, "ConvertSubnetToL1Tx").id.String(), b.Text(t, "#creation-tx"))
	var wantTxs []string
	for _, tx := range l1.txsOf(l1.first.validationID) {
		wantTxs = append(wantTxs, tx.id.String())
	}
	require.ElementsMatch(t, wantTxs, b.Attrs(t, "table#l1-txs tbody tr[data-tx]", "data-tx"), "the validation's P-chain txs")
	require.EqualValues(t, http.StatusOK, b.Back(t))
	require.Equal(t, inactivePage, b.Location(t))
	b.RequireClean(t)
}

// chainsOfSubnet is platform.getBlockchains' chains of subnet.
func chainsOfSubnet(t *testing.T, ctx context.Context, subnet ids.ID) []string {
	t.Helper()
	out := []string{}
	for _, c := range truth.Blockchains(t, ctx, env.URI(t)) {
		if c.SubnetID == subnet.String() {
			out = append(out, c.ID)
		}
	}
	return out
}

// explorerShot takes the page's screenshot and logs its size.
func explorerShot(t *testing.T, b *harness.Browser, name string) {
	t.Helper()
	b.Screenshot(t, name)
	t.Logf("explorer page %s: %d bytes of HTML", name, len(b.HTML(t)))
}
