package primary

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/formatting/address"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// shaper turns pdata values into the shapes of reply_types.go for one
// request on one chain. Asset descriptions are read once per request, for
// every asset of the page (loadAssets), before anything is shaped.
type shaper struct {
	node   netinfo.Info
	chain  netinfo.Chain
	assets map[ids.ID]pdata.Asset
	// stakers are the staker records of a P-chain page's staking txs: the
	// RewardValidatorTx that ended the period (rewardTxHash) and the
	// potential reward (estimatedReward).
	stakers map[ids.ID]*pdata.IndexedStaker
}

// Asset types of the OpenAPI's PrimaryNetworkAssetType.
const (
	assetTypeSecp256k1 = "secp256k1"
	assetTypeNFT       = "nft"
)

// newShaper reads the descriptions of assets (duplicates allowed).
func (s *server) newShaper(ctx context.Context, chain netinfo.Chain, assets []ids.ID) (*shaper, error) {
	v := &shaper{node: s.Network(), chain: chain, assets: map[ids.ID]pdata.Asset{}}
	unique := make([]ids.ID, 0, len(assets))
	seen := make(map[ids.ID]struct{}, len(assets))
	for _, a := range assets {
		if _, dup := seen[a]; !dup {
			seen[a] = struct{}{}
			unique = append(unique, a)
		}
	}
	if len(unique) == 0 {
		return v, nil
	}
	known, err := s.reader.Assets(ctx, unique)
	if err != nil {
		return nil, fmt.Errorf("reading %d asset descriptions: %w", len(unique), err)
	}
	for id, a := range known {
		v.assets[id] = a
	}
	return v, nil
}

// newPrimaryChainInfo is the chainInfo of a reply. network echoes the
// request's {network} segment: it already passed ResolveNetwork, and the
// SDK's closed Network enum (mainnet, fuji, testnet) then gets back the name
// the client used ("testnet" stays "testnet").
func newPrimaryChainInfo(r *http.Request, chain netinfo.Chain) primaryChainInfo {
	return primaryChainInfo{ChainName: chain.DataAPIAlias(), Network: strings.ToLower(api.PathVar(r, api.ParamNetwork))}
}

// assetAmount shows amount of asset. An asset the index does not describe
// gets empty name and symbol, denomination 0 and the type its output
// suggests (nft says whether the output is an NFT one).
func (v *shaper) assetAmount(asset ids.ID, amount *big.Int, nft bool) assetAmount {
	out := assetAmount{AssetID: asset.String(), Type: assetTypeSecp256k1, Amount: api.Decimal(amount)}
	if nft {
		out.Type = assetTypeNFT
	}
	if a, ok := v.assets[asset]; ok {
		out.Name, out.Symbol, out.Denomination = a.Name, a.Symbol, a.Denomination
		if a.Type == assetTypeNFT || a.Type == assetTypeSecp256k1 {
			out.Type = a.Type
		}
	}
	return out
}

func (v *shaper) utxoAsset(u *pdata.UTXO) assetAmount {
	return v.assetAmount(u.Asset, new(big.Int).SetUint64(u.Amount), isNFTOutput(u.OutputType))
}

// isNFTOutput reports whether an output type is one of the nftfx outputs.
func isNFTOutput(outputType string) bool { return strings.HasPrefix(outputType, "nftfx.") }

// chainID is the blockchain ID of a followed chain.
func (v *shaper) chainID(c netinfo.Chain) string { return v.node.ChainID(c).String() }

// addresses shows X/P addresses in bech32 without a chain prefix, as the
// hosted API's examples do ("avax1..."): a UTXO of atomic memory belongs to
// no single chain.
func (v *shaper) addresses(addrs []ids.ShortID) []string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		s, err := address.FormatBech32(v.node.HRP(), a[:])
		if err != nil {
			s = a.String() // cannot happen for 20 bytes; never fail a page over it
		}
		out[i] = s
	}
	return out
}

// consumedOn is the chain a UTXO was or will be consumed on: where it was
// spent, else the chain it was exported to, else the chain that holds it.
func (v *shaper) consumedOn(u *pdata.IndexedUTXO) string {
	switch {
	case u.Spent():
		return v.chainID(u.ConsumedOn)
	case u.Exported:
		return u.DestinationChain.String()
	default:
		return v.chainID(u.CreatedOn)
	}
}

