package handlers

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// A small C-chain history (EVM chain id 43112): alice deploys WAVAX, wraps
// and sends some, trades an NFT and an ERC-1155 item with bob, sends AVAX in
// an untraced legacy block and fails an approve. Its heights run 10..15.
var (
	alice   = common.HexToAddress(testEVMAddr)
	bob     = common.HexToAddress(testEVMAddr2)
	carol   = common.HexToAddress("0x00000000000000000000000000000000000ca401")
	wavax   = common.HexToAddress("0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7")
	kitties = common.HexToAddress("0x06012c8cf97BEaD5deAe237070F9587f8E7A266d")
	items   = common.HexToAddress("0x76BE3b62873462d2142405439777e971754E8E77")
	punks   = common.HexToAddress("0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB")
	child   = common.HexToAddress("0x9999999999999999999999999999999999999999")
	mystery = common.HexToAddress("0x8888888888888888888888888888888888888888")
)

const fixtureHeight = 15 // the C-chain's indexed height in the fixtures

func hashN(prefix byte, n uint64) common.Hash {
	return common.HexToHash(fmt.Sprintf("0x%02x%062x", prefix, n))
}

func txHashN(n uint64) common.Hash { return hashN(0x7a, n) }

func gwei(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1_000_000_000)) }

func avax(milli int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(milli), big.NewInt(1_000_000_000_000_000))
}

func blockRef(n uint64) evmdata.BlockRef {
	return evmdata.BlockRef{Number: n, Hash: hashN(0xb1, n), Timestamp: 1_700_000_000 + 2*n, BaseFee: gwei(25)}
}

func addrPtr(a common.Address) *common.Address { return &a }

// dynamicTx is an EIP-1559 transaction of alice's.
func dynamicTx(n uint64, index uint32, to *common.Address, input []byte) evmdata.Tx {
	return evmdata.Tx{
		Hash: txHashN(n), Index: index, Type: 2, From: alice, To: to, Nonce: n, Value: new(big.Int),
		Gas: 100_000, MaxFeePerGas: gwei(50), MaxPriorityFeePerGas: gwei(2), Input: input,
		Status: 1, GasUsed: 60_000, EffectiveGasPrice: gwei(27),
	}
}

// fixtureTxs is the C-chain history.
func fixtureTxs() []evmdata.IndexedTx {
	deploy := dynamicTx(1, 0, nil, common.FromHex("0x6080604052"))
	deploy.ContractAddress = addrPtr(wavax)
	deploy.Creations = []evmdata.ContractCreation{{Address: wavax, Deployer: alice}}

	wrap := dynamicTx(2, 1, addrPtr(wavax), common.FromHex("0xd0e30db0"))
	wrap.Value = avax(1000)
	wrap.Transfers = []evmdata.TokenTransfer{{LogIndex: 3, Token: wavax, Kind: evmdata.Erc20, To: alice, Value: avax(1000)}}

	send := dynamicTx(3, 0, addrPtr(wavax), common.FromHex("0xa9059cbb"+fmt.Sprintf("%064x%064x", bob.Big(), avax(500))))
	send.Transfers = []evmdata.TokenTransfer{{Token: wavax, Kind: evmdata.Erc20, From: alice, To: bob, Value: avax(500)}}

	trade := dynamicTx(4, 2, addrPtr(kitties), common.FromHex("0x42842e0e00"))
	trade.From = bob
	trade.Transfers = []evmdata.TokenTransfer{
		{LogIndex: 5, Token: kitties, Kind: evmdata.Erc721, From: bob, To: alice, TokenID: big.NewInt(7), Value: big.NewInt(1)},
		{LogIndex: 6, Token: items, Kind: evmdata.Erc1155, Operator: bob, From: bob, To: alice, TokenID: big.NewInt(3), Value: big.NewInt(10)},
		{LogIndex: 7, Token: wavax, Kind: evmdata.Erc20, From: bob, To: carol, Value: avax(1)},
	}
	trade.Internal = []evmdata.InternalTx{
		{Index: 1, Type: evmdata.Call, From: kitties, To: alice, Value: big.NewInt(1000), Gas: 2300, GasUsed: 0},
		{Index: 4, Type: evmdata.SelfDestruct, From: mystery, To: bob, Value: big.NewInt(5), Reverted: true},
	}

	legacy := evmdata.Tx{
		Hash: txHashN(5), Type: 0, From: alice, To: addrPtr(bob), Nonce: 5, Value: avax(2000), Gas: 21_000,
		GasPrice: gwei(25), Status: 1, GasUsed: 21_000,
	}
	failed := dynamicTx(6, 0, addrPtr(wavax), common.FromHex("0x095ea7b3ff"))
	failed.Status = 0

	untraced := blockRef(14)
	untraced.BaseFee = nil
	return []evmdata.IndexedTx{
		{Block: blockRef(10), Tx: deploy, Traced: true},
		{Block: blockRef(11), Tx: wrap, Traced: true},
		{Block: blockRef(12), Tx: send, Traced: true},
		{Block: blockRef(13), Tx: trade, Traced: true},
		{Block: untraced, Tx: legacy},
		{Block: blockRef(15), Tx: failed, Traced: true},
	}
}

