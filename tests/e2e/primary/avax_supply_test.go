//go:build e2e

package primary

import (
	"context"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/genesis"
	"github.com/ava-labs/avalanchego/graft/coreth/plugin/evm/atomic"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/ava-labs/avalanchego/utils/formatting"
	"github.com/ava-labs/avalanchego/utils/formatting/address"
	avajson "github.com/ava-labs/avalanchego/utils/json"
	"github.com/ava-labs/avalanchego/vms/components/avax"
	"github.com/ava-labs/avalanchego/vms/platformvm"
	pblock "github.com/ava-labs/avalanchego/vms/platformvm/block"
	"github.com/ava-labs/avalanchego/vms/platformvm/stakeable"
	"github.com/ava-labs/avalanchego/vms/platformvm/txs"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/message"
	"github.com/ava-labs/avalanchego/vms/platformvm/warp/payload"
	"github.com/ava-labs/avalanchego/vms/secp256k1fx"
	"github.com/ava-labs/libevm/common/hexutil"
	"github.com/ava-labs/libevm/rpc"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/tests/e2e/harness"
	"github.com/avadata/avadata/tests/e2e/truth"
)

// getAvaxSupply against the node: the supply and rewards against
// platform.getCurrentSupply and the genesis, the stake against
// platform.getCurrentValidators, and each chain's burns recomputed from
// the txs the node returns block by block (P: platform.getBlockByHeight,
// parsed with platformvm's codec; X: avm.getTx; C: the receipts' gasUsed x
// effectiveGasPrice and the atomic txs of the blocks' extra data), the L1
// validator fees from the balances the txs gave, the refunds and
// platform.getL1Validator's balances now.

// avaxSupplyReply is getAvaxSupply's body.
type avaxSupplyReply struct {
	CirculatingSupply string  `json:"circulatingSupply"`
	TotalSupply       string  `json:"totalSupply"`
	TotalPBurned      string  `json:"totalPBurned"`
	TotalCBurned      string  `json:"totalCBurned"`
	TotalXBurned      string  `json:"totalXBurned"`
	TotalStaked       string  `json:"totalStaked"`
	TotalLocked       *string `json:"totalLocked"`
	TotalRewards      string  `json:"totalRewards"`
	LastUpdated       string  `json:"lastUpdated"`
	GenesisUnlock     string  `json:"genesisUnlock"`
	L1ValidatorFees   string  `json:"l1ValidatorFees"`
}

