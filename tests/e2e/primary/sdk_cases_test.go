package primary

// The SDK calls of TestPrimarySDKConformance (sdk_test.go): what each call
// sends, built from the fixtures' real txs, addresses, asset, stakers and
// L1, and what it must come to.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// sdkNetwork is the {network} the calls name: the SDK accepts only
// mainnet, fuji and testnet, and on a local node testnet is the node's own
// network.
const sdkNetwork = "testnet"

type (
	sdkCheck = harness.SDKCheck
	sdkReq   = harness.SDKReq
)

const (
	badRequest = "BadRequestError"
	notFound   = "NotFoundError"
)

// sdkFixtures is what the calls are made of.
type sdkFixtures struct {
	primary *primaryScenario
	staking *stakingScenario
	l1      *l1Scenario
	node    ids.NodeID // the node's own ID (info.getNodeID)
}

// at puts the network into a request; every primary-network call names it
// (else the SDK sends its client default, fuji).
func at(r sdkReq) sdkReq { r["network"] = sdkNetwork; return r }

// on puts the network and the chain into a request.
func on(chain string, r sdkReq) sdkReq { r["blockchainId"] = chainAlias(chain); return at(r) }

func call(name, fn string, req sdkReq) sdkCheck { return harness.SDKSucceeds(name, fn, req) }

func bad(name, fn string, req sdkReq, class string) sdkCheck {
	status := map[string]int{badRequest: http.StatusBadRequest, notFound: http.StatusNotFound}[class]
	return harness.SDKFails(name, fn, req, class, status)
}

// from fills the request's param from an earlier case's result at path.
func from(c sdkCheck, earlier, path, param string) sdkCheck {
	c.RequestFrom = &harness.SDKRequestFrom{Case: earlier, Path: path, Param: param}
	return c
}

// fieldIs checks the result's top-level key holds want.
func fieldIs(key, want string) func(t *testing.T, result json.RawMessage) {
	return func(t *testing.T, result json.RawMessage) {
		var m map[string]any
		require.NoError(t, json.Unmarshal(result, &m))
		require.Equal(t, want, fmt.Sprint(m[key]), "%s of %s", key, result)
	}
}

// listHas checks some item of the result's list holds want at key.
func listHas(list, key, want string) func(t *testing.T, result json.RawMessage) {
	return func(t *testing.T, result json.RawMessage) {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(result, &m))
		var items []map[string]any
		require.NoError(t, json.Unmarshal(m[list], &items), "%s of %s", list, result)
		for _, item := range items {
			if fmt.Sprint(item[key]) == want {
				return
			}
		}
		require.Failf(t, "missing", "no %s with %s %s in %s", list, key, want, result)
	}
}

// unknownID is an ID no chain of the local network has.
func unknownID() string { return ids.ID{0xab, 0xcd, 0x18}.String() }

// checks are every call of the test.
func (f *sdkFixtures) checks(t *testing.T) []sdkCheck {
	var out []sdkCheck
	out = append(out, f.servedChecks(t)...)
	out = append(out, f.txAndUTXOChecks(t)...)
	out = append(out, f.blockAndAssetChecks(t)...)
	out = append(out, f.networkChecks(t)...)
	out = append(out, f.exportChecks(t)...)
	return out
}

