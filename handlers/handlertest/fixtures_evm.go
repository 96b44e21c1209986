package handlertest

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// A small C-chain history (EVM chain id 43112): Alice deploys WAVAX, wraps
// and sends some, trades an NFT and an ERC-1155 item with Bob, sends AVAX in
// an untraced legacy block and fails an approve. Its heights run 10..15.
var (
	Alice   = common.HexToAddress(EVMAddr)
	Bob     = common.HexToAddress(EVMAddr2)
	Carol   = common.HexToAddress("0x00000000000000000000000000000000000ca401")
	Wavax   = common.HexToAddress("0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7")
	Kitties = common.HexToAddress("0x06012c8cf97BEaD5deAe237070F9587f8E7A266d")
	Items   = common.HexToAddress("0x76BE3b62873462d2142405439777e971754E8E77")
	Punks   = common.HexToAddress("0xb47e3cd837dDF8e4c57F05d70Ab865de6e193BBB")
	Child   = common.HexToAddress("0x9999999999999999999999999999999999999999")
	Mystery = common.HexToAddress("0x8888888888888888888888888888888888888888")
)

const FixtureHeight = 15 // the C-chain's indexed height in the fixtures

func HashN(prefix byte, n uint64) common.Hash {
	return common.HexToHash(fmt.Sprintf("0x%02x%062x", prefix, n))
}

func TxHashN(n uint64) common.Hash { return HashN(0x7a, n) }

func Gwei(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1_000_000_000)) }

func Avax(milli int64) *big.Int {
	return new(big.Int).Mul(big.NewInt(milli), big.NewInt(1_000_000_000_000_000))
}

func BlockRef(n uint64) evmdata.BlockRef {
	return evmdata.BlockRef{Number: n, Hash: HashN(0xb1, n), Timestamp: 1_700_000_000 + 2*n, BaseFee: Gwei(25)}
}

func AddrPtr(a common.Address) *common.Address { return &a }

// DynamicTx is an EIP-1559 transaction of Alice's.
func DynamicTx(n uint64, index uint32, to *common.Address, input []byte) evmdata.Tx {
	return evmdata.Tx{
		Hash: TxHashN(n), Index: index, Type: 2, From: Alice, To: to, Nonce: n, Value: new(big.Int),
		Gas: 100_000, MaxFeePerGas: Gwei(50), MaxPriorityFeePerGas: Gwei(2), Input: input,
		Status: 1, GasUsed: 60_000, EffectiveGasPrice: Gwei(27),
	}
}

// FixtureTxs is the C-chain history.
func FixtureTxs() []evmdata.IndexedTx {
	deploy := DynamicTx(1, 0, nil, common.FromHex("0x6080604052"))
	deploy.ContractAddress = AddrPtr(Wavax)
	deploy.Creations = []evmdata.ContractCreation{{Address: Wavax, Deployer: Alice}}

	wrap := DynamicTx(2, 1, AddrPtr(Wavax), common.FromHex("0xd0e30db0"))
	wrap.Value = Avax(1000)
	wrap.Transfers = []evmdata.TokenTransfer{{LogIndex: 3, Token: Wavax, Kind: evmdata.Erc20, To: Alice, Value: Avax(1000)}}

	send := DynamicTx(3, 0, AddrPtr(Wavax), common.FromHex("0xa9059cbb"+fmt.Sprintf("%064x%064x", Bob.Big(), Avax(500))))
	send.Transfers = []evmdata.TokenTransfer{{Token: Wavax, Kind: evmdata.Erc20, From: Alice, To: Bob, Value: Avax(500)}}

	trade := DynamicTx(4, 2, AddrPtr(Kitties), common.FromHex("0x42842e0e00"))
	trade.From = Bob
	trade.Transfers = []evmdata.TokenTransfer{
		{LogIndex: 5, Token: Kitties, Kind: evmdata.Erc721, From: Bob, To: Alice, TokenID: big.NewInt(7), Value: big.NewInt(1)},
		{LogIndex: 6, Token: Items, Kind: evmdata.Erc1155, Operator: Bob, From: Bob, To: Alice, TokenID: big.NewInt(3), Value: big.NewInt(10)},
		{LogIndex: 7, Token: Wavax, Kind: evmdata.Erc20, From: Bob, To: Carol, Value: Avax(1)},
	}
	trade.Internal = []evmdata.InternalTx{
		{Index: 1, Type: evmdata.Call, From: Kitties, To: Alice, Value: big.NewInt(1000), Gas: 2300, GasUsed: 0},
		{Index: 4, Type: evmdata.SelfDestruct, From: Mystery, To: Bob, Value: big.NewInt(5), Reverted: true},
	}

	legacy := evmdata.Tx{
		Hash: TxHashN(5), Type: 0, From: Alice, To: AddrPtr(Bob), Nonce: 5, Value: Avax(2000), Gas: 21_000,
		GasPrice: Gwei(25), Status: 1, GasUsed: 21_000,
	}
	failed := DynamicTx(6, 0, AddrPtr(Wavax), common.FromHex("0x095ea7b3ff"))
	failed.Status = 0

	untraced := BlockRef(14)
	untraced.BaseFee = nil
	return []evmdata.IndexedTx{
		{Block: BlockRef(10), Tx: deploy, Traced: true},
		{Block: BlockRef(11), Tx: wrap, Traced: true},
		{Block: BlockRef(12), Tx: send, Traced: true},
		{Block: BlockRef(13), Tx: trade, Traced: true},
		{Block: untraced, Tx: legacy},
		{Block: BlockRef(15), Tx: failed, Traced: true},
	}
}

