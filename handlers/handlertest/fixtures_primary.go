package handlertest

import (
	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// A small primary-network history on the local network. PAlice imports
// AVAX from the X-chain, validates (with a reward at the end), creates a
// subnet and a chain, converts the subnet to an L1 and tops up its
// validator; PBob makes PagingTxs BaseTxs. On the X-chain the genesis
// creates AVAX and PAlice mints an NFT and exports to the P-chain; on the
// C-chain Alice (0x) imports from and exports to the X-chain.
var (
	PAlice     = ShortAddr(0xa1)
	PBob       = ShortAddr(0xb0)
	CAlice     = ids.ShortID(Alice)
	NFTAsset   = ids.ID{'n', 'f', 't'}
	Validation = ids.ID{'v', 'a', 'l'}
	Proposer   = ids.BuildTestNodeID([]byte{1, 2, 3}) // NodeID
	L1Subnet   = ids.ID{'l', '1'}
)

const (
	PGenesisTime = 1_600_000_000
	PagingTxs    = 25 // PBob's BaseTxs at P heights 10..34
)

// ShortAddr is the address whose bytes are seed, seed+1, ... (as Bech32Addr).
func ShortAddr(seed byte) ids.ShortID {
	var a ids.ShortID
	for i := range a {
		a[i] = seed + byte(i)
	}
	return a
}

func BlockTime(h uint64) int64 { return PGenesisTime + 10*int64(h) }

func FixtureTxID(chain netinfo.Chain, n uint64) ids.ID { return ids.ID{'t', byte(chain)}.Prefix(n) }

func FixtureBlockID(chain netinfo.Chain, h uint64) ids.ID { return ids.ID{'b', byte(chain)}.Prefix(h) }

// NewUTXO is output idx of tx on chain at height, owned by owner.
func NewUTXO(chain netinfo.Chain, tx ids.ID, idx uint32, owner ids.ShortID, amount, height uint64) pdata.IndexedUTXO {
	return pdata.IndexedUTXO{
		UTXO: pdata.UTXO{
			ID: tx.Prefix(uint64(idx)), TxID: tx, OutputIndex: idx, Asset: fakenet.AVAXAssetID, Amount: amount,
			Owners: pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{owner}}, Bytes: []byte{0, 0, byte(idx)},
			OutputType: "secp256k1fx.TransferOutput",
		},
		CreatedOn: chain, CreatingTx: tx, CreatedHeight: height, CreatedTime: BlockTime(height),
	}
}

func Spent(u pdata.IndexedUTXO, chain netinfo.Chain, tx ids.ID, height uint64) pdata.IndexedUTXO {
	u.ConsumedOn, u.ConsumingTx, u.ConsumingHeight, u.ConsumingTime = chain, tx, height, BlockTime(height)
	return u
}

func IndexedTx(chain netinfo.Chain, height uint64, index uint32, tx *pdata.Tx, consumed, produced []pdata.IndexedUTXO) pdata.IndexedTx {
	return pdata.IndexedTx{
		Chain: chain, Pos: pdata.TxPos{Height: height, Index: index}, BlockID: FixtureBlockID(chain, height),
		BlockTime: BlockTime(height), Tx: tx, Consumed: consumed, Produced: produced,
	}
}

