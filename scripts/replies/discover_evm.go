package replies

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/graft/coreth/precompile/contracts/warp"
	"github.com/ava-labs/libevm/common"
)

// hexUint is a JSON quantity of the eth API ("0x1a").
type hexUint uint64

func (h *hexUint) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("quantity %s: %w", b, err)
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
	if err != nil {
		return fmt.Errorf("quantity %q: %w", s, err)
	}
	*h = hexUint(v)
	return nil
}

// evmTx and evmReceipt are the members of eth_getBlockByNumber's
// transactions and of eth_getTransactionReceipt that discovery reads.
type evmTx struct {
	Hash  string  `json:"hash"`
	To    *string `json:"to"`
	Input string  `json:"input"`
	Type  string  `json:"type"`
}

type evmReceipt struct {
	ContractAddress *string `json:"contractAddress"`
	Logs            []struct {
		Address string `json:"address"`
		Data    string `json:"data"`
	} `json:"logs"`
}

// evmScan is what discovery found in the C-chain's blocks.
type evmScan struct {
	// deployed are the contracts the seed created, in order, with the
	// hash of the transaction that created each.
	deployed []deployment
	// firstCallBlock is the block of the first call to each contract.
	firstCallBlock map[string]uint64
	// lastCall is the hash of the last call to each contract.
	lastCall map[string]string
}

type deployment struct {
	address, txHash string
	block           uint64
}

// discoverEVM reads every block of the C-chain with its receipts: the
// seed's contracts, its native transfers (and so the recipient), its token
// calls and its warp message.
func discoverEVM(ctx context.Context, c *Client, ids map[string]string) error {
	var head hexUint
	if err := c.nodeCall(ctx, "/ext/bc/C/rpc", "eth_blockNumber", []any{}, &head); err != nil {
		return err
	}
	ids["cHead"] = strconv.FormatUint(uint64(head), 10)
	scan := evmScan{firstCallBlock: make(map[string]uint64), lastCall: make(map[string]string)}
	for n := uint64(1); n <= uint64(head); n++ {
		if err := scan.block(ctx, c, n, ids); err != nil {
			return err
		}
	}
	for _, want := range []string{"nativeTx", "legacyTx", "recipient.evm", "warpTx", "warpMessage"} {
		if ids[want] == "" {
			return fmt.Errorf("the C-chain's %d blocks hold no %s of the seed", head, want)
		}
	}
	return scan.classify(ctx, c, ids)
}

// block reads block n's transactions and their receipts.
func (s *evmScan) block(ctx context.Context, c *Client, n uint64, ids map[string]string) error {
	var block struct {
		Transactions []evmTx `json:"transactions"`
	}
	if err := c.nodeCall(ctx, "/ext/bc/C/rpc", "eth_getBlockByNumber", []any{"0x" + strconv.FormatUint(n, 16), true}, &block); err != nil {
		return err
	}
	for _, tx := range block.Transactions {
		var receipt evmReceipt
		if err := c.nodeCall(ctx, "/ext/bc/C/rpc", "eth_getTransactionReceipt", []any{tx.Hash}, &receipt); err != nil {
			return err
		}
		switch {
		case tx.To == nil && receipt.ContractAddress != nil:
			address := common.HexToAddress(*receipt.ContractAddress).Hex()
			s.deployed = append(s.deployed, deployment{address: address, txHash: tx.Hash, block: n})
		case tx.To == nil:
			return fmt.Errorf("transaction %s creates no contract", tx.Hash)
		case common.HexToAddress(*tx.To) == warp.ContractAddress:
			msg, err := warpMessage(receipt)
			if err != nil {
				return fmt.Errorf("transaction %s: %w", tx.Hash, err)
			}
			ids["warpTx"], ids["warpMessage"], ids["warpBlock"] = tx.Hash, msg, strconv.FormatUint(n, 10)
		case tx.Input == "0x" || tx.Input == "":
			s.nativeTransfer(tx, n, ids)
		default:
			to := common.HexToAddress(*tx.To).Hex()
			if _, seen := s.firstCallBlock[to]; !seen {
				s.firstCallBlock[to] = n
			}
			s.lastCall[to] = tx.Hash
		}
	}
	return nil
}

// nativeTransfer notes the seed's native transfers to the recipient: one
// typed (EIP-1559) and one legacy.
func (s *evmScan) nativeTransfer(tx evmTx, n uint64, ids map[string]string) {
	ids["recipient.evm"] = common.HexToAddress(*tx.To).Hex()
	name := "nativeTx"
	if tx.Type == "0x0" {
		name = "legacyTx"
	}
	if ids[name] == "" {
		ids[name], ids[name+"Block"] = tx.Hash, strconv.FormatUint(n, 10)
	}
}

// warpMessage returns the unsigned warp message, hex, of the precompile's
// SendWarpMessage log.
func warpMessage(receipt evmReceipt) (string, error) {
	for _, log := range receipt.Logs {
		if common.HexToAddress(log.Address) != warp.ContractAddress {
			continue
		}
		data, err := hex.DecodeString(strings.TrimPrefix(log.Data, "0x"))
		if err != nil {
			return "", fmt.Errorf("decoding the warp log's data: %w", err)
		}
		msg, err := warp.UnpackSendWarpEventDataToMessage(data)
		if err != nil {
			return "", fmt.Errorf("unpacking the warp message: %w", err)
		}
		return hex.EncodeToString(msg.Bytes()), nil
	}
	return "", fmt.Errorf("no log of the warp precompile")
}

// classify names the seed's contracts by the standard avadata's contract
// metadata gives them: erc20, erc721, erc1155, each with its deployment and
// last call.
func (s *evmScan) classify(ctx context.Context, c *Client, ids map[string]string) error {
	names := map[string]string{"ERC-20": "erc20", "ERC-721": "erc721", "ERC-1155": "erc1155"}
	for _, d := range s.deployed {
		var meta struct {
			ErcType string `json:"ercType"`
		}
		if err := c.apiGet(ctx, "/v1/chains/"+ids["cChainEvmId"]+"/addresses/"+d.address, &meta); err != nil {
			return err
		}
		name, ok := names[meta.ErcType]
		if !ok || ids[name] != "" {
			continue
		}
		ids[name] = d.address
		ids[name+".deployTx"] = d.txHash
		ids[name+".deployBlock"] = strconv.FormatUint(d.block, 10)
		ids[name+".lastCallTx"] = s.lastCall[d.address]
		ids[name+".firstCallBlock"] = strconv.FormatUint(s.firstCallBlock[d.address], 10)
	}
	for _, name := range names {
		if ids[name] == "" || ids[name+".lastCallTx"] == "" {
			return fmt.Errorf("found no %s contract with calls among the %d the C-chain's blocks created", name, len(s.deployed))
		}
	}
	return nil
}