// creatingTx is the tx that created u: the RewardValidatorTx for rewards
// (whose UTXO IDs carry the staking tx), the UTXO ID's tx otherwise.
func creatingTx(u *pdata.IndexedUTXO) ids.ID {
	if u.CreatingTx != ids.Empty {
		return u.CreatingTx
	}
	return u.TxID
}

// pChainUTXO shapes a UTXO of a P-chain tx.
func (v *shaper) pChainUTXO(u *pdata.IndexedUTXO) pChainUTXO {
	asset := v.utxoAsset(&u.UTXO)
	out := pChainUTXO{
		Addresses:         v.addresses(u.Owners.Addrs),
		Asset:             asset,
		ConsumedOnChainID: v.consumedOn(u),
		CreatedOnChainID:  v.chainID(u.CreatedOn),
		UTXOID:            u.ID.String(),
		Amount:            asset.Amount,
		AssetID:           asset.AssetID,
		BlockNumber:       api.FormatUint(u.CreatedHeight),
		BlockTimestamp:    u.CreatedTime,
		OutputIndex:       u.OutputIndex,
		TxHash:            creatingTx(u).String(),
		UTXOType:          "TRANSFER",
		UTXOBytes:         hexBytes(u.Bytes),
		PlatformLocktime:  ptr(u.Owners.Locktime),
		Threshold:         ptr(u.Owners.Threshold),
		Staked:            ptr(u.Kind == pdata.KindStake),
	}
	if u.Kind == pdata.KindStake {
		out.UTXOType = "STAKE"
	}
	if u.Kind == pdata.KindReward && validRewardType(u.RewardType) {
		out.RewardType = u.RewardType
	}
	if u.StakeableLocktime != 0 {
		out.StakeableLocktime = ptr(u.StakeableLocktime)
	}
	if u.StakeStart != 0 || u.StakeEnd != 0 {
		out.UTXOStartTimestamp, out.UTXOEndTimestamp = ptr(u.StakeStart), ptr(u.StakeEnd)
	}
	if u.Spent() {
		out.ConsumingTxHash = u.ConsumingTx.String()
		out.ConsumingBlockNumber = api.FormatUint(u.ConsumingHeight)
		out.ConsumingBlockTimestamp = ptr(u.ConsumingTime)
	}
	return out
}

func validRewardType(t string) bool {
	return t == pdata.RewardValidator || t == pdata.RewardDelegator || t == pdata.RewardValidatorFee
}

// utxo shapes a UTXO of an X-chain or C-chain atomic tx.
func (v *shaper) utxo(u *pdata.IndexedUTXO) utxo {
	out := utxo{
		Addresses:         v.addresses(u.Owners.Addrs),
		Asset:             v.utxoAsset(&u.UTXO),
		ConsumedOnChainID: v.consumedOn(u),
		CreatedOnChainID:  v.chainID(u.CreatedOn),
		UTXOID:            u.ID.String(),
		CreationTxHash:    creatingTx(u).String(),
		Locktime:          u.Owners.Locktime,
		OutputIndex:       strconv.FormatUint(uint64(u.OutputIndex), 10),
		Threshold:         u.Owners.Threshold,
		Timestamp:         u.CreatedTime,
		UTXOType:          xUTXOType(u.OutputType),
		UTXOBytes:         hexBytes(u.Bytes),
		Payload:           hexBytes(u.Payload),
	}
	if isNFTOutput(u.OutputType) {
		out.GroupID = ptr(u.GroupID)
	}
	if u.Spent() {
		out.ConsumingTxHash = u.ConsumingTx.String()
		out.ConsumingTxTimestamp = ptr(u.ConsumingTime)
	}
	return out
}

