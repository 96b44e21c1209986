package contracts

import (
	"math/big"
	"testing"

	"github.com/ava-labs/libevm/common"
	"github.com/ava-labs/libevm/core/vm"
	"github.com/stretchr/testify/require"
)

func TestLoadAll(t *testing.T) {
	want := []string{NameChild, NameFactory, NameForwarder, NameReverter, NameTestERC1155, NameTestERC20, NameTestERC721,
		NameTestRebasingERC20}
	require.Equal(t, want, Names())
	for _, name := range want {
		a, err := Load(name)
		require.NoError(t, err, name)
		require.Equal(t, name, a.Name)
		require.NotEmpty(t, a.Bytecode, name)
		require.NotEmpty(t, a.DeployedBytecode, name)
	}
	_, err := Load("Nope")
	require.ErrorContains(t, err, `no artifact "Nope"`)
}

// The brief of these contracts: the methods the e2e tests call must exist
// with these exact signatures.
func TestMethods(t *testing.T) {
	for name, sigs := range map[string][]string{
		NameTestERC20: {"mint(address,uint256)", "transfer(address,uint256)", "approve(address,uint256)",
			"transferFrom(address,address,uint256)", "decimals()", "balanceOf(address)"},
		NameTestERC721: {"mint(address)", "tokenURI(uint256)", "safeTransferFrom(address,address,uint256)",
			"safeTransferFrom(address,address,uint256,bytes)", "transferFrom(address,address,uint256)",
			"approve(address,uint256)", "setApprovalForAll(address,bool)", "supportsInterface(bytes4)"},
		NameTestERC1155: {"uri(uint256)", "mint(address,uint256,uint256)", "mintBatch(address,uint256[],uint256[])",
			"safeTransferFrom(address,address,uint256,uint256,bytes)",
			"safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)"},
		NameFactory:   {"create(bytes32)", "predict(bytes32,uint256)"},
		NameForwarder: {"forward(address)", "split(address,address)"},
		NameReverter:  {"alwaysRevert()", "tryInner()", "REASON()"},
		NameTestRebasingERC20: {"mint(address,uint256)", "transfer(address,uint256)", "rebase(uint256)",
			"balanceOf(address)", "decimals()", "name()", "symbol()"},
	} {
		a := MustLoad(name)
		var have []string
		for _, m := range a.ABI.Methods {
			have = append(have, m.Sig)
		}
		for _, sig := range sigs {
			require.Contains(t, have, sig, "%s.%s", name, sig)
		}
	}
}

// paris bytecode has no PUSH0 (Shanghai), so it runs on EVM chains that have
// not activated Shanghai. The walk skips PUSH immediates and stops before
// the CBOR metadata that solc appends (its length is the last two bytes).
func TestNoPush0(t *testing.T) {
	for _, name := range Names() {
		a := MustLoad(name)
		for _, code := range [][]byte{a.Bytecode, a.DeployedBytecode} {
			n := len(code)
			require.Greater(t, n, 2, name)
			meta := int(code[n-2])<<8 | int(code[n-1])
			code = code[:n-2-meta]
			for pc := 0; pc < len(code); pc++ {
				op := vm.OpCode(code[pc])
				require.NotEqual(t, vm.PUSH0, op, "%s: PUSH0 at %d", name, pc)
				if op >= vm.PUSH1 && op <= vm.PUSH32 {
					pc += int(op - vm.PUSH1 + 1)
				}
			}
		}
	}
}

// An ERC-20 Transfer has 3 topics and an ERC-721 Transfer 4: the same
// event signature, told apart by which arguments are indexed.
func TestTransferTopicCounts(t *testing.T) {
	erc20, erc721 := TestERC20(), TestERC721()
	id20, err := erc20.EventID("Transfer")
	require.NoError(t, err)
	id721, err := erc721.EventID("Transfer")
	require.NoError(t, err)
	require.Equal(t, id20, id721)

	from, to := common.HexToAddress("0x01"), common.HexToAddress("0x02")
	amount := common.BigToHash(common.Big3)
	got, err := erc20.ParseEvent("Transfer", []common.Hash{id20, common.BytesToHash(from[:]), common.BytesToHash(to[:])}, amount[:])
	require.NoError(t, err)
	require.Equal(t, to, got["to"])
	require.Equal(t, big.NewInt(3), got["value"])

	_, err = erc721.ParseEvent("Transfer", []common.Hash{id20, common.BytesToHash(from[:]), common.BytesToHash(to[:])}, amount[:])
	require.Error(t, err, "a 3-topic log is not an ERC-721 Transfer")

	out, err := erc721.ParseEvent("Transfer", []common.Hash{id721, common.BytesToHash(from[:]), common.BytesToHash(to[:]), amount}, nil)
	require.NoError(t, err)
	require.Equal(t, from, out["from"])
	require.Equal(t, big.NewInt(3), out["tokenId"])
}

func TestDeployData(t *testing.T) {
	a := TestERC20()
	data, err := a.DeployData("Token", "TOK")
	require.NoError(t, err)
	require.Equal(t, a.Bytecode, data[:len(a.Bytecode)])
	require.Greater(t, len(data), len(a.Bytecode))
	_, err = a.DeployData("only one")
	require.Error(t, err)
}

func TestMethodName(t *testing.T) {
	a := TestERC721()
	plain, err := a.MethodName("safeTransferFrom(address,address,uint256)")
	require.NoError(t, err)
	withData, err := a.MethodName("safeTransferFrom(address,address,uint256,bytes)")
	require.NoError(t, err)
	require.NotEqual(t, plain, withData)
	require.Len(t, a.ABI.Methods[withData].Inputs, 4)
	_, err = a.MethodName("nope()")
	require.Error(t, err)
}