// servedChecks are the calls of the operations avadata served before
// issue 18.
func (f *sdkFixtures) servedChecks(t *testing.T) []sdkCheck {
	p, st := f.primary, f.staking
	fuji, err := address.FormatBech32(constants.FujiHRP, p.addr.Bytes())
	require.NoError(t, err)
	var out []sdkCheck
	for _, chain := range []string{"P", "X", "C"} {
		a := p.chainAddr(t, chain)
		out = append(out,
			call(chain+": latest transactions", "dataPrimaryNetworkTransactionsListLatest", on(chain, sdkReq{"pageSize": 5})).Some(),
			call(chain+": transactions of A", "dataPrimaryNetworkTransactionsListLatest",
				on(chain, sdkReq{"addresses": a, "pageSize": 2})).Some().AllPages(20),
			call(chain+": transactions of A, oldest first", "dataPrimaryNetworkTransactionsListLatest",
				on(chain, sdkReq{"addresses": a, "sortOrder": "asc", "startTimestamp": p.start.Unix()})).Some().AllPages(10),
			call(chain+": balances of A", "dataPrimaryNetworkBalancesListByAddresses", on(chain, sdkReq{"addresses": a})),
			call(chain+": balances of A before the scenario", "dataPrimaryNetworkBalancesListByAddresses",
				on(chain, sdkReq{"addresses": a, "blockTimestamp": p.snapshots[0].time})),
			call(chain+": blocks of this node", "dataPrimaryNetworkBlocksListByNodeId",
				on(chain, sdkReq{"nodeId": f.node.String(), "pageSize": 5})),
			bad(chain+": transactions of a fuji address", "dataPrimaryNetworkTransactionsListLatest",
				on(chain, sdkReq{"addresses": chain + "-" + fuji}), badRequest),
			bad(chain+": blocks of a malformed node ID", "dataPrimaryNetworkBlocksListByNodeId",
				on(chain, sdkReq{"nodeId": "NodeID-xyz"}), badRequest),
		)
	}
	pChainID := at(sdkReq{"blockchainId": constants.PlatformChainID.String()})
	out = append(out,
		call("P by chain ID: latest transactions", "dataPrimaryNetworkTransactionsListLatest", pChainID).Some(),
		call("P: BaseTx and ImportTx of A", "dataPrimaryNetworkTransactionsListLatest",
			on("P", sdkReq{"addresses": p.chainAddr(t, "P"), "txTypes": []string{"BaseTx", "ImportTx"}})).Some().AllPages(5),
		bad("C: balances of a fuji address", "dataPrimaryNetworkBalancesListByAddresses", on("C", sdkReq{"addresses": "C-" + fuji}), badRequest),
		bad("P: txTypes without addresses", "dataPrimaryNetworkTransactionsListLatest", on("P", sdkReq{"txTypes": []string{"BaseTx"}}), badRequest),

		call("X: latest vertices", "dataPrimaryNetworkVerticesListLatest", on("X", sdkReq{})),
		call("X: vertices at height 0", "dataPrimaryNetworkVerticesListByHeight", on("X", sdkReq{"vertexHeight": 0})),

		call("P: staking txs of S", "dataPrimaryNetworkTransactionsListActiveStakingTransactions",
			on("P", sdkReq{"addresses": st.pAddr(t, "S")})).AllPages(5),
		call("P: staking txs of D1, oldest first", "dataPrimaryNetworkTransactionsListActiveStakingTransactions",
			on("P", sdkReq{"addresses": st.pAddr(t, "D1"), "sortOrder": "asc"})).AllPages(5),
		call("historical rewards of S", "dataPrimaryNetworkRewardsListHistoricalRewards",
			at(sdkReq{"addresses": st.pAddr(t, "S")})).Some().AllPages(5),
		call("historical rewards of the staking node, in usd", "dataPrimaryNetworkRewardsListHistoricalRewards",
			at(sdkReq{"nodeIds": st.nodeID.String(), "currency": "usd", "pageSize": 1})).Some().AllPages(10),
		bad("historical rewards of nobody", "dataPrimaryNetworkRewardsListHistoricalRewards", at(sdkReq{}), badRequest),
		call("validations of the staking node", "dataPrimaryNetworkGetValidatorDetails",
			at(sdkReq{"nodeId": st.nodeID.String()})).Some().AllPages(5),
		call("completed validations of the staking node", "dataPrimaryNetworkGetValidatorDetails",
			at(sdkReq{"nodeId": st.nodeID.String(), "validationStatus": "completed"})).Some(),
		call("validations of a genesis validator", "dataPrimaryNetworkGetValidatorDetails",
			at(sdkReq{"nodeId": st.genesisNode.String(), "validationStatus": "active"})).Some(),
		bad("validations of a malformed node ID", "dataPrimaryNetworkGetValidatorDetails", at(sdkReq{"nodeId": "NodeID-xyz"}), badRequest),
		call("delegators of the staking node", "dataPrimaryNetworkListDelegators",
			at(sdkReq{"nodeIds": st.nodeID.String(), "pageSize": 1})).Some().AllPages(10),
		call("completed delegators of D1", "dataPrimaryNetworkListDelegators",
			at(sdkReq{"rewardAddresses": st.pAddr(t, "D1"), "delegationStatus": "completed", "sortOrder": "asc"})).Some(),
		call("delegators of a genesis validator", "dataPrimaryNetworkListDelegators", at(sdkReq{"nodeIds": st.genesisNode.String()})).Some(),
	)
	return out
}