// TestPrimaryAvaxSupply: with the primary scenario (P, X and C txs,
// exports and imports) and the L1 scenario (L1 validator balances, fees,
// a refund) done, every figure getAvaxSupply gives equals the node's.
func TestPrimaryAvaxSupply(t *testing.T) {
	s := primaryScenarioFixture(t)
	l1 := l1ScenarioFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	uri := env.URI(t)

	// One consistent moment: the node's tips before and after the reply
	// are the same and the reply read the index at them.
	var reply avaxSupplyReply
	var heights map[string]uint64
	var currentSupply uint64
	for attempt := 0; ; attempt++ {
		require.Less(t, attempt, 20, "no quiet moment to compare the supply at")
		heights = nodeTips(t, ctx, uri)
		harness.WaitIndexed(t, ctx, env.Base(t), heights)
		r := requireStatus(t, ctx, env.Base(t)+"/v1/avax/supply", 200)
		supply, pHeight, err := platformvm.NewClient(uri).GetCurrentSupply(ctx, constants.PrimaryNetworkID)
		require.NoError(t, err, "platform.getCurrentSupply")
		if after := nodeTips(t, ctx, uri); !equalHeights(after, heights) || pHeight != heights["P"] ||
			!equalHeights(indexedHeights(t, r.Header.Get(api.HeaderIndexedHeight)), heights) {
			time.Sleep(500 * time.Millisecond)
			continue
		}
		r.Decode(t, &reply)
		currentSupply = supply
		break
	}
	t.Logf("at P=%d X=%d C=%d: %+v", heights["P"], heights["X"], heights["C"], reply)

	owners := ownerSet{}
	pFees, l1Fees := nodePBurns(t, ctx, uri, heights["P"], l1, owners)
	xFees := nodeXBurns(t, ctx, uri, heights["X"], owners)
	cAtomic, cEVM := nodeCBurns(t, ctx, uri, heights["C"], owners)
	require.NotZero(t, pFees, "the scenarios' P-chain txs burned fees")
	require.NotZero(t, xFees, "the scenario's X-chain txs burned fees")
	require.NotZero(t, cAtomic, "the scenario's C-chain atomic txs burned fees")

	nano := func(v uint64) *big.Int { return new(big.Int).Mul(new(big.Int).SetUint64(v), big.NewInt(1e9)) }
	pBurned := new(big.Int).Add(nano(pFees), nano(l1Fees))
	cBurned := new(big.Int).Add(nano(cAtomic), cEVM)
	requireAVAX(t, pBurned, reply.TotalPBurned, "totalPBurned (tx fees and L1 validator fees)")
	requireAVAX(t, nano(l1Fees), reply.L1ValidatorFees, "l1ValidatorFees")
	requireAVAX(t, nano(xFees), reply.TotalXBurned, "totalXBurned")
	requireAVAX(t, cBurned, reply.TotalCBurned, "totalCBurned (atomic and EVM)")

	var networkID avajson.Uint32
	var idReply struct {
		NetworkID avajson.Uint32 `json:"networkID"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/info", "info.getNetworkID", struct{}{}, &idReply))
	networkID = idReply.NetworkID
	initial, err := genesis.GetConfig(uint32(networkID)).InitialSupply()
	require.NoError(t, err, "the genesis's initial supply")
	requireAVAX(t, nano(initial), reply.GenesisUnlock, "genesisUnlock")
	requireAVAX(t, nano(currentSupply-initial), reply.TotalRewards, "totalRewards (platform.getCurrentSupply less the genesis)")
	total := new(big.Int).Sub(nano(currentSupply), new(big.Int).Add(pBurned, new(big.Int).Add(nano(xFees), cBurned)))
	requireAVAX(t, total, reply.TotalSupply, "totalSupply (platform.getCurrentSupply less the burns)")
	require.Equal(t, reply.TotalSupply, reply.CirculatingSupply, "circulatingSupply")
	for _, a := range genesis.GetConfig(uint32(networkID)).Allocations {
		owners[a.AVAXAddr] = true
	}
	locked := nodeLocked(t, ctx, uri, s.hrp, owners, s.avax)
	require.GreaterOrEqual(t, locked, s.lockedPlatform+s.lockedStk, "the scenario's locked P outputs are locked")
	require.NotNil(t, reply.TotalLocked, "totalLocked")
	requireAVAX(t, nano(locked), *reply.TotalLocked, "totalLocked (the node's time-locked UTXOs of every owner)")

	// lastUpdated: the newest of the three chains' last block times.
	last := max(truth.SnowmanBlockTxs(t, ctx, uri, "P", heights["P"]).Time,
		truth.SnowmanBlockTxs(t, ctx, uri, "X", heights["X"]).Time)
	headers, err := truth.EVMHeaders(ctx, truth.EthClient(t, ctx, uri), heights["C"])
	require.NoError(t, err)
	last = max(last, int64(headers[len(headers)-1].Timestamp))
	require.Equal(t, time.Unix(last, 0).UTC().Format("2006-01-02T15:04:05.000Z"), reply.LastUpdated, "lastUpdated")

	// totalStaked: the stake of the current validators and their
	// delegators (avadata reuses a read for up to a minute).
	deadline := time.Now().Add(75 * time.Second)
	for {
		vals, err := platformvm.NewClient(uri).GetCurrentValidators(ctx, constants.PrimaryNetworkID, nil)
		require.NoError(t, err, "platform.getCurrentValidators")
		var staked uint64
		for _, v := range vals {
			staked += v.Weight
			if v.DelegatorWeight != nil {
				staked += *v.DelegatorWeight
			}
		}
		var got avaxSupplyReply
		requireStatus(t, ctx, env.Base(t)+"/v1/avax/supply", 200).Decode(t, &got)
		if avaxEqual(nano(staked), got.TotalStaked) || time.Now().After(deadline) {
			requireAVAX(t, nano(staked), got.TotalStaked, "totalStaked")
			break
		}
		time.Sleep(5 * time.Second)
	}
	t.Logf("burned nAVAX: P tx fees %d, L1 validator fees %d, X %d, C atomic %d; C EVM wei %s", pFees, l1Fees, xFees, cAtomic, cEVM)
}

// nodeTips are the node's P, X and C heights.
func nodeTips(t *testing.T, ctx context.Context, uri string) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for _, c := range []string{"P", "X", "C"} {
		out[c] = truth.Height(t, ctx, uri, c)
	}
	return out
}

func equalHeights(a, b map[string]uint64) bool {
	for _, c := range []string{"P", "X", "C"} {
		if a[c] != b[c] {
			return false
		}
	}
	return true
}

// indexedHeights parses X-Indexed-Height ("C=12, P=10, X=7").
func indexedHeights(t *testing.T, header string) map[string]uint64 {
	t.Helper()
	out := map[string]uint64{}
	for _, part := range strings.Split(header, ", ") {
		name, value, ok := strings.Cut(part, "=")
		require.True(t, ok, "X-Indexed-Height %q", header)
		var h avajson.Uint64
		require.NoError(t, h.UnmarshalJSON([]byte(`"`+value+`"`)), "X-Indexed-Height %q", header)
		out[name] = uint64(h)
	}
	return out
}

// avaxEqual says whether got, AVAX as a decimal string, is wei.
func avaxEqual(wei *big.Int, got string) bool {
	r, ok := new(big.Rat).SetString(got)
	return ok && r.Cmp(new(big.Rat).SetFrac(wei, big.NewInt(1e18))) == 0
}

func requireAVAX(t *testing.T, wei *big.Int, got, what string) {
	t.Helper()
	require.Regexp(t, `^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$`, got, "%s: AVAX as a decimal string", what)
	require.True(t, avaxEqual(wei, got), "%s: want %s AVAX, got %s", what, new(big.Rat).SetFrac(wei, big.NewInt(1e18)).FloatString(18), got)
}

// nodePBurns recomputes the P-chain's burns up to height: each tx's AVAX
// inputs less its outputs, stake and the balances it gave L1 validators;
// and the L1 validator fees: those balances, less the refunds, less what
// the validators hold now (platform.getL1Validator at that height).
func nodePBurns(t *testing.T, ctx context.Context, uri string, height uint64, l1 *l1Scenario, owners ownerSet) (fees, l1Fees uint64) {
	t.Helper()
	avaxID := l1.avax
	var deposited, refunded uint64
	var validations []ids.ID
	for h := uint64(1); h <= height; h++ {
		var reply struct {
			Block string `json:"block"`
		}
		require.NoError(t, truth.Call(ctx, uri+"/ext/bc/P", "platform.getBlockByHeight",
			map[string]any{"height": avajson.Uint64(h), "encoding": "hex"}, &reply), "P block %d", h)
		b, err := formatting.Decode(formatting.Hex, reply.Block)
		require.NoError(t, err)
		blk, err := pblock.Parse(pblock.Codec, b)
		require.NoError(t, err, "P block %d", h)
		for _, tx := range blk.Txs() {
			in, out, deposit := pTxAmounts(t, tx, avaxID, owners)
			require.GreaterOrEqual(t, in, out+deposit, "P tx %s: produces more AVAX than it consumes", tx.ID())
			fees += in - out - deposit
			deposited += deposit
			switch utx := tx.Unsigned.(type) {
			case *txs.ConvertSubnetToL1Tx:
				for i := range utx.Validators {
					validations = append(validations, utx.Subnet.Append(uint32(i)))
				}
			case *txs.RegisterL1ValidatorTx:
				validations = append(validations, registeredValidation(t, utx.Message))
			case *txs.DisableL1ValidatorTx:
				refunded += pRefund(t, ctx, uri, l1, tx.ID(), len(utx.Outs))
			case *txs.SetL1ValidatorWeightTx:
				if l1ValidatorWeight(t, utx.Message) == 0 {
					refunded += pRefund(t, ctx, uri, l1, tx.ID(), len(utx.Outs))
				}
			}
		}
	}
	var held uint64
	for _, v := range validations {
		var reply nodeL1Validator
		err := truth.Call(ctx, uri+"/ext/bc/P", "platform.getL1Validator", map[string]any{"validationID": v}, &reply)
		if err != nil {
			continue // removed: its balance was refunded
		}
		require.Equal(t, height, uint64(reply.Height), "getL1Validator %s: the P-chain moved on", v)
		held += uint64(reply.Balance)
	}
	require.GreaterOrEqual(t, deposited, refunded+held, "L1 balances: deposited %d, refunded %d, held %d", deposited, refunded, held)
	return fees, deposited - refunded - held
}

// pTxAmounts are tx's AVAX inputs, outputs (stake and exports included)
// and the balance it gives L1 validators.
func pTxAmounts(t *testing.T, tx *txs.Tx, avaxID ids.ID, owners ownerSet) (in, out, deposit uint64) {
	t.Helper()
	// Every tx with UTXOs embeds avax.BaseTx (Ins, Outs).
	v := reflect.ValueOf(tx.Unsigned).Elem()
	insField, outsField := v.FieldByName("Ins"), v.FieldByName("Outs")
	if !insField.IsValid() || !outsField.IsValid() {
		return 0, 0, 0 // RewardValidatorTx, AdvanceTimeTx: no UTXOs
	}
	ins := append([]*avax.TransferableInput{}, insField.Interface().([]*avax.TransferableInput)...)
	outs := append([]*avax.TransferableOutput{}, outsField.Interface().([]*avax.TransferableOutput)...)
	if stake := v.FieldByName("StakeOuts"); stake.IsValid() {
		outs = append(outs, stake.Interface().([]*avax.TransferableOutput)...)
	}
	switch utx := tx.Unsigned.(type) {
	case *txs.ImportTx:
		ins = append(ins, utx.ImportedInputs...)
	case *txs.ExportTx:
		outs = append(outs, utx.ExportedOutputs...)
	case *txs.ConvertSubnetToL1Tx:
		for _, val := range utx.Validators {
			deposit += val.Balance
		}
	case *txs.RegisterL1ValidatorTx:
		deposit = utx.Balance
	case *txs.IncreaseL1ValidatorBalanceTx:
		deposit = utx.Balance
	}
	for _, i := range ins {
		if i.AssetID() == avaxID {
			in += i.In.Amount()
		}
	}
	for _, o := range outs {
		owners.addOut(o.Out)
		if o.AssetID() == avaxID {
			out += o.Out.Amount()
		}
	}
	return in, out, deposit
}

// ownerSet collects the owners of the outputs the txs made: every address
// that may hold a UTXO.
type ownerSet map[ids.ShortID]bool

func (s ownerSet) addOut(o avax.TransferableOut) {
	if lock, ok := o.(*stakeable.LockOut); ok {
		o = lock.TransferableOut
	}
	if tr, ok := o.(*secp256k1fx.TransferOutput); ok {
		for _, a := range tr.Addrs {
			s[a] = true
		}
	}
}

// nodeLocked sums the AVAX of the UTXOs the owners hold on P and X and in
// every atomic memory (getUTXOs) whose lock (locktime or stakeable lock)
// ends after now. No stake on this network is locked (the genesis
// validators' stake unlocked long ago), so the staked outputs, which
// getUTXOs does not show, hold none.
func nodeLocked(t *testing.T, ctx context.Context, uri, hrp string, owners ownerSet, avaxID ids.ID) uint64 {
	t.Helper()
	now := uint64(time.Now().Unix())
	seen := map[ids.ID]bool{}
	var total uint64
	for a := range owners {
		for _, where := range [][2]string{{"P", ""}, {"P", "X"}, {"P", "C"}, {"X", ""}, {"X", "P"}, {"X", "C"}, {"C", "P"}, {"C", "X"}} {
			addr, err := address.Format(where[0], hrp, a[:])
			require.NoError(t, err)
			for _, u := range truth.UTXOs(t, ctx, uri, where[0], where[1], addr) {
				if u.Asset == avaxID && max(u.Locktime, u.StakeLocktime) > now && !seen[u.ID] {
					seen[u.ID] = true
					total += u.Amount
				}
			}
		}
	}
	return total
}

// addressedCall is the addressed-call payload of a signed warp message.
func addressedCall(t *testing.T, msg []byte) []byte {
	t.Helper()
	m, err := warp.ParseMessage(msg)
	require.NoError(t, err, "warp message")
	call, err := payload.ParseAddressedCall(m.Payload)
	require.NoError(t, err, "addressed call")
	return call.Payload
}

func registeredValidation(t *testing.T, msg []byte) ids.ID {
	t.Helper()
	reg, err := message.ParseRegisterL1Validator(addressedCall(t, msg))
	require.NoError(t, err, "RegisterL1ValidatorMessage")
	return reg.ValidationID()
}

func l1ValidatorWeight(t *testing.T, msg []byte) uint64 {
	t.Helper()
	w, err := message.ParseL1ValidatorWeight(addressedCall(t, msg))
	require.NoError(t, err, "L1ValidatorWeightMessage")
	return w.Weight
}

// pRefund is the balance refunded by tx: the UTXO (txID, outs), as the L1
// scenario recorded it, else among the scenario address's UTXOs now; 0
// when there is none (the validator had no balance left).
func pRefund(t *testing.T, ctx context.Context, uri string, l1 *l1Scenario, txID ids.ID, outs int) uint64 {
	t.Helper()
	id := txID.Prefix(uint64(outs))
	for _, tx := range l1.txs {
		if tx.refund != nil && tx.refund.ID == id {
			return tx.refund.Amount
		}
	}
	for _, u := range truth.UTXOs(t, ctx, uri, "P", "", l1.pAddr(t)) {
		if u.ID == id {
			return u.Amount
		}
	}
	return 0
}

// nodeXBurns recomputes the X-chain's burns up to height from avm.getTx.
func nodeXBurns(t *testing.T, ctx context.Context, uri string, height uint64, owners ownerSet) uint64 {
	t.Helper()
	avaxID := xAVAX(t, ctx, uri)
	var fees uint64
	for h := uint64(1); h <= height; h++ {
		for _, id := range truth.SnowmanBlockTxs(t, ctx, uri, "X", h).TxIDs {
			tx := truth.GetTx(t, ctx, uri, "X", id)
			var in, out uint64
			for _, i := range tx.Ins {
				if i.Asset == avaxID {
					in += i.Amount
				}
			}
			for _, o := range tx.Outs {
				for _, a := range o.Addrs {
					_, _, b, err := address.Parse(a)
					require.NoError(t, err, "X tx %s output address %q", id, a)
					owners[ids.ShortID(b)] = true
				}
				if o.Asset == avaxID {
					out += o.Amount
				}
			}
			require.GreaterOrEqual(t, in, out, "X tx %s", id)
			fees += in - out
		}
	}
	return fees
}

// xAVAX is AVAX's asset ID (avm.getAssetDescription).
func xAVAX(t *testing.T, ctx context.Context, uri string) ids.ID {
	t.Helper()
	var reply struct {
		AssetID ids.ID `json:"assetID"`
	}
	require.NoError(t, truth.Call(ctx, uri+"/ext/bc/X", "avm.getAssetDescription", map[string]any{"assetID": "AVAX"}, &reply))
	return reply.AssetID
}

// nodeCBurns recomputes the C-chain's burns up to height: the atomic txs
// of each block's extra data (nAVAX) and the EVM txs' fees (wei).
func nodeCBurns(t *testing.T, ctx context.Context, uri string, height uint64, owners ownerSet) (atomicFees uint64, evmFees *big.Int) {
	t.Helper()
	client := truth.EthClient(t, ctx, uri)
	headers, err := truth.EVMHeaders(ctx, client, height)
	require.NoError(t, err)
	evmFees = new(big.Int)
	for _, h := range headers {
		evmFees.Add(evmFees, h.FeesSpent)
	}
	avaxID := xAVAX(t, ctx, uri)
	raw := make([]struct {
		ExtData hexutil.Bytes `json:"blockExtraData"`
	}, height)
	elems := make([]rpc.BatchElem, height)
	for i := range elems {
		elems[i] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{hexutil.Uint64(i + 1), false}, Result: &raw[i]}
	}
	require.NoError(t, client.BatchCallContext(ctx, elems))
	for i, e := range elems {
		require.NoError(t, e.Error, "C block %d", i+1)
		if len(raw[i].ExtData) == 0 {
			continue
		}
		atomicTxs, err := atomic.ExtractAtomicTxs(raw[i].ExtData, true, atomic.Codec)
		require.NoError(t, err, "C block %d atomic txs", i+1)
		for _, tx := range atomicTxs {
			if utx, ok := tx.UnsignedAtomicTx.(*atomic.UnsignedExportTx); ok {
				for _, o := range utx.ExportedOutputs {
					owners.addOut(o.Out)
				}
			}
			in, out := truth.AtomicAmounts(tx, avaxID)
			require.GreaterOrEqual(t, in, out, "C atomic tx %s", tx.ID())
			atomicFees += in - out
		}
	}
	return atomicFees, evmFees
}
