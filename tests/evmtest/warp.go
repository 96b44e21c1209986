package evmtest

import (
	"fmt"

	"github.com/ava-labs/avalanchego/graft/coreth/precompile/contracts/warp"
	avalancheWarp "github.com/ava-labs/avalanchego/vms/platformvm/warp"
)

// WarpGas is the gas limit of a sendWarpMessage call with a short payload:
// the precompile charges about 41k plus 8 per input byte. A fixed limit
// saves the estimate's round trip, so a burst of them can be sent at once.
const WarpGas = 200_000

// WarpTx is the transaction that sends an unsigned warp message carrying
// payload (as an AddressedCall from the sender) through the C-chain's warp
// precompile, sendWarpMessage.
func WarpTx(payload []byte) (Tx, error) {
	data, err := warp.PackSendWarpMessage(payload)
	if err != nil {
		return Tx{}, fmt.Errorf("evmtest: packing sendWarpMessage: %w", err)
	}
	to := warp.ContractAddress
	return Tx{To: &to, Data: data, Gas: WarpGas}, nil
}

// WarpMessage returns the unsigned warp message that r's transaction sent:
// the one SendWarpMessage log of the warp precompile.
func WarpMessage(r *Receipt) (*avalancheWarp.UnsignedMessage, error) {
	logs := r.LogsFrom(warp.ContractAddress)
	if len(logs) != 1 {
		return nil, fmt.Errorf("evmtest: %s has %d warp precompile logs, want 1", r.TxHash, len(logs))
	}
	msg, err := warp.UnpackSendWarpEventDataToMessage(logs[0].Data)
	if err != nil {
		return nil, fmt.Errorf("evmtest: decoding the warp message of %s: %w", r.TxHash, err)
	}
	return msg, nil
}