// txAndUTXOChecks are the calls of getTxByHash, the UTXO listings and the
// last activity: every scenario tx by its hash on its chain, the staking
// and L1 txs, and A's UTXOs on every chain.
func (f *sdkFixtures) txAndUTXOChecks(t *testing.T) []sdkCheck {
	p, st, l1 := f.primary, f.staking, f.l1
	fuji, err := address.FormatBech32(constants.FujiHRP, p.addr.Bytes())
	require.NoError(t, err)
	var out []sdkCheck
	for _, tx := range p.txs {
		out = append(out, call(tx.chain+": tx "+tx.label, "dataPrimaryNetworkTransactionsGet",
			on(tx.chain, sdkReq{"txHash": tx.id.String()})).Checked(fieldIs("txHash", tx.id.String())))
	}
	for _, s := range st.stakers() {
		out = append(out,
			call("P: tx "+s.label, "dataPrimaryNetworkTransactionsGet", on("P", sdkReq{"txHash": s.id.String()})).
				Checked(fieldIs("txHash", s.id.String())),
			call("P: reward tx of "+s.label, "dataPrimaryNetworkTransactionsGet", on("P", sdkReq{"txHash": s.reward.ID.String()})).
				Checked(fieldIs("txHash", s.reward.ID.String())))
	}
	for _, tx := range l1.txs {
		if tx.id != ids.Empty { // the refused re-weight has none
			out = append(out, call("P: L1 tx "+tx.label, "dataPrimaryNetworkTransactionsGet",
				on("P", sdkReq{"txHash": tx.id.String()})).Checked(fieldIs("txHash", tx.id.String())))
		}
	}
	for _, chain := range []string{"P", "X", "C"} {
		a := p.chainAddr(t, chain)
		body := sdkReq{"addresses": a}
		out = append(out,
			bad(chain+": unknown tx", "dataPrimaryNetworkTransactionsGet", on(chain, sdkReq{"txHash": unknownID()}), notFound),
			bad(chain+": malformed tx hash", "dataPrimaryNetworkTransactionsGet", on(chain, sdkReq{"txHash": "0x1234"}), badRequest),
			call(chain+": UTXOs of A", "dataPrimaryNetworkUtxosListByAddresses", on(chain, sdkReq{"addresses": a, "pageSize": 1})).AllPages(20),
			call(chain+": UTXOs of A, spent too, largest first", "dataPrimaryNetworkUtxosListByAddresses",
				on(chain, sdkReq{"addresses": a, "includeSpent": true, "sortBy": "amount", "sortOrder": "desc"})).Some().AllPages(10),
			call(chain+": UTXOs of A, oldest first, at least 0.2 AVAX", "dataPrimaryNetworkUtxosListByAddresses",
				on(chain, sdkReq{"addresses": a, "sortBy": "timestamp", "sortOrder": "asc", "minUtxoAmount": 200_000_000, "assetId": p.avax.String()})).AllPages(10),
			call(chain+": UTXOs of A (POST)", "dataPrimaryNetworkUtxosListByAddressesV2",
				on(chain, sdkReq{"primaryNetworkAddressesBodyDto": body, "includeSpent": true, "pageSize": 2})).Some().AllPages(10),
			bad(chain+": UTXOs, pageSize 101", "dataPrimaryNetworkUtxosListByAddresses", on(chain, sdkReq{"addresses": a, "pageSize": 101}), badRequest),
			bad(chain+": UTXOs (POST), pageSize 1025", "dataPrimaryNetworkUtxosListByAddressesV2",
				on(chain, sdkReq{"primaryNetworkAddressesBodyDto": body, "pageSize": 1025}), badRequest),
			bad(chain+": UTXOs of a fuji address", "dataPrimaryNetworkUtxosListByAddresses", on(chain, sdkReq{"addresses": chain + "-" + fuji}), badRequest),
			call(chain+": last activity of A", "dataPrimaryNetworkUtxosGetLastActivityTimestampByAddresses", on(chain, sdkReq{"addresses": a})),
			call(chain+": last activity of A (POST)", "dataPrimaryNetworkUtxosGetLastActivityTimestampByAddressesV2",
				on(chain, sdkReq{"primaryNetworkAddressesBodyDto": body})),
			bad(chain+": last activity of a fuji address", "dataPrimaryNetworkUtxosGetLastActivityTimestampByAddresses",
				on(chain, sdkReq{"addresses": chain + "-" + fuji}), badRequest),
		)
	}
	out = append(out, call("X: UTXOs of A in the scenario's asset", "dataPrimaryNetworkUtxosListByAddresses",
		on("X", sdkReq{"addresses": p.chainAddr(t, "X"), "assetId": p.asset.String()})).Some())
	return out
}

