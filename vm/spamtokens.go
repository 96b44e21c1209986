package vm

import (
	"fmt"
	"strconv"

	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/evm"
)

// spamTokens parses the spamTokens key: EVM chain ids (decimal) to lists
// of 0x contract addresses.
func (c Config) spamTokens() (evm.SpamTokens, error) {
	if len(c.SpamTokens) == 0 {
		return nil, nil
	}
	out := make(evm.SpamTokens, len(c.SpamTokens))
	for chain, addrs := range c.SpamTokens {
		id, err := strconv.ParseUint(chain, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("spamTokens: %q is not an EVM chain id (a decimal number)", chain)
		}
		set := make(map[common.Address]bool, len(addrs))
		for _, a := range addrs {
			if err := api.ValidateEVMAddress(a); err != nil {
				return nil, fmt.Errorf("spamTokens of chain %s: %q: %w", chain, a, err)
			}
			set[common.HexToAddress(a)] = true
		}
		out[id] = set
	}
	return out, nil
}