func LoadPrimaryFixtures(f *Primary) {
	node := fakenet.Info()
	f.AssetList[fakenet.AVAXAssetID] = pdata.Asset{ID: fakenet.AVAXAssetID, Name: "Avalanche", Symbol: "AVAX", Denomination: 9, Type: "secp256k1"}
	f.AssetList[NFTAsset] = pdata.Asset{ID: NFTAsset, Name: "Kitties", Symbol: "KIT", Type: "nft"}

	// X-chain: genesis, an NFT mint, an export of 1 AVAX to the P-chain.
	xGenesis := FixtureTxID(netinfo.X, 0)
	xGenesisOut := NewUTXO(netinfo.X, xGenesis, 0, PAlice, 5_000_000_000, 0)
	xExport := FixtureTxID(netinfo.X, 2)
	pImport := FixtureTxID(netinfo.P, 1)
	f.AddTx(IndexedTx(netinfo.X, 0, 0, &pdata.Tx{ID: xGenesis, Type: "CreateAssetTx", Memo: []byte("genesis"),
		Asset: &pdata.Asset{ID: fakenet.AVAXAssetID, Name: "Avalanche", Symbol: "AVAX", Denomination: 9, Type: "secp256k1"}},
		nil, []pdata.IndexedUTXO{Spent(xGenesisOut, netinfo.X, xExport, 2)}))
	nftTx := FixtureTxID(netinfo.X, 1)
	nft := NewUTXO(netinfo.X, nftTx, 0, PAlice, 0, 1)
	nft.Asset, nft.OutputType, nft.Payload, nft.GroupID = NFTAsset, "nftfx.TransferOutput", []byte("kitty"), 7
	f.AddTx(IndexedTx(netinfo.X, 1, 0, &pdata.Tx{ID: nftTx, Type: "OperationTx"}, nil, []pdata.IndexedUTXO{nft}))
	exported := NewUTXO(netinfo.X, xExport, 1, PAlice, 1_000_000_000, 2)
	exported.Exported = true // to the P-chain, whose ID is ids.Empty
	change := NewUTXO(netinfo.X, xExport, 0, PAlice, 3_999_000_000, 2)
	f.AddTx(IndexedTx(netinfo.X, 2, 0, &pdata.Tx{ID: xExport, Type: "ExportTx", DestinationChain: node.ChainID(netinfo.P)},
		[]pdata.IndexedUTXO{Spent(xGenesisOut, netinfo.X, xExport, 2)},
		[]pdata.IndexedUTXO{change, Spent(exported, netinfo.P, pImport, 1)}))

	LoadPChainFixtures(f, node, Spent(exported, netinfo.P, pImport, 1))
	LoadCChainFixtures(f, node)
}