// blockAndAssetChecks are the calls of the block listing and lookup, the
// vertex lookup and the asset operations.
func (f *sdkFixtures) blockAndAssetChecks(t *testing.T) []sdkCheck {
	p := f.primary
	var out []sdkCheck
	for _, chain := range []string{"P", "X"} {
		latest := chain + ": latest blocks"
		out = append(out,
			call(latest, "dataPrimaryNetworkBlocksListLatest", on(chain, sdkReq{"pageSize": 5})).Some(),
			call(chain+": blocks of the scenario", "dataPrimaryNetworkBlocksListLatest",
				on(chain, sdkReq{"startTimestamp": p.start.Unix(), "pageSize": 3})).Some().AllPages(30),
			from(call(chain+": the latest block by its hash", "dataPrimaryNetworkBlocksGet", on(chain, sdkReq{})), latest, "blocks.0.blockHash", "blockId"),
			bad(chain+": unknown block", "dataPrimaryNetworkBlocksGet", on(chain, sdkReq{"blockId": unknownID()}), notFound),
		)
		// The block a tx reply names holds the tx.
		for _, tx := range p.txsOn(chain, true)[:1] {
			txCase := chain + ": tx " + tx.label
			out = append(out, from(call(chain+": the block of "+tx.label, "dataPrimaryNetworkBlocksGet", on(chain, sdkReq{})),
				txCase, "blockHash", "blockId").Checked(func(t *testing.T, result json.RawMessage) {
				var b struct {
					Transactions []string `json:"transactions"`
				}
				require.NoError(t, json.Unmarshal(result, &b))
				require.Contains(t, b.Transactions, tx.id.String(), "the block of %s: %s", tx, result)
			}))
		}
	}
	out = append(out,
		bad("X: unknown vertex", "dataPrimaryNetworkVerticesGetByHash", on("X", sdkReq{"vertexHash": unknownID()}), notFound),
		call("X: the scenario's asset", "dataPrimaryNetworkGetAssetDetails", on("X", sdkReq{"assetId": p.asset.String()})).
			Checked(fieldIs("symbol", p.assetSymbol)),
		call("X: AVAX", "dataPrimaryNetworkGetAssetDetails", on("X", sdkReq{"assetId": p.avax.String()})).Checked(fieldIs("symbol", "AVAX")),
		bad("X: unknown asset", "dataPrimaryNetworkGetAssetDetails", on("X", sdkReq{"assetId": unknownID()}), notFound),
		call("X: transactions of the scenario's asset", "dataPrimaryNetworkTransactionsListAssetTransactions",
			on("X", sdkReq{"assetId": p.asset.String(), "pageSize": 1})).Some().AllPages(10),
		call("X: BaseTxs of the scenario's asset", "dataPrimaryNetworkTransactionsListAssetTransactions",
			on("X", sdkReq{"assetId": p.asset.String(), "txTypes": []string{"BaseTx"}, "startTimestamp": p.start.Unix()})).Some().AllPages(5),
		bad("X: transactions of an unknown asset", "dataPrimaryNetworkTransactionsListAssetTransactions",
			on("X", sdkReq{"assetId": unknownID()}), notFound),
	)
	return out
}

