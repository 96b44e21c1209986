package vm

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

// IndexFromConfig is the indexFrom key: where each chain's index begins the
// first time avadata follows it. One value ("genesis", "earliest-available"
// or a block height) sets every chain; an object sets chains by name ("P",
// "X", "C", an EVM chain's name) or blockchain ID, with "default" for the
// others. Absent: "earliest-available", which is genesis on a node that
// keeps its chains' whole history and the oldest block it serves on one
// that state-synced or prunes.
type IndexFromConfig struct {
	Default  follower.IndexFrom
	PerChain map[string]follower.IndexFrom
}

// indexFromDefaultKey names the chains an object does not name.
const indexFromDefaultKey = "default"

// UnmarshalJSON reads a single setting or an object of them.
func (c *IndexFromConfig) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")) {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			return fmt.Errorf("indexFrom: %w", err)
		}
		out := IndexFromConfig{PerChain: map[string]follower.IndexFrom{}}
		for k, v := range raw {
			from, err := follower.ParseIndexFrom(v)
			if err != nil {
				return fmt.Errorf("indexFrom.%s: %w", k, err)
			}
			if k == indexFromDefaultKey {
				out.Default = from
			} else {
				out.PerChain[k] = from
			}
		}
		*c = out
		return nil
	}
	from, err := follower.ParseIndexFrom(b)
	if err != nil {
		return err
	}
	*c = IndexFromConfig{Default: from}
	return nil
}

// MarshalJSON writes the object form (the effective settings).
func (c IndexFromConfig) MarshalJSON() ([]byte, error) {
	out := map[string]string{indexFromDefaultKey: c.Default.String()}
	for k, v := range c.PerChain {
		out[k] = v.String()
	}
	return json.Marshal(out)
}

// validate refuses a height for the P- or X-chain: the node keeps their
// whole history, and balances, UTXOs and stakers need all of it.
func (c IndexFromConfig) validate() error {
	for _, k := range []string{"P", "X"} {
		if from, ok := c.PerChain[k]; ok && from.Height != 0 {
			return fmt.Errorf("indexFrom.%s is a height: the %s-chain is always indexed from genesis "+
				"(every node keeps its whole history, and balances, UTXOs and stakers need all of it)", k, k)
		}
	}
	return nil
}

// For is the setting of one chain: by name, then blockchain ID, then the
// default. The P- and X-chain are indexed from genesis whatever the
// default says (validate refuses a height named for them).
func (c IndexFromConfig) For(ci netinfo.ChainInfo) follower.IndexFrom {
	if !ci.IsEVM() {
		return follower.IndexFrom{Genesis: true}
	}
	for _, k := range []string{ci.Name, ci.BlockchainID.String()} {
		if from, ok := c.PerChain[k]; ok {
			return from
		}
	}
	return c.Default
}
