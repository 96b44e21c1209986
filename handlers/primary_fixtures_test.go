package handlers

import (
	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/indexer/netinfo"
	"github.com/avadata/avadata/indexer/pdata"
)

// A small primary-network history on the local network. pAlice imports
// AVAX from the X-chain, validates (with a reward at the end), creates a
// subnet and a chain, converts the subnet to an L1 and tops up its
// validator; pBob makes pagingTxs BaseTxs. On the X-chain the genesis
// creates AVAX and pAlice mints an NFT and exports to the P-chain; on the
// C-chain alice (0x) imports from and exports to the X-chain.
var (
	pAlice         = shortAddr(0xa1)
	pBob           = shortAddr(0xb0)
	cAlice         = ids.ShortID(alice)
	testNFTAsset   = ids.ID{'n', 'f', 't'}
	testValidation = ids.ID{'v', 'a', 'l'}
	testProposer   = ids.BuildTestNodeID([]byte{1, 2, 3}) // testNodeID
	testL1Subnet   = ids.ID{'l', '1'}
)

const (
	pGenesisTime = 1_600_000_000
	pagingTxs    = 25 // pBob's BaseTxs at P heights 10..34
)

// shortAddr is the address whose bytes are seed, seed+1, ... (as bech32Addr).
func shortAddr(seed byte) ids.ShortID {
	var a ids.ShortID
	for i := range a {
		a[i] = seed + byte(i)
	}
	return a
}

func blockTime(h uint64) int64 { return pGenesisTime + 10*int64(h) }

func fixtureTxID(chain netinfo.Chain, n uint64) ids.ID { return ids.ID{'t', byte(chain)}.Prefix(n) }

func fixtureBlockID(chain netinfo.Chain, h uint64) ids.ID { return ids.ID{'b', byte(chain)}.Prefix(h) }

// newUTXO is output idx of tx on chain at height, owned by owner.
func newUTXO(chain netinfo.Chain, tx ids.ID, idx uint32, owner ids.ShortID, amount, height uint64) pdata.IndexedUTXO {
	return pdata.IndexedUTXO{
		UTXO: pdata.UTXO{
			ID: tx.Prefix(uint64(idx)), TxID: tx, OutputIndex: idx, Asset: testAVAXAssetID, Amount: amount,
			Owners: pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{owner}}, Bytes: []byte{0, 0, byte(idx)},
			OutputType: "secp256k1fx.TransferOutput",
		},
		CreatedOn: chain, CreatingTx: tx, CreatedHeight: height, CreatedTime: blockTime(height),
	}
}

func spent(u pdata.IndexedUTXO, chain netinfo.Chain, tx ids.ID, height uint64) pdata.IndexedUTXO {
	u.ConsumedOn, u.ConsumingTx, u.ConsumingHeight, u.ConsumingTime = chain, tx, height, blockTime(height)
	return u
}

func indexedTx(chain netinfo.Chain, height uint64, index uint32, tx *pdata.Tx, consumed, produced []pdata.IndexedUTXO) pdata.IndexedTx {
	return pdata.IndexedTx{
		Chain: chain, Pos: pdata.TxPos{Height: height, Index: index}, BlockID: fixtureBlockID(chain, height),
		BlockTime: blockTime(height), Tx: tx, Consumed: consumed, Produced: produced,
	}
}

func loadPrimaryFixtures(f *fakePrimary) {
	node := localInfo()
	f.assets[testAVAXAssetID] = pdata.Asset{ID: testAVAXAssetID, Name: "Avalanche", Symbol: "AVAX", Denomination: 9, Type: "secp256k1"}
	f.assets[testNFTAsset] = pdata.Asset{ID: testNFTAsset, Name: "Kitties", Symbol: "KIT", Type: "nft"}

	// X-chain: genesis, an NFT mint, an export of 1 AVAX to the P-chain.
	xGenesis := fixtureTxID(netinfo.X, 0)
	xGenesisOut := newUTXO(netinfo.X, xGenesis, 0, pAlice, 5_000_000_000, 0)
	xExport := fixtureTxID(netinfo.X, 2)
	pImport := fixtureTxID(netinfo.P, 1)
	f.addTx(indexedTx(netinfo.X, 0, 0, &pdata.Tx{ID: xGenesis, Type: "CreateAssetTx", Memo: []byte("genesis"),
		Asset: &pdata.Asset{ID: testAVAXAssetID, Name: "Avalanche", Symbol: "AVAX", Denomination: 9, Type: "secp256k1"}},
		nil, []pdata.IndexedUTXO{spent(xGenesisOut, netinfo.X, xExport, 2)}))
	nftTx := fixtureTxID(netinfo.X, 1)
	nft := newUTXO(netinfo.X, nftTx, 0, pAlice, 0, 1)
	nft.Asset, nft.OutputType, nft.Payload, nft.GroupID = testNFTAsset, "nftfx.TransferOutput", []byte("kitty"), 7
	f.addTx(indexedTx(netinfo.X, 1, 0, &pdata.Tx{ID: nftTx, Type: "OperationTx"}, nil, []pdata.IndexedUTXO{nft}))
	exported := newUTXO(netinfo.X, xExport, 1, pAlice, 1_000_000_000, 2)
	exported.Exported = true // to the P-chain, whose ID is ids.Empty
	change := newUTXO(netinfo.X, xExport, 0, pAlice, 3_999_000_000, 2)
	f.addTx(indexedTx(netinfo.X, 2, 0, &pdata.Tx{ID: xExport, Type: "ExportTx", DestinationChain: node.ChainID(netinfo.P)},
		[]pdata.IndexedUTXO{spent(xGenesisOut, netinfo.X, xExport, 2)},
		[]pdata.IndexedUTXO{change, spent(exported, netinfo.P, pImport, 1)}))

	loadPChainFixtures(f, node, spent(exported, netinfo.P, pImport, 1))
	loadCChainFixtures(f, node)
}

