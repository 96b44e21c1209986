package truth

import (
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/tests/contracts"
)

// ExportRows are the CSV rows a transaction export (postTransactionExportJob)
// must hold for txs: those in which one of addrs is the sender, the
// recipient or the created contract, in the order given, with the columns
// of the export (evm.ExportColumns). Method names are checked for the test
// contracts' mint functions, the only calls the export tests make.
func ExportRows(evmChainID uint64, txs []*EVMTx, addrs []common.Address) [][]string {
	names := map[string]string{}
	for _, art := range []*contracts.Artifact{contracts.TestERC20(), contracts.TestERC721()} {
		for _, m := range art.ABI.Methods {
			if strings.HasPrefix(m.Sig, "mint(") {
				names["0x"+hex.EncodeToString(m.ID)] = m.Sig
			}
		}
	}
	var rows [][]string
	for _, x := range txs {
		created := x.Receipt.Status == 1 && x.Receipt.ContractAddress != nil
		if !slices.Contains(addrs, x.From) && (x.To == nil || !slices.Contains(addrs, *x.To)) &&
			(!created || !slices.Contains(addrs, *x.Receipt.ContractAddress)) {
			continue
		}
		to := common.Address{}
		callType, methodHash, methodName := "CONTRACT_CALL", "", ""
		switch {
		case x.To == nil:
			callType, methodName = "CONTRACT_CREATION", "Contract Created"
			if created {
				to = *x.Receipt.ContractAddress
			}
		case len(x.Input) == 0:
			to, callType, methodName = *x.To, "NATIVE_TRANSFER", "Native Transfer"
		default:
			to, methodHash = *x.To, "0x"+hex.EncodeToString(x.Input[:4])
			methodName = names[methodHash]
		}
		rows = append(rows, []string{
			strconv.FormatUint(x.Block.Number, 10), strconv.FormatUint(x.Block.Timestamp, 10), x.Block.Hash.Hex(),
			strconv.FormatUint(evmChainID, 10), strconv.FormatUint(x.Index, 10), x.Hash.Hex(),
			strconv.FormatUint(x.Receipt.Status, 10), strconv.FormatUint(x.Type, 10), strconv.FormatUint(x.Gas, 10),
			strconv.FormatUint(x.Receipt.GasUsed, 10), x.Receipt.EffectiveGasPrice.String(), strconv.FormatUint(x.Nonce, 10),
			x.From.Hex(), to.Hex(), callType, methodHash, methodName, x.Value.String(),
		})
	}
	return rows
}
