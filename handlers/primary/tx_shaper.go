package primary

import (
	"encoding/hex"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// Shapes of the three chains' transactions
// (listLatestPrimaryNetworkTransactions): PChainTransaction,
// XChainLinearTransaction / XChainNonLinearTransaction and
// CChainImportTransaction / CChainExportTransaction.

// txAssets lists every asset a page of txs names, for newShaper.
func txAssets(txs []pdata.IndexedTx, avax ids.ID) []ids.ID {
	if len(txs) == 0 {
		return nil
	}
	out := []ids.ID{avax} // the L1 balance amounts are in AVAX
	for i := range txs {
		itx := &txs[i]
		for _, u := range itx.Consumed {
			out = append(out, u.Asset)
		}
		for _, u := range itx.Produced {
			out = append(out, u.Asset)
		}
		for _, a := range itx.Tx.EVMInputs {
			out = append(out, a.Asset)
		}
		for _, a := range itx.Tx.EVMOutputs {
			out = append(out, a.Asset)
		}
		if itx.Tx.Asset != nil {
			out = append(out, itx.Tx.Asset.ID)
		}
	}
	return out
}

// primaryTx shapes one tx of the shaper's chain.
func (v *shaper) primaryTx(itx *pdata.IndexedTx) any {
	switch v.chain {
	case netinfo.P:
		return v.pChainTx(itx)
	case netinfo.C:
		return v.cChainTx(itx)
	default:
		return v.xChainTx(itx)
	}
}

// pChainTxTypes are the PChainTransactionType values: the txTypes filter's
// values less the X-chain's own.
func pChainTxTypes() []string {
	return slices.DeleteFunc(primaryNetworkTxTypes(), func(t string) bool {
		return t == "CreateAssetTx" || t == "OperationTx"
	})
}

// xChainTxTypes are the XChainTransactionType values.
func xChainTxTypes() []string {
	return []string{"BaseTx", "CreateAssetTx", "OperationTx", "ImportTx", "ExportTx", "UNKNOWN"}
}

// closedTxType keeps the SDK's closed enums: a type the enum lacks is UNKNOWN.
func closedTxType(t string, allowed []string) string {
	if slices.Contains(allowed, t) {
		return t
	}
	return "UNKNOWN"
}

func (v *shaper) pChainTx(itx *pdata.IndexedTx) pChainTransaction {
	tx := itx.Tx
	out := pChainTransaction{
		TxHash:         tx.ID.String(),
		TxType:         closedTxType(tx.Type, pChainTxTypes()),
		BlockTimestamp: itx.BlockTime,
		BlockNumber:    api.FormatUint(itx.Pos.Height),
		BlockHash:      v.blockHash(itx.BlockID),
		ConsumedUTXOs:  make([]pChainUTXO, len(itx.Consumed)),
		EmittedUTXOs:   make([]pChainUTXO, len(itx.Produced)),
		Memo:           hexBytes(tx.Memo),
	}
	for i := range itx.Consumed {
		out.ConsumedUTXOs[i] = v.pChainUTXO(&itx.Consumed[i])
	}
	for i := range itx.Produced {
		out.EmittedUTXOs[i] = v.pChainUTXO(&itx.Produced[i])
	}
	v.pChainAmounts(itx, &out)
	out.SourceChain, out.DestinationChain = atomicChains(tx, v.chainID(netinfo.P))
	if tx.Subnet != ids.Empty {
		out.SubnetID = tx.Subnet.String()
	}
	if tx.RewardOf != ids.Empty {
		out.StakingTxHash = tx.RewardOf.String()
	}
	if tx.Staker != nil {
		v.pChainStaker(tx, &out)
	}
	if o := tx.SubnetOwner; o != nil {
		out.SubnetOwnershipInfo = &subnetOwnershipInfo{Locktime: o.Locktime, Threshold: o.Threshold, Addresses: v.addresses(o.Addrs)}
	}
	if b := tx.Blockchain; b != nil {
		out.BlockchainInfo = &blockchainInfo{ChainName: b.Name, VMID: b.VMID.String(), GenesisData: genesisData(b.Genesis)}
	}
	if m := tx.L1Manager; m != nil {
		out.L1ValidatorManagerDetails = &l1ValidatorManagerDetails{
			BlockchainID: m.BlockchainID.String(), ContractAddress: managerAddress(m.Address),
		}
	}
	for _, l1 := range tx.L1Validators {
		out.L1ValidatorDetails = append(out.L1ValidatorDetails, v.l1Validator(tx.Type, &l1))
	}
	return out
}

// atomicChains are both ends of an atomic tx: an ImportTx moves funds from
// its source chain to this one, an ExportTx from this one to its
// destination ("" for other txs). They go by the tx type, not by a zero ID:
// the P-chain's ID is ids.Empty.
func atomicChains(tx *pdata.Tx, this string) (source, destination string) {
	switch tx.Type {
	case "ImportTx":
		return tx.SourceChain.String(), this
	case "ExportTx":
		return this, tx.DestinationChain.String()
	}
	return "", ""
}

// managerAddress shows a validator manager's address: EIP-55 when it is
// an EVM address (20 bytes), else 0x hex of whatever the tx names.
func managerAddress(b []byte) string {
	if len(b) == common.AddressLength {
		return common.BytesToAddress(b).Hex()
	}
	return "0x" + hex.EncodeToString(b)
}

// pChainAmounts fills value (what the emitted UTXOs hold), amountStaked
// (the stake outputs), amountL1ValidatorBalanceBurned (the AVAX an L1 tx
// moves into validator balances) and amountBurned (what the tx consumed and
// did not emit nor move into L1 balances: its fee).
func (v *shaper) pChainAmounts(itx *pdata.IndexedTx, out *pChainTransaction) {
	value, staked, l1, burned := newAmounts(), newAmounts(), newAmounts(), newAmounts()
	value.addUTXOs(itx.Produced, nil)
	staked.addUTXOs(itx.Produced, func(u *pdata.IndexedUTXO) bool { return u.Kind == pdata.KindStake })
	avax := v.node.AVAXAssetID
	if balance := l1BalanceMoved(itx.Tx); balance.Sign() > 0 {
		l1.sum(avax).Set(balance)
	}
	burned.addUTXOs(itx.Consumed, nil)
	for _, u := range itx.Produced {
		s := burned.sum(u.Asset)
		s.Sub(s, new(big.Int).SetUint64(u.Amount))
	}
	if s, ok := l1.sums[avax]; ok {
		b := burned.sum(avax)
		b.Sub(b, s)
	}
	out.Value = value.shape(v, false)
	out.AmountStaked = staked.shape(v, false)
	out.AmountL1ValidatorBalanceBurned = l1.shape(v, false)
	out.AmountBurned = burned.shape(v, true)
}

// l1BalanceMoved is the nAVAX an L1 validator tx puts into validator
// balances: the initial balances of ConvertSubnetToL1Tx and
// RegisterL1ValidatorTx, the top-up of IncreaseL1ValidatorBalanceTx.
func l1BalanceMoved(tx *pdata.Tx) *big.Int {
	sum := new(big.Int)
	for _, l1 := range tx.L1Validators {
		switch tx.Type {
		case "ConvertSubnetToL1Tx", "RegisterL1ValidatorTx":
			sum.Add(sum, new(big.Int).SetUint64(l1.Balance))
		case "IncreaseL1ValidatorBalanceTx":
			sum.Add(sum, new(big.Int).SetUint64(l1.BalanceChange))
		}
	}
	return sum
}

// pChainStaker fills the fields of validator and delegator txs.
func (v *shaper) pChainStaker(tx *pdata.Tx, out *pChainTransaction) {
	st := tx.Staker
	out.StartTimestamp, out.EndTimestamp = ptr(st.Start), ptr(st.End)
	out.NodeID = st.NodeID.String()
	out.SubnetID = st.Subnet.String()
	if takesDelegations(tx.Type, st) {
		out.DelegationFeePercent = delegationFeePercent(st.DelegationShares)
	}
	if st.RewardsOwner != nil && len(st.RewardsOwner.Addrs) > 0 {
		out.RewardAddresses = v.addresses(st.RewardsOwner.Addrs)
	}
	out.BLSCredentials = stakerBLS(st)
	if rec, ok := v.stakers[tx.ID]; ok {
		if rec.RewardTx != ids.Empty {
			out.RewardTxHash = rec.RewardTx.String()
		}
		// The reward platformvm computed when the staker became current
		// (none yet for a pending one; primary-network stakers only).
		if rec.PotentialReward != nil {
			out.EstimatedReward = api.FormatUint(*rec.PotentialReward)
		}
	}
}

// stakerBLS is the BLS key a staker registered (nil when none).
func stakerBLS(st *pdata.Staker) *blsCredentials {
	if len(st.BLSPublicKey) == 0 {
		return nil
	}
	return &blsCredentials{PublicKey: hexBytes(st.BLSPublicKey), ProofOfPossession: hexBytes(st.BLSProofOfPossession)}
}

// takesDelegations reports whether a validator sets a delegation fee:
// permissionless ones do, permissioned subnet validators do not.
func takesDelegations(txType string, st *pdata.Staker) bool {
	return !st.Delegator && (txType == "AddValidatorTx" || txType == "AddPermissionlessValidatorTx")
}

// delegationFeePercent shows a fee in parts per million as a percentage
// ("2" for 20000, "2.5" for 25000).
func delegationFeePercent(shares uint32) string {
	return strconv.FormatFloat(float64(shares)/10_000, 'f', -1, 64)
}

// l1Validator shapes one L1 validator an L1 tx names. remainingBalance is
// the balance the tx gives it (0 when the tx sets none); balanceChange is
// the top-up of IncreaseL1ValidatorBalanceTx.
func (v *shaper) l1Validator(txType string, l1 *pdata.L1Validator) l1ValidatorDetails {
	out := l1ValidatorDetails{
		ValidationID:     l1.ValidationID.String(),
		ValidationIDHex:  hexID(l1.ValidationID),
		NodeID:           l1.NodeID.String(),
		SubnetID:         l1.Subnet.String(),
		Weight:           l1.Weight,
		RemainingBalance: l1.Balance,
	}
	if txType == "IncreaseL1ValidatorBalanceTx" {
		out.BalanceChange = ptr(l1.BalanceChange)
	}
	if len(l1.BLSPublicKey) > 0 {
		out.BLSCredentials = &blsCredentials{PublicKey: hexBytes(l1.BLSPublicKey), ProofOfPossession: hexBytes(l1.BLSProofOfPossession)}
	}
	return out
}

// xChainTx shapes an X-chain tx: XChainLinearTransaction for a tx of a
// block, XChainNonLinearTransaction for a tx of the pre-Cortina DAG (its
// vertices in acceptance order; its timestamp, as the OpenAPI describes it,
// the latest of theirs).
func (v *shaper) xChainTx(itx *pdata.IndexedTx) any {
	tx := itx.Tx
	out := xChainTxFields{
		TxHash:        tx.ID.String(),
		ChainFormat:   "linear",
		Timestamp:     itx.BlockTime,
		TxType:        closedTxType(tx.Type, xChainTxTypes()),
		Memo:          memo(tx.Memo),
		ConsumedUTXOs: v.utxos(itx.Consumed),
		EmittedUTXOs:  v.utxos(itx.Produced),
	}
	unlocked, created := newAmounts(), newAmounts()
	unlocked.addUTXOs(itx.Consumed, nil)
	created.addUTXOs(itx.Produced, nil)
	out.AmountUnlocked, out.AmountCreated = unlocked.shape(v, false), created.shape(v, false)
	out.SourceChain, out.DestinationChain = atomicChains(tx, v.chainID(netinfo.X))
	if a := tx.Asset; a != nil {
		out.AssetCreated = v.assetCreated(itx, a)
	}
	if len(itx.Vertices) == 0 {
		return xChainLinearTransaction{xChainTxFields: out, BlockHeight: itx.Pos.Height, BlockHash: v.blockHash(itx.BlockID)}
	}
	out.ChainFormat = "non-linear"
	vertices := make([]transactionVertexDetail, len(itx.Vertices))
	for i, vtx := range itx.Vertices {
		vertices[i] = transactionVertexDetail{Hash: vtx.ID.String(), Height: vtx.DAGHeight, Timestamp: vtx.Timestamp}
		out.Timestamp = max(out.Timestamp, vtx.Timestamp)
	}
	return xChainNonLinearTransaction{xChainTxFields: out, Vertices: vertices}
}

// assetCreated describes the asset a CreateAssetTx creates. Its cap is
// variable when the tx hands out mint outputs (more can be minted later).
func (v *shaper) assetCreated(itx *pdata.IndexedTx, a *pdata.Asset) *xChainAssetDetails {
	out := &xChainAssetDetails{
		AssetID: a.ID.String(), Name: a.Name, Symbol: a.Symbol, Denomination: a.Denomination,
		Type: assetTypeSecp256k1, CreatedAtTimestamp: itx.BlockTime, Cap: "fixed",
	}
	if a.Type == assetTypeNFT {
		out.Type = assetTypeNFT
	}
	for _, u := range itx.Produced {
		if strings.HasSuffix(u.OutputType, "MintOutput") {
			out.Cap = "variable"
		}
	}
	return out
}

func (v *shaper) utxos(us []pdata.IndexedUTXO) []utxo {
	out := make([]utxo, len(us))
	for i := range us {
		out[i] = v.utxo(&us[i])
	}
	return out
}

// cChainTx shapes a C-chain atomic tx: an ExportTx moves AVAX from C-chain
// accounts (evmInputs) into UTXOs for another chain; an ImportTx moves
// another chain's UTXOs into C-chain accounts (evmOutputs).
func (v *shaper) cChainTx(itx *pdata.IndexedTx) any {
	tx := itx.Tx
	base := cChainAtomicBase{
		TxHash:      tx.ID.String(),
		BlockHeight: itx.Pos.Height,
		BlockHash:   v.blockHash(itx.BlockID),
		Timestamp:   itx.BlockTime,
		Memo:        memo(tx.Memo),
		TxType:      tx.Type,
	}
	unlocked, created := newAmounts(), newAmounts()
	if tx.Type == "ExportTx" {
		base.SourceChain, base.DestinationChain = v.chainID(netinfo.C), tx.DestinationChain.String()
		out := cChainExportTransaction{EVMInputs: make([]evmInput, len(tx.EVMInputs)), EmittedUTXOs: v.utxos(itx.Produced)}
		for i, in := range tx.EVMInputs {
			unlocked.add(in.Asset, in.Amount, false)
			out.EVMInputs[i] = evmInput{
				FromAddress: common.Address(in.Address).Hex(),
				Asset:       v.assetAmount(in.Asset, new(big.Int).SetUint64(in.Amount), false),
				Credentials: []utxoCredential{},
			}
		}
		created.addUTXOs(itx.Produced, nil)
		base.AmountUnlocked, base.AmountCreated = unlocked.shape(v, false), created.shape(v, false)
		out.cChainAtomicBase = base
		return out
	}
	base.TxType = "ImportTx" // the only other atomic tx; keeps the closed enum
	base.SourceChain, base.DestinationChain = tx.SourceChain.String(), v.chainID(netinfo.C)
	out := cChainImportTransaction{EVMOutputs: make([]evmOutput, len(tx.EVMOutputs)), ConsumedUTXOs: v.utxos(itx.Consumed)}
	unlocked.addUTXOs(itx.Consumed, nil)
	for i, o := range tx.EVMOutputs {
		created.add(o.Asset, o.Amount, false)
		out.EVMOutputs[i] = evmOutput{
			ToAddress: common.Address(o.Address).Hex(),
			Asset:     v.assetAmount(o.Asset, new(big.Int).SetUint64(o.Amount), false),
		}
	}
	base.AmountUnlocked, base.AmountCreated = unlocked.shape(v, false), created.shape(v, false)
	out.cChainAtomicBase = base
	return out
}