func loadPChainFixtures(f *fakePrimary, node netinfo.Info, imported pdata.IndexedUTXO) {
	pImport := fixtureTxID(netinfo.P, 1)
	importOut := newUTXO(netinfo.P, pImport, 0, pAlice, 999_000_000, 1)
	stakeTx := fixtureTxID(netinfo.P, 2)
	f.addTx(indexedTx(netinfo.P, 1, 0, &pdata.Tx{ID: pImport, Type: "ImportTx", SourceChain: node.ChainID(netinfo.X),
		Memo: []byte("hi")}, []pdata.IndexedUTXO{imported}, []pdata.IndexedUTXO{spent(importOut, netinfo.P, stakeTx, 2)}))

	stake := newUTXO(netinfo.P, stakeTx, 1, pAlice, 500_000_000, 2)
	stake.Kind, stake.StakeStart, stake.StakeEnd = pdata.KindStake, blockTime(2), blockTime(5)
	stakeChange := newUTXO(netinfo.P, stakeTx, 0, pAlice, 498_000_000, 2)
	stakeChange.StakeableLocktime = 1_700_000_000
	owner := &pdata.Owners{Threshold: 1, Addrs: []ids.ShortID{pAlice}}
	f.addTx(indexedTx(netinfo.P, 2, 0, &pdata.Tx{ID: stakeTx, Type: "AddPermissionlessValidatorTx", Staker: &pdata.Staker{
		NodeID: testProposer, Start: blockTime(2), End: blockTime(5), Weight: 500_000_000, DelegationShares: 20_000,
		RewardsOwner: owner, DelegationRewardsOwner: owner, BLSPublicKey: []byte{0xb1, 0x5}, BLSProofOfPossession: []byte{0x90, 0x9},
	}}, []pdata.IndexedUTXO{spent(importOut, netinfo.P, stakeTx, 2)}, []pdata.IndexedUTXO{stakeChange, stake}))

	subnetTx := fixtureTxID(netinfo.P, 3)
	f.addTx(indexedTx(netinfo.P, 3, 0, &pdata.Tx{ID: subnetTx, Type: "CreateSubnetTx", Subnet: subnetTx, SubnetOwner: owner}, nil, nil))
	f.addTx(indexedTx(netinfo.P, 3, 1, &pdata.Tx{ID: fixtureTxID(netinfo.P, 31), Type: "CreateChainTx", Subnet: subnetTx,
		Blockchain: &pdata.Blockchain{ID: fixtureTxID(netinfo.P, 31), Name: "dispatch", VMID: ids.ID{'v', 'm'},
			Genesis: []byte(`{"config": {"chainId": 779672}, "gasLimit": "0x7A1200"}`)}}, nil, nil))

	convert := newUTXO(netinfo.P, fixtureTxID(netinfo.P, 4), 0, pAlice, 1000, 4)
	l1 := pdata.L1Validator{ValidationID: testValidation, NodeID: testProposer, Subnet: testL1Subnet, Weight: 100, Balance: 100,
		BLSPublicKey: []byte{1}, BLSProofOfPossession: []byte{2}}
	f.addTx(indexedTx(netinfo.P, 4, 0, &pdata.Tx{ID: fixtureTxID(netinfo.P, 4), Type: "ConvertSubnetToL1Tx", Subnet: testL1Subnet,
		L1Validators: []pdata.L1Validator{l1}, L1Manager: &pdata.L1Manager{BlockchainID: ids.ID{'m'}, Address: alice.Bytes()}},
		[]pdata.IndexedUTXO{newUTXO(netinfo.P, fixtureTxID(netinfo.P, 40), 0, pAlice, 2000, 0)}, []pdata.IndexedUTXO{convert}))

	reward := newUTXO(netinfo.P, stakeTx, 2, pAlice, 7_000, 5)
	reward.Kind, reward.RewardType, reward.CreatingTx = pdata.KindReward, pdata.RewardValidator, fixtureTxID(netinfo.P, 5)
	reward.StakeStart, reward.StakeEnd = blockTime(2), blockTime(5)
	f.addTx(indexedTx(netinfo.P, 5, 0, &pdata.Tx{ID: fixtureTxID(netinfo.P, 5), Type: "RewardValidatorTx", RewardOf: stakeTx,
		Unstaked: []ids.ID{stake.ID}}, nil, []pdata.IndexedUTXO{reward}))

	top := pdata.L1Validator{ValidationID: testValidation, BalanceChange: 50}
	f.addTx(indexedTx(netinfo.P, 6, 0, &pdata.Tx{ID: fixtureTxID(netinfo.P, 6), Type: "IncreaseL1ValidatorBalanceTx",
		ValidationID: testValidation, L1Validators: []pdata.L1Validator{top}},
		[]pdata.IndexedUTXO{spent(convert, netinfo.P, fixtureTxID(netinfo.P, 6), 6)},
		[]pdata.IndexedUTXO{newUTXO(netinfo.P, fixtureTxID(netinfo.P, 6), 0, pAlice, 940, 6)}))

	for i := range uint64(pagingTxs) {
		h := 10 + i
		id := fixtureTxID(netinfo.P, 100+i)
		f.addTx(indexedTx(netinfo.P, h, 0, &pdata.Tx{ID: id, Type: "BaseTx"},
			[]pdata.IndexedUTXO{newUTXO(netinfo.P, ids.ID{'g'}, uint32(i), pBob, 10, 0)},
			[]pdata.IndexedUTXO{newUTXO(netinfo.P, id, 0, pBob, 9, h)}))
	}

	for h := uint64(1); h <= 6; h++ {
		b := pdata.IndexedBlock{Chain: netinfo.P, Number: h, ID: fixtureBlockID(netinfo.P, h), ParentID: fixtureBlockID(netinfo.P, h-1),
			Time: blockTime(h), Type: "BanffStandardBlock", Size: 300 + int(h), TxIDs: []ids.ID{fixtureTxID(netinfo.P, h)},
			Proposer: &pdata.Proposer{ID: fixtureBlockID(netinfo.P, h), ParentID: fixtureBlockID(netinfo.P, h-1),
				NodeID: testProposer, PChainHeight: h - 1, Timestamp: blockTime(h)}}
		if h == 6 {
			b.Proposer.NodeID = ids.BuildTestNodeID([]byte{9}) // another node's
		}
		f.addBlock(b)
	}

	f.balances[netinfo.P] = map[ids.ShortID][]pdata.BalanceEntry{pAlice: {
		{Category: pdata.UnlockedUnstaked, Asset: testAVAXAssetID, Amount: 940, UTXOs: 1},
		{Category: pdata.LockedStakeable, Asset: testAVAXAssetID, Amount: 498_000_000, UTXOs: 1},
		{Category: pdata.AtomicMemoryUnlocked, Asset: testAVAXAssetID, Amount: 5, UTXOs: 1, SharedWith: node.ChainID(netinfo.X)},
	}}
	f.balances[netinfo.X] = map[ids.ShortID][]pdata.BalanceEntry{pAlice: {
		{Category: pdata.UnlockedUnstaked, Asset: testAVAXAssetID, Amount: 3_999_000_000, UTXOs: 1},
		{Category: pdata.UnlockedUnstaked, Asset: testNFTAsset, Amount: 0, UTXOs: 1},
		{Category: pdata.LockedPlatform, Asset: testAVAXAssetID, Amount: 1, UTXOs: 1},
		{Category: pdata.LockedStakeable, Asset: testAVAXAssetID, Amount: 2, UTXOs: 1},
	}}
	f.balances[netinfo.C] = map[ids.ShortID][]pdata.BalanceEntry{cAlice: {
		{Category: pdata.AtomicMemoryLocked, Asset: testAVAXAssetID, Amount: 3, UTXOs: 2, SharedWith: node.ChainID(netinfo.X)},
		{Category: pdata.UnlockedUnstaked, Asset: testAVAXAssetID, Amount: 99, UTXOs: 1}, // not a C-chain category
	}}
}