// networkChecks are the calls about the whole network: its details,
// blockchains, subnets, validators, L1 validators, pending rewards, an
// address's chains and the AVAX supply.
func (f *sdkFixtures) networkChecks(t *testing.T) []sdkCheck {
	p, st, l1 := f.primary, f.staking, f.l1
	fuji, err := address.FormatBech32(constants.FujiHRP, p.addr.Bytes())
	require.NoError(t, err)
	node := st.nodeID.String()
	l1Validation := l1.first.validationID.String()
	out := []sdkCheck{
		call("network details", "dataPrimaryNetworkGetNetworkDetails", at(sdkReq{})),
		call("AVAX supply", "avaxSupplyGet", sdkReq{}),

		call("blockchains", "dataPrimaryNetworkListBlockchains", at(sdkReq{"pageSize": 1})).Some().AllPages(30),
		call("blockchains, oldest first", "dataPrimaryNetworkListBlockchains", at(sdkReq{"sortOrder": "asc"})).Some().AllPages(5),
		call("the L1's blockchain", "dataPrimaryNetworkGetBlockchainById", at(sdkReq{"blockchainId": l1.chainID.String()})).
			Checked(fieldIs("blockchainId", l1.chainID.String())),
		call("the X-chain", "dataPrimaryNetworkGetBlockchainById", at(sdkReq{"blockchainId": p.xChain.String()})),
		call("the C-chain", "dataPrimaryNetworkGetBlockchainById", at(sdkReq{"blockchainId": p.cChain.String()})),
		bad("unknown blockchain", "dataPrimaryNetworkGetBlockchainById", at(sdkReq{"blockchainId": unknownID()}), notFound),
		call("subnets", "dataPrimaryNetworkListSubnets", at(sdkReq{"pageSize": 1})).Some().AllPages(30),
		call("subnets, oldest first", "dataPrimaryNetworkListSubnets", at(sdkReq{"sortOrder": "asc"})).Some().AllPages(5),
		call("the L1's subnet", "dataPrimaryNetworkGetSubnetById", at(sdkReq{"subnetId": l1.subnetID.String()})).
			Checked(fieldIs("subnetId", l1.subnetID.String())),
		call("the primary network", "dataPrimaryNetworkGetSubnetById", at(sdkReq{"subnetId": constants.PrimaryNetworkID.String()})),
		bad("unknown subnet", "dataPrimaryNetworkGetSubnetById", at(sdkReq{"subnetId": unknownID()}), notFound),
		bad("malformed subnet ID", "dataPrimaryNetworkGetSubnetById", at(sdkReq{"subnetId": "not-a-subnet"}), badRequest),

		call("validators", "dataPrimaryNetworkListValidators", at(sdkReq{"pageSize": 2})).Some().AllPages(30),
		call("active validators", "dataPrimaryNetworkListValidators", at(sdkReq{"validationStatus": "active"})).Some(),
		call("completed validators", "dataPrimaryNetworkListValidators", at(sdkReq{"validationStatus": "completed"})).Some(),
		call("completed validators by a node ID's prefix", "dataPrimaryNetworkListValidators",
			at(sdkReq{"nodeIds": node[:14], "validationStatus": "completed"})).
			Some().Checked(listHas("validators", "nodeId", node)),
		call("validators of the L1's subnet", "dataPrimaryNetworkListValidators", at(sdkReq{"subnetId": l1.subnetID.String()})),
		call("active validators with room, fee, time and uptime filters", "dataPrimaryNetworkListValidators",
			at(sdkReq{"validationStatus": "active", "minDelegationCapacity": "0", "maxDelegationCapacity": "720000000000000000",
				"minTimeRemaining": 0, "maxTimeRemaining": 2147483647, "minFeePercentage": 2, "maxFeePercentage": 100,
				"minUptimePerformance": 0, "maxUptimePerformance": 100})),
		bad("validators, minFeePercentage 1", "dataPrimaryNetworkListValidators", at(sdkReq{"minFeePercentage": 1}), badRequest),
		bad("validators, maxUptimePerformance 101", "dataPrimaryNetworkListValidators", at(sdkReq{"maxUptimePerformance": 101}), badRequest),
		bad("validators, pageSize 101", "dataPrimaryNetworkListValidators", at(sdkReq{"pageSize": 101}), badRequest),

		call("L1 validators", "dataPrimaryNetworkListL1Validators", at(sdkReq{})),
		call("L1 validators, inactive too", "dataPrimaryNetworkListL1Validators", at(sdkReq{"includeInactiveL1Validators": true, "pageSize": 1})).
			Some().AllPages(20),
		call("the L1 validator by its validation ID", "dataPrimaryNetworkListL1Validators",
			at(sdkReq{"l1ValidationId": l1Validation, "includeInactiveL1Validators": true})).Some().
			Checked(listHas("validators", "validationId", l1Validation)),
		call("L1 validators of the L1's subnet", "dataPrimaryNetworkListL1Validators",
			at(sdkReq{"subnetId": l1.subnetID.String(), "includeInactiveL1Validators": true})).Some(),
		call("L1 validators of the first validator's node", "dataPrimaryNetworkListL1Validators",
			at(sdkReq{"nodeId": l1.first.NodeID.String(), "includeInactiveL1Validators": true})).Some(),
		bad("L1 validators of a malformed validation ID", "dataPrimaryNetworkListL1Validators", at(sdkReq{"l1ValidationId": "xyz"}), badRequest),

		call("pending rewards of a genesis validator", "dataPrimaryNetworkRewardsListPendingRewards",
			at(sdkReq{"nodeIds": st.genesisNode.String()})).AllPages(10),
		call("pending rewards of S", "dataPrimaryNetworkRewardsListPendingRewards", at(sdkReq{"addresses": st.pAddr(t, "S")})).AllPages(5),
		bad("pending rewards of nobody", "dataPrimaryNetworkRewardsListPendingRewards", at(sdkReq{}), badRequest),

		call("chains of A", "dataPrimaryNetworkGetChainIdsForAddresses", at(sdkReq{"addresses": p.bech32(t)})).Some(),
		call("chains of S and A", "dataPrimaryNetworkGetChainIdsForAddresses",
			at(sdkReq{"addresses": st.addr(t, "S") + "," + p.bech32(t)})).Some(),
		bad("chains of a fuji address", "dataPrimaryNetworkGetChainIdsForAddresses", at(sdkReq{"addresses": fuji}), badRequest),
	}
	return out
}