func LoadPChainFixtures(f *Primary, node netinfo.Info, imported pdata.IndexedUTXO) {
	pImport := FixtureTxID(netinfo.P, 1)
	importOut := NewUTXO(netinfo.P, pImport, 0, PAlice, 999_000_000, 1)
	stakeTx := FixtureTxID(netinfo.P, 2)
	f.AddTx(IndexedTx(netinfo.P, 1, 0, &pdata.Tx{ID: pImport, Type: "ImportTx", SourceChain: node.ChainID(netinfo.X),
		Memo: []byte("hi")}, []pdata.IndexedUTXO{imported}, []pdata.IndexedUTXO{Spent(importOut, netinfo.P, stakeTx, 2)}))

	stake := NewUTXO(netinfo.P, stakeTx, 1, PAlice, 500_000_000, 2)
	stake.Kind, stake.StakeStart, stake.StakeEnd = pdata.KindStake, BlockTime(2), BlockTime(5)
	stakeChange := NewUTXO(netinfo.P, stakeTx, 0, PAlice, 498_000_000, 2)
	stakeChange.StakeableLocktime = 1_700_000_000
	owner := &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{PAlice}}
	f.AddTx(IndexedTx(netinfo.P, 2, 0, &pdata.Tx{ID: stakeTx, Type: "AddPermissionlessValidatorTx", Staker: &pdata.Staker{
		NodeID: Proposer, Start: BlockTime(2), End: BlockTime(5), Weight: 500_000_000, DelegationShares: 20_000,
		RewardsOwner: owner, DelegationRewardsOwner: owner, BLSPublicKey: []byte{0xb1, 0x5}, BLSProofOfPossession: []byte{0x90, 0x9},
	}}, []pdata.IndexedUTXO{Spent(importOut, netinfo.P, stakeTx, 2)}, []pdata.IndexedUTXO{stakeChange, stake}))

	subnetTx := FixtureTxID(netinfo.P, 3)
	f.AddTx(IndexedTx(netinfo.P, 3, 0, &pdata.Tx{ID: subnetTx, Type: "CreateSubnetTx", Subnet: subnetTx, SubnetOwner: owner}, nil, nil))
	f.AddTx(IndexedTx(netinfo.P, 3, 1, &pdata.Tx{ID: FixtureTxID(netinfo.P, 31), Type: "CreateChainTx", Subnet: subnetTx,
		Blockchain: &pdata.Blockchain{ID: FixtureTxID(netinfo.P, 31), Name: "dispatch", VMID: ids.ID{'v', 'm'},
			Genesis: []byte(`{"config": {"chainId": 779672}, "gasLimit": "0x7A1200"}`)}}, nil, nil))

	convert := NewUTXO(netinfo.P, FixtureTxID(netinfo.P, 4), 0, PAlice, 1000, 4)
	l1 := pdata.L1Validator{ValidationID: Validation, NodeID: Proposer, Subnet: L1Subnet, Weight: 100, Balance: 100,
		BLSPublicKey: []byte{1}, BLSProofOfPossession: []byte{2}}
	f.AddTx(IndexedTx(netinfo.P, 4, 0, &pdata.Tx{ID: FixtureTxID(netinfo.P, 4), Type: "ConvertSubnetToL1Tx", Subnet: L1Subnet,
		L1Validators: []pdata.L1Validator{l1}, L1Manager: &pdata.L1Manager{BlockchainID: ids.ID{'m'}, Address: Alice.Bytes()}},
		[]pdata.IndexedUTXO{NewUTXO(netinfo.P, FixtureTxID(netinfo.P, 40), 0, PAlice, 2000, 0)}, []pdata.IndexedUTXO{convert}))

	reward := NewUTXO(netinfo.P, stakeTx, 2, PAlice, 7_000, 5)
	reward.Kind, reward.RewardType, reward.CreatingTx = pdata.KindReward, pdata.RewardValidator, FixtureTxID(netinfo.P, 5)
	reward.StakeStart, reward.StakeEnd = BlockTime(2), BlockTime(5)
	f.AddTx(IndexedTx(netinfo.P, 5, 0, &pdata.Tx{ID: FixtureTxID(netinfo.P, 5), Type: "RewardValidatorTx", RewardOf: stakeTx,
		Unstaked: []ids.ID{stake.ID}}, nil, []pdata.IndexedUTXO{reward}))

	top := pdata.L1Validator{ValidationID: Validation, BalanceChange: 50}
	f.AddTx(IndexedTx(netinfo.P, 6, 0, &pdata.Tx{ID: FixtureTxID(netinfo.P, 6), Type: "IncreaseL1ValidatorBalanceTx",
		ValidationID: Validation, L1Validators: []pdata.L1Validator{top}},
		[]pdata.IndexedUTXO{Spent(convert, netinfo.P, FixtureTxID(netinfo.P, 6), 6)},
		[]pdata.IndexedUTXO{NewUTXO(netinfo.P, FixtureTxID(netinfo.P, 6), 0, PAlice, 940, 6)}))

	for i := range uint64(PagingTxs) {
		h := 10 + i
		id := FixtureTxID(netinfo.P, 100+i)
		f.AddTx(IndexedTx(netinfo.P, h, 0, &pdata.Tx{ID: id, Type: "BaseTx"},
			[]pdata.IndexedUTXO{NewUTXO(netinfo.P, ids.ID{'g'}, uint32(i), PBob, 10, 0)},
			[]pdata.IndexedUTXO{NewUTXO(netinfo.P, id, 0, PBob, 9, h)}))
	}

	for h := uint64(1); h <= 6; h++ {
		b := pdata.IndexedBlock{Chain: netinfo.P, Number: h, ID: FixtureBlockID(netinfo.P, h), ParentID: FixtureBlockID(netinfo.P, h-1),
			Time: BlockTime(h), Type: "BanffStandardBlock", Size: 300 + int(h), TxIDs: []ids.ID{FixtureTxID(netinfo.P, h)},
			Proposer: &pdata.Proposer{ID: FixtureBlockID(netinfo.P, h), ParentID: FixtureBlockID(netinfo.P, h-1),
				NodeID: Proposer, PChainHeight: h - 1, Timestamp: BlockTime(h)}}
		if h == 6 {
			b.Proposer.NodeID = ids.BuildTestNodeID([]byte{9}) // another node's
		}
		f.AddBlock(b)
	}

	f.BalanceEntries[netinfo.P] = map[ids.ShortID][]pdata.BalanceEntry{PAlice: {
		{Category: pdata.UnlockedUnstaked, Asset: fakenet.AVAXAssetID, Amount: 940, UTXOs: 1},
		{Category: pdata.LockedStakeable, Asset: fakenet.AVAXAssetID, Amount: 498_000_000, UTXOs: 1},
		{Category: pdata.AtomicMemoryUnlocked, Asset: fakenet.AVAXAssetID, Amount: 5, UTXOs: 1, SharedWith: node.ChainID(netinfo.X)},
	}}
	f.BalanceEntries[netinfo.X] = map[ids.ShortID][]pdata.BalanceEntry{PAlice: {
		{Category: pdata.UnlockedUnstaked, Asset: fakenet.AVAXAssetID, Amount: 3_999_000_000, UTXOs: 1},
		{Category: pdata.UnlockedUnstaked, Asset: NFTAsset, Amount: 0, UTXOs: 1},
		{Category: pdata.LockedPlatform, Asset: fakenet.AVAXAssetID, Amount: 1, UTXOs: 1},
		{Category: pdata.LockedStakeable, Asset: fakenet.AVAXAssetID, Amount: 2, UTXOs: 1},
	}}
	f.BalanceEntries[netinfo.C] = map[ids.ShortID][]pdata.BalanceEntry{CAlice: {
		{Category: pdata.AtomicMemoryLocked, Asset: fakenet.AVAXAssetID, Amount: 3, UTXOs: 2, SharedWith: node.ChainID(netinfo.X)},
		{Category: pdata.UnlockedUnstaked, Asset: fakenet.AVAXAssetID, Amount: 99, UTXOs: 1}, // not a C-chain category
	}}
}