func loadCChainFixtures(f *fakePrimary, node netinfo.Info) {
	cImport := fixtureTxID(netinfo.C, 100)
	fromX := newUTXO(netinfo.X, fixtureTxID(netinfo.X, 9), 0, pAlice, 2_000_000, 3)
	fromX.Exported, fromX.DestinationChain = true, node.ChainID(netinfo.C)
	f.addTx(indexedTx(netinfo.C, 100, 0, &pdata.Tx{ID: cImport, Type: "ImportTx", SourceChain: node.ChainID(netinfo.X),
		EVMOutputs: []pdata.EVMAmount{{Address: alice, Asset: testAVAXAssetID, Amount: 1_999_000}}},
		[]pdata.IndexedUTXO{spent(fromX, netinfo.C, cImport, 100)}, nil))
	cExport := fixtureTxID(netinfo.C, 101)
	toX := newUTXO(netinfo.C, cExport, 0, pAlice, 1_000_000, 101)
	toX.Exported, toX.DestinationChain = true, node.ChainID(netinfo.X)
	f.addTx(indexedTx(netinfo.C, 101, 0, &pdata.Tx{ID: cExport, Type: "ExportTx", DestinationChain: node.ChainID(netinfo.X),
		EVMInputs: []pdata.EVMAmount{{Address: alice, Asset: testAVAXAssetID, Amount: 1_001_000}}}, nil, []pdata.IndexedUTXO{toX}))
}