// exportChecks are the calls of the primary-network kinds of
// postTransactionExportJob (with the API key the shared network
// configures) and of getOperationResult, polled until the export is done.
func (f *sdkFixtures) exportChecks(t *testing.T) []sdkCheck {
	p, st := f.primary, f.staking
	today := time.Now().UTC().Format(time.DateOnly)
	export := func(kind string, addresses []string, evm []string) sdkReq {
		options := sdkReq{"addresses": addresses, "includeChains": []string{"p-chain", "x-chain", "c-chain"}}
		if len(evm) > 0 {
			options["cChainEvmAddresses"] = evm
		}
		return sdkReq{"type": kind, "firstDate": p.start.UTC().Format(time.DateOnly), "lastDate": today, "options": options}
	}
	result := func(name, of string) sdkCheck {
		c := from(call(name, "dataOperationsGetResult", sdkReq{}), of, "operationId", "operationId")
		c.PollUntil = &harness.SDKPollUntil{Path: "operationStatus", NotIn: []string{"RUNNING"}, TimeoutMs: 90_000, IntervalMs: 500}
		return c.Keyed().Checked(func(t *testing.T, result json.RawMessage) {
			var op struct {
				OperationStatus string `json:"operationStatus"`
				Metadata        struct {
					DownloadURL string `json:"downloadUrl"`
				} `json:"metadata"`
			}
			require.NoError(t, json.Unmarshal(result, &op))
			require.Contains(t, []string{"COMPLETED", "COMPLETED_WITH_WARNING"}, op.OperationStatus, "the export finished: %s", result)
			require.NotEmpty(t, op.Metadata.DownloadURL, "a finished export has a download URL: %s", result)
		})
	}
	ofA := export("TRANSACTION_EXPORT_PRIMARY_NETWORK", []string{p.chainAddr(t, "P"), p.chainAddr(t, "X")}, []string{p.evm.Hex()})
	return []sdkCheck{
		call("export of A's txs", "dataOperationsExportTransactions", ofA).Keyed(),
		result("result of the export of A's txs", "export of A's txs"),
		call("staking export of S", "dataOperationsExportTransactions",
			export("TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING", []string{st.pAddr(t, "S")}, nil)).Keyed(),
		result("result of the staking export of S", "staking export of S"),
		call("simple export of A's txs", "dataOperationsExportTransactions",
			export("TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE", []string{p.chainAddr(t, "P")}, nil)).Keyed(),
		result("result of the simple export of A's txs", "simple export of A's txs"),
		harness.SDKFails("export without an API key", "dataOperationsExportTransactions", ofA, "UnauthorizedError", http.StatusUnauthorized),
	}
}
