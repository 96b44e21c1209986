package primary

import (
	"errors"
	"net/url"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
)

// parsePrimaryAddresses reads a list of X/P-chain addresses of the node's
// network ("avax1...", "P-avax1...", "X-fuji1..."). allowEVM also admits
// 0x addresses, which C-chain atomic lookups accept. It returns the
// addresses as given (for page token filters) and their 20 bytes, in the
// same order: the index keys X/P and EVM addresses alike by those bytes.
func (s *server) parsePrimaryAddresses(q url.Values, name string, allowEVM bool) ([]string, []ids.ShortID, error) {
	return s.parsePrimaryAddressList(q, name, api.MaxListEntries, allowEVM)
}

// parsePrimaryAddressList is parsePrimaryAddresses with a bound of its own
// on the number of addresses (the V2 operations take more).
func (s *server) parsePrimaryAddressList(q url.Values, name string, maxItems int, allowEVM bool) ([]string, []ids.ShortID, error) {
	hrp := s.Network().HRP()
	decoded := make(map[string]ids.ShortID)
	items, err := api.ParseList(q, name, maxItems, func(item string) error {
		if !strings.HasPrefix(item, "0x") && !strings.HasPrefix(item, "0X") {
			b, err := api.ParsePrimaryAddress(item, hrp)
			if err != nil {
				return err
			}
			decoded[item], err = ids.ToShortID(b)
			return err
		}
		if !allowEVM {
			return errors.New("is an EVM address; only C-chain atomic lookups accept those, here give X/P-chain addresses")
		}
		if err := api.ValidateEVMAddress(item); err != nil {
			return err
		}
		decoded[item] = ids.ShortID(common.HexToAddress(item))
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	addrs := make([]ids.ShortID, len(items))
	for i, item := range items {
		addrs[i] = decoded[item]
	}
	return items, addrs, nil
}