// xUTXOType names an X-chain output type the way the hosted API's free
// utxoType string does (its example is "mint"): the fx's output kind in
// lower case, prefixed with the fx for NFT and property outputs.
func xUTXOType(outputType string) string {
	switch outputType {
	case "", "secp256k1fx.TransferOutput", "stakeable.LockOut":
		return "transfer"
	case "secp256k1fx.MintOutput":
		return "mint"
	case "nftfx.TransferOutput":
		return "nft_transfer"
	case "nftfx.MintOutput":
		return "nft_mint"
	case "propertyfx.MintOutput":
		return "property_mint"
	case "propertyfx.OwnedOutput":
		return "property_owned"
	}
	_, name, _ := strings.Cut(outputType, ".")
	return strings.ToLower(strings.TrimSuffix(name, "Output"))
}

// amounts sums amounts per asset, keeping the order in which assets first
// appear so replies are stable.
type amounts struct {
	order []ids.ID
	sums  map[ids.ID]*big.Int
	nft   map[ids.ID]bool
}

func newAmounts() *amounts {
	return &amounts{sums: map[ids.ID]*big.Int{}, nft: map[ids.ID]bool{}}
}

func (a *amounts) sum(asset ids.ID) *big.Int {
	s, ok := a.sums[asset]
	if !ok {
		s = new(big.Int)
		a.sums[asset] = s
		a.order = append(a.order, asset)
	}
	return s
}

func (a *amounts) add(asset ids.ID, n uint64, nft bool) {
	s := a.sum(asset)
	s.Add(s, new(big.Int).SetUint64(n))
	a.nft[asset] = a.nft[asset] || nft
}

func (a *amounts) addUTXOs(utxos []pdata.IndexedUTXO, keep func(*pdata.IndexedUTXO) bool) {
	for i := range utxos {
		u := &utxos[i]
		if keep == nil || keep(u) {
			a.add(u.Asset, u.Amount, isNFTOutput(u.OutputType))
		}
	}
}

// shape lists the sums; positiveOnly drops assets whose sum is not above
// zero (differences).
func (a *amounts) shape(v *shaper, positiveOnly bool) []assetAmount {
	out := make([]assetAmount, 0, len(a.order))
	for _, asset := range a.order {
		s := a.sums[asset]
		if positiveOnly && s.Sign() <= 0 {
			continue
		}
		out = append(out, v.assetAmount(asset, s, a.nft[asset]))
	}
	return out
}

// hexBytes is "0x" and the hex of b, "" when b is empty (optional fields).
func hexBytes(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return "0x" + hex.EncodeToString(b)
}

// memo is the required memo of X- and C-chain txs: hex, "" when none.
func memo(b []byte) string { return hexBytes(b) }

// hexID shows a 32-byte ID as 0x hex: C-chain block hashes.
func hexID(id ids.ID) string { return "0x" + hex.EncodeToString(id[:]) }

// blockHash shows a block ID the way its chain names blocks: cb58 on the
// P- and X-chain, 0x hex on the C-chain.
func (v *shaper) blockHash(id ids.ID) string {
	if v.chain == netinfo.C {
		return hexID(id)
	}
	return id.String()
}

// genesisData is a CreateChainTx's genesis as BlockchainInfo shows it: an
// EVM genesis (one that names config.chainId) as the JSON object itself
// (EvmGenesisDto), any other as a string (the text, or 0x hex when it is
// not UTF-8), as the hosted API shows a non-EVM chain's genesis: a JSON
// genesis of another VM is no EvmGenesisDto, and clients would read it as
// one.
func genesisData(b []byte) json.RawMessage {
	if len(b) == 0 {
		return nil
	}
	if trimmed := bytes.TrimSpace(b); evmChainIDOf(trimmed) != nil {
		var compact bytes.Buffer
		if json.Compact(&compact, trimmed) == nil {
			return compact.Bytes()
		}
	}
	s := string(b)
	if !utf8.Valid(b) {
		s = hexBytes(b)
	}
	raw, _ := json.Marshal(s) // a string always marshals
	return raw
}

func ptr[T any](v T) *T { return &v }

// evmChainIDOf is the chain id an EVM genesis names (config.chainId); nil
// for any other genesis.
func evmChainIDOf(genesis []byte) *uint64 {
	var g struct {
		Config struct {
			ChainID *uint64 `json:"chainId"`
		} `json:"config"`
	}
	trimmed := bytes.TrimSpace(genesis)
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &g) != nil {
		return nil
	}
	return g.Config.ChainID
}