func FixtureContracts() []evmdata.Contract {
	deployment := &evmdata.Deployment{
		ContractCreation: evmdata.ContractCreation{Address: Wavax, Deployer: Alice},
		TxHash:           TxHashN(1), TxPos: evmdata.TxPos{Block: 10},
	}
	return []evmdata.Contract{
		{Address: Wavax, Kind: evmdata.Erc20, Name: "Wrapped AVAX", Symbol: "WAVAX", Decimals: 18, HasDecimal: true,
			Deployment: deployment, MetadataRead: true},
		{Address: Kitties, Kind: evmdata.Erc721, Name: "Kitties", Symbol: "KIT", MetadataRead: true},
		{Address: Items, Kind: evmdata.Erc1155, Name: "Items", Symbol: "ITM", MetadataRead: true},
		{Address: Punks, Kind: evmdata.Erc721, Name: "Punks", Symbol: "PNK", MetadataRead: true},
		{Address: Child, Deployment: &evmdata.Deployment{
			ContractCreation: evmdata.ContractCreation{Address: Child, Deployer: Alice, DeployerContract: Kitties},
			TxHash:           TxHashN(4), TxPos: evmdata.TxPos{Block: 13, Index: 2}, Factory: true,
		}},
		{Address: Mystery},
	}
}

// FixtureNFTs: Alice holds Kitties 7, 9 and 20, one punk and ten of Items
// id 3; Bob holds Kitties 1.
func FixtureNFTs() []evmdata.NFT {
	kitty := func(id int64, owner common.Address) evmdata.NFT {
		return evmdata.NFT{Contract: Kitties, Kind: evmdata.Erc721, TokenID: big.NewInt(id), Owner: owner, Balance: big.NewInt(1)}
	}
	k9 := kitty(9, Alice)
	k9.Metadata = &evmdata.NFTMetadata{
		TokenURI: "ipfs://kitties/9", Status: evmdata.IndexStatusIndexed, UpdatedAt: 1_700_000_100,
		Name: "Kitty #9", ImageURI: "ipfs://img/9", Attributes: `[{"trait_type":"eyes","value":"green"}]`,
	}
	return []evmdata.NFT{
		kitty(7, Alice), k9, kitty(20, Alice), kitty(1, Bob),
		{Contract: Punks, Kind: evmdata.Erc721, TokenID: big.NewInt(1), Owner: Alice, Balance: big.NewInt(1)},
		{Contract: Items, Kind: evmdata.Erc1155, TokenID: big.NewInt(3), Owner: Alice, Balance: big.NewInt(10)},
	}
}

// WithFixtures loads the fixtures of every domain (EVM, primary network,
// staking) into backend and reports the followers.
func WithFixtures(t *testing.T, backend *Fakes) *Fakes {
	t.Helper()
	f := backend.EVM
	for _, tx := range FixtureTxs() {
		f.AddTx(netinfo.C, tx)
	}
	for _, c := range FixtureContracts() {
		f.AddContract(netinfo.C, c)
	}
	f.Nfts[netinfo.C] = FixtureNFTs()
	f.HolderLists[netinfo.C] = map[common.Address][]evmdata.Holder{
		Kitties: {{Address: Carol, Tokens: 2}, {Address: Alice, Tokens: 3}, {Address: Bob, Tokens: 1}},
	}
	f.Colls[netinfo.C] = map[common.Address]evmdata.Collection{Kitties: {Holders: 3, Tokens: 6}}
	f.Balances[Alice] = Avax(12_500)

	subnetTx := evmdata.Tx{Hash: TxHashN(100), From: Alice, To: AddrPtr(Bob), Value: Avax(1), Gas: 21_000,
		GasPrice: Gwei(1), EffectiveGasPrice: Gwei(1), Status: 1, GasUsed: 21_000}
	f.AddTx(fakenet.SubnetChain, evmdata.IndexedTx{Block: BlockRef(3), Tx: subnetTx, Traced: true})

	LoadPrimaryFixtures(backend.Primary)
	LoadStakingFixtures(backend)
	backend.SetIndexedHeight(netinfo.C, FixtureHeight)
	backend.SetIndexedHeight(fakenet.SubnetChain, 3)
	return backend
}