func fixtureContracts() []evmdata.Contract {
	deployment := &evmdata.Deployment{
		ContractCreation: evmdata.ContractCreation{Address: wavax, Deployer: alice},
		TxHash:           txHashN(1), TxPos: evmdata.TxPos{Block: 10},
	}
	return []evmdata.Contract{
		{Address: wavax, Kind: evmdata.Erc20, Name: "Wrapped AVAX", Symbol: "WAVAX", Decimals: 18, HasDecimal: true,
			Deployment: deployment, MetadataRead: true},
		{Address: kitties, Kind: evmdata.Erc721, Name: "Kitties", Symbol: "KIT", MetadataRead: true},
		{Address: items, Kind: evmdata.Erc1155, Name: "Items", Symbol: "ITM", MetadataRead: true},
		{Address: punks, Kind: evmdata.Erc721, Name: "Punks", Symbol: "PNK", MetadataRead: true},
		{Address: child, Deployment: &evmdata.Deployment{
			ContractCreation: evmdata.ContractCreation{Address: child, Deployer: alice, DeployerContract: kitties},
			TxHash:           txHashN(4), TxPos: evmdata.TxPos{Block: 13, Index: 2}, Factory: true,
		}},
		{Address: mystery},
	}
}

// fixtureNFTs: alice holds kitties 7, 9 and 20, one punk and ten of items
// id 3; bob holds kitties 1.
func fixtureNFTs() []evmdata.NFT {
	kitty := func(id int64, owner common.Address) evmdata.NFT {
		return evmdata.NFT{Contract: kitties, Kind: evmdata.Erc721, TokenID: big.NewInt(id), Owner: owner, Balance: big.NewInt(1)}
	}
	k9 := kitty(9, alice)
	k9.Metadata = &evmdata.NFTMetadata{
		TokenURI: "ipfs://kitties/9", Status: evmdata.IndexStatusIndexed, UpdatedAt: 1_700_000_100,
		Name: "Kitty #9", ImageURI: "ipfs://img/9", Attributes: `[{"trait_type":"eyes","value":"green"}]`,
	}
	return []evmdata.NFT{
		kitty(7, alice), k9, kitty(20, alice), kitty(1, bob),
		{Contract: punks, Kind: evmdata.Erc721, TokenID: big.NewInt(1), Owner: alice, Balance: big.NewInt(1)},
		{Contract: items, Kind: evmdata.Erc1155, TokenID: big.NewInt(3), Owner: alice, Balance: big.NewInt(10)},
	}
}

// withFixtures loads the fixtures into backend and reports the followers.
func withFixtures(t *testing.T, backend *fakeBackend) *fakeBackend {
	t.Helper()
	f := backend.evm
	for _, tx := range fixtureTxs() {
		f.addTx(netinfo.C, tx)
	}
	for _, c := range fixtureContracts() {
		f.addContract(netinfo.C, c)
	}
	f.nfts[netinfo.C] = fixtureNFTs()
	f.holders[netinfo.C] = map[common.Address][]evmdata.Holder{
		kitties: {{Address: carol, Tokens: 2}, {Address: alice, Tokens: 3}, {Address: bob, Tokens: 1}},
	}
	f.colls[netinfo.C] = map[common.Address]evmdata.Collection{kitties: {Holders: 3, Tokens: 6}}
	f.balances[alice] = avax(12_500)

	subnetTx := evmdata.Tx{Hash: txHashN(100), From: alice, To: addrPtr(bob), Value: avax(1), Gas: 21_000,
		GasPrice: gwei(1), EffectiveGasPrice: gwei(1), Status: 1, GasUsed: 21_000}
	f.addTx(testSubnetChain, evmdata.IndexedTx{Block: blockRef(3), Tx: subnetTx, Traced: true})

	loadPrimaryFixtures(backend.primary)
	loadStakingFixtures(backend)
	backend.setIndexedHeight(netinfo.C, fixtureHeight)
	backend.setIndexedHeight(testSubnetChain, 3)
	return backend
}
