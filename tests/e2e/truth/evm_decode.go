package truth

import (
	"fmt"
	"math/big"
	"sync"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/tests/contracts"
	"github.com/avadata/avadata/tests/evmtest"
)

// The token events, decoded with the test contracts' ABIs: an ERC-20 and an
// ERC-721 Transfer share topic 0 and differ in the topic count.
var (
	tokenABIs = sync.OnceValue(func() [3]*contracts.Artifact {
		return [3]*contracts.Artifact{contracts.TestERC20(), contracts.TestERC721(), contracts.TestERC1155()}
	})
	transferTopic = sync.OnceValue(func() common.Hash { return eventID(tokenABIs()[0], "Transfer") })
	singleTopic   = sync.OnceValue(func() common.Hash { return eventID(tokenABIs()[2], "TransferSingle") })
	batchTopic    = sync.OnceValue(func() common.Hash { return eventID(tokenABIs()[2], "TransferBatch") })
)

func eventID(a *contracts.Artifact, name string) common.Hash {
	id, err := a.EventID(name)
	if err != nil {
		panic(err) // the embedded artifacts are fixed; contracts' tests check them
	}
	return id
}

// decodeTransfers decodes the token movements of a receipt's logs.
func decodeTransfers(logs []evmtest.Log) ([]EVMTransfer, error) {
	abis := tokenABIs()
	var out []EVMTransfer
	for _, l := range logs {
		if len(l.Topics) == 0 {
			continue
		}
		switch {
		case l.Topics[0] == transferTopic() && len(l.Topics) == 3:
			ev, err := abis[0].ParseEvent("Transfer", l.Topics, l.Data)
			if err != nil {
				return nil, err
			}
			out = append(out, EVMTransfer{Kind: "ERC-20", Token: l.Address, LogIndex: l.LogIndex,
				From: ev["from"].(common.Address), To: ev["to"].(common.Address), Value: ev["value"].(*big.Int)})
		case l.Topics[0] == transferTopic() && len(l.Topics) == 4:
			ev, err := abis[1].ParseEvent("Transfer", l.Topics, l.Data)
			if err != nil {
				return nil, err
			}
			out = append(out, EVMTransfer{Kind: "ERC-721", Token: l.Address, LogIndex: l.LogIndex,
				From: ev["from"].(common.Address), To: ev["to"].(common.Address), TokenID: ev["tokenId"].(*big.Int)})
		case l.Topics[0] == singleTopic():
			ev, err := abis[2].ParseEvent("TransferSingle", l.Topics, l.Data)
			if err != nil {
				return nil, err
			}
			out = append(out, EVMTransfer{Kind: "ERC-1155", Token: l.Address, LogIndex: l.LogIndex,
				From: ev["from"].(common.Address), To: ev["to"].(common.Address),
				TokenID: ev["id"].(*big.Int), Value: ev["value"].(*big.Int)})
		case l.Topics[0] == batchTopic():
			ev, err := abis[2].ParseEvent("TransferBatch", l.Topics, l.Data)
			if err != nil {
				return nil, err
			}
			ids, values := ev["ids"].([]*big.Int), ev["values"].([]*big.Int)
			if len(ids) != len(values) {
				return nil, fmt.Errorf("TransferBatch with %d ids and %d values", len(ids), len(values))
			}
			for i := range ids {
				out = append(out, EVMTransfer{Kind: "ERC-1155", Token: l.Address, LogIndex: l.LogIndex, BatchIndex: i,
					From: ev["from"].(common.Address), To: ev["to"].(common.Address), TokenID: ids[i], Value: values[i]})
			}
		}
	}
	return out, nil
}

// internalFrames lists the frames below the top call that move value or
// create a contract, depth first. A DELEGATECALL or CALLCODE frame moves no
// value whatever the tracer shows (it reports the caller's msg.value).
func internalFrames(root *evmtest.CallFrame) []EVMInternal {
	var out []EVMInternal
	var walk func(f *evmtest.CallFrame, reverted bool)
	walk = func(f *evmtest.CallFrame, reverted bool) {
		for i := range f.Calls {
			c := &f.Calls[i]
			rev := reverted || c.Error != ""
			value := new(big.Int)
			if c.Value != nil && c.Type != "DELEGATECALL" && c.Type != "CALLCODE" {
				value.Set(c.Value)
			}
			if IsCreation(c.Type) || c.Type == "SELFDESTRUCT" || value.Sign() > 0 {
				var to common.Address
				if c.To != nil {
					to = *c.To
				}
				out = append(out, EVMInternal{Type: c.Type, From: c.From, To: to, Value: value,
					Gas: c.Gas, GasUsed: c.GasUsed, Reverted: rev})
			}
			walk(c, rev)
		}
	}
	walk(root, root.Error != "")
	return out
}
