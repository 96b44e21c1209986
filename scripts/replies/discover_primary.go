package replies

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// primaryTx is what discovery reads of a primary-network transaction in
// avadata's listing: the P-chain's carry blockTimestamp, the X- and
// C-chain's timestamp.
type primaryTx struct {
	TxHash         string `json:"txHash"`
	TxType         string `json:"txType"`
	BlockTimestamp int64  `json:"blockTimestamp"`
	Timestamp      int64  `json:"timestamp"`
	EmittedUTXOs   []struct {
		Addresses []string `json:"addresses"`
	} `json:"emittedUtxos"`
}

func (t primaryTx) time() int64 { return max(t.BlockTimestamp, t.Timestamp) }

// discoverPrimary lists the key's transactions on each primary chain,
// oldest first, and names the first of each type (pTx.ImportTx, ...), the
// oldest and newest and their times; the X-chain's transfer names the
// recipient's X/P address.
func discoverPrimary(ctx context.Context, c *Client, ids map[string]string) error {
	chains := []struct{ prefix, alias, address string }{
		{"p", "p-chain", ids["sender.p"]},
		{"x", "x-chain", ids["sender.x"]},
		{"c", "c-chain", ids["sender.evm"]},
	}
	for _, chain := range chains {
		var page struct {
			Transactions []primaryTx `json:"transactions"`
		}
		target := "/v1/networks/" + ids["network"] + "/blockchains/" + chain.alias +
			"/transactions?pageSize=100&sortOrder=asc&addresses=" + chain.address
		if err := c.apiGet(ctx, target, &page); err != nil {
			return err
		}
		txs := page.Transactions
		if len(txs) == 0 {
			return fmt.Errorf("avadata lists no %s transaction of %s", chain.alias, chain.address)
		}
		for _, tx := range txs {
			if key := chain.prefix + "Tx." + tx.TxType; ids[key] == "" {
				ids[key] = tx.TxHash
			}
		}
		oldest, newest := txs[0], txs[len(txs)-1]
		ids[chain.prefix+"Tx.oldest"], ids[chain.prefix+"Tx.newest"] = oldest.TxHash, newest.TxHash
		ids[chain.prefix+"Time.oldest"] = strconv.FormatInt(oldest.time(), 10)
		ids[chain.prefix+"Time.newest"] = strconv.FormatInt(newest.time(), 10)
		ids[chain.prefix+"Time.afterNewest"] = strconv.FormatInt(newest.time()+1, 10)
		if chain.prefix == "x" {
			if err := discoverRecipient(txs, ids); err != nil {
				return err
			}
		}
	}
	return nil
}

// discoverRecipient takes the recipient's address from the outputs of the
// key's X-chain transactions: the one address there that is not the key's.
func discoverRecipient(txs []primaryTx, ids map[string]string) error {
	sender := ids["sender.bech32"]
	for _, tx := range txs {
		for _, out := range tx.EmittedUTXOs {
			for _, a := range out.Addresses {
				bech := a[strings.Index(a, "-")+1:] // X-local1... or local1...
				if bech != sender {
					ids["recipient.bech32"], ids["recipient.x"], ids["recipient.p"] = bech, "X-"+bech, "P-"+bech
					return nil
				}
			}
		}
	}
	return fmt.Errorf("no X-chain output of %s goes to another address", ids["sender.x"])
}

// currentValidator is what discovery reads of platform.getCurrentValidators.
type currentValidator struct {
	NodeID      string `json:"nodeID"`
	RewardOwner *struct {
		Addresses []string `json:"addresses"`
	} `json:"validationRewardOwner"`
}

// discoverValidators asks the P-chain for its current validators and names
// the first and last (by node ID) and the address the first's rewards go to.
func discoverValidators(ctx context.Context, c *Client, ids map[string]string) error {
	var reply struct {
		Validators []currentValidator `json:"validators"`
	}
	if err := c.nodeCall(ctx, "/ext/bc/P", "platform.getCurrentValidators", map[string]any{}, &reply); err != nil {
		return err
	}
	vs := reply.Validators
	if len(vs) == 0 {
		return fmt.Errorf("the P-chain has no current validator")
	}
	slices.SortFunc(vs, func(a, b currentValidator) int { return strings.Compare(a.NodeID, b.NodeID) })
	ids["validatorNodeId"] = vs[0].NodeID
	ids["validatorNodeId2"] = vs[len(vs)-1].NodeID
	owner := vs[0].RewardOwner
	if owner == nil || len(owner.Addresses) == 0 {
		return fmt.Errorf("validator %s has no reward owner", vs[0].NodeID)
	}
	ids["validatorRewardAddress"] = owner.Addresses[0]
	return nil
}
