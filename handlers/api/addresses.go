package api

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/ava-labs/libevm/common"
)

// Validators for the items of address-list parameters (see ParseList). They
// return errors phrased to follow the offending value in a 400 message.

// primaryAddressValidator accepts X/P-chain addresses of the network with
// bech32 prefix hrp, optionally preceded by a chain letter and a dash
// ("P-fuji1...", "X-fuji1...", "C-fuji1...", or bare "fuji1...").
func primaryAddressValidator(hrp string) func(string) error {
	return func(s string) error {
		_, err := ParsePrimaryAddress(s, hrp)
		return err
	}
}

// ParsePrimaryAddress returns the 20-byte address of s (see
// primaryAddressValidator for the accepted forms).
func ParsePrimaryAddress(s, hrp string) ([]byte, error) {
	bech := s
	if chain, rest, found := strings.Cut(s, "-"); found {
		switch strings.ToUpper(chain) {
		case "P", "X", "C":
			bech = rest
		default:
			return nil, fmt.Errorf("has an unknown chain prefix %q: want P-, X- or C-", chain+"-")
		}
	}
	gotHRP, addr, err := address.ParseBech32(bech)
	if err != nil {
		return nil, fmt.Errorf("is not a bech32 address: %w", err)
	}
	if gotHRP != hrp {
		return nil, fmt.Errorf("belongs to network prefix %q; this node's addresses start with %q", gotHRP, hrp)
	}
	if len(addr) != 20 {
		return nil, fmt.Errorf("has %d bytes; want 20", len(addr))
	}
	return addr, nil
}

// ValidateEVMAddress accepts 0x-prefixed 20-byte hex addresses, any case.
func ValidateEVMAddress(s string) error {
	hexPart, ok := strings.CutPrefix(s, "0x")
	if !ok {
		hexPart, ok = strings.CutPrefix(s, "0X")
	}
	if !ok || len(hexPart) != 40 {
		return errors.New("is not an EVM address: want 0x followed by 40 hex digits")
	}
	for _, r := range hexPart {
		if !IsHexDigit(r) {
			return errors.New("is not an EVM address: want 0x followed by 40 hex digits")
		}
	}
	return nil
}

func IsHexDigit(r rune) bool {
	return (r >= '0' && r <= '9') || (r >= 'a' && r <= 'f') || (r >= 'A' && r <= 'F')
}

// ParseEVMAddress checks a 0x-prefixed 20-byte hex address, any case.
func ParseEVMAddress(param, s string) (common.Address, error) {
	if err := ValidateEVMAddress(s); err != nil {
		return common.Address{}, BadRequest("invalid %s '%s': %v", param, Truncate(s), err)
	}
	return common.HexToAddress(s), nil
}

// ParseOptionalEVMAddress reads an optional address query parameter.
func ParseOptionalEVMAddress(q url.Values, param string) (*common.Address, error) {
	raw := q.Get(param)
	if raw == "" {
		return nil, nil
	}
	addr, err := ParseEVMAddress(param, raw)
	if err != nil {
		return nil, err
	}
	return &addr, nil
}