func LoadCChainFixtures(f *Primary, node netinfo.Info) {
	cImport := FixtureTxID(netinfo.C, 100)
	fromX := NewUTXO(netinfo.X, FixtureTxID(netinfo.X, 9), 0, PAlice, 2_000_000, 3)
	fromX.Exported, fromX.DestinationChain = true, node.ChainID(netinfo.C)
	f.AddTx(IndexedTx(netinfo.C, 100, 0, &pdata.Tx{ID: cImport, Type: "ImportTx", SourceChain: node.ChainID(netinfo.X),
		EVMOutputs: []pdata.EVMAmount{{Address: Alice, Asset: fakenet.AVAXAssetID, Amount: 1_999_000}}},
		[]pdata.IndexedUTXO{Spent(fromX, netinfo.C, cImport, 100)}, nil))
	cExport := FixtureTxID(netinfo.C, 101)
	toX := NewUTXO(netinfo.C, cExport, 0, PAlice, 1_000_000, 101)
	toX.Exported, toX.DestinationChain = true, node.ChainID(netinfo.X)
	f.AddTx(IndexedTx(netinfo.C, 101, 0, &pdata.Tx{ID: cExport, Type: "ExportTx", DestinationChain: node.ChainID(netinfo.X),
		EVMInputs: []pdata.EVMAmount{{Address: Alice, Asset: fakenet.AVAXAssetID, Amount: 1_001_000}}}, nil, []pdata.IndexedUTXO{toX}))
}
