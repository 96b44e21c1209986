package api

import (
	"bytes"
	"testing"

	"github.com/ava-labs/avalanchego/utils/formatting/address"
	"github.com/stretchr/testify/require"
)

func TestParsePrimaryAddress(t *testing.T) {
	payload := bytes.Repeat([]byte{0x42}, 20)
	local, err := address.FormatBech32("local", payload)
	require.NoError(t, err)
	fuji, err := address.FormatBech32("fuji", payload)
	require.NoError(t, err)
	short, err := address.FormatBech32("local", payload[:10])
	require.NoError(t, err)

	tests := []struct {
		name    string
		in      string
		wantErr string
	}{
		{name: "bare", in: local},
		{name: "P prefix", in: "P-" + local},
		{name: "X prefix", in: "X-" + local},
		{name: "C prefix", in: "C-" + local},
		{name: "lower-case prefix", in: "p-" + local},
		{name: "other network", in: "P-" + fuji, wantErr: `network prefix "fuji"`},
		{name: "unknown chain prefix", in: "Q-" + local, wantErr: "unknown chain prefix"},
		{name: "not bech32", in: "P-local1notanaddress", wantErr: "not a bech32 address"},
		{name: "wrong length", in: short, wantErr: "10 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePrimaryAddress(tt.in, "local")
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, payload, got)
		})
	}
}

func TestPrimaryAddressListParameter(t *testing.T) {
	payload := bytes.Repeat([]byte{1}, 20)
	local, err := address.FormatBech32("local", payload)
	require.NoError(t, err)

	got, err := ParseList(query(t, "addresses=P-"+local+",X-"+local), "addresses", 64, primaryAddressValidator("local"))
	require.NoError(t, err)
	require.Len(t, got, 2)

	_, err = ParseList(query(t, "addresses=P-"+local+",bad"), "addresses", 64, primaryAddressValidator("local"))
	requireBadRequest(t, err, "addresses", `"bad"`, "not a bech32 address")
}

func TestValidateEVMAddress(t *testing.T) {
	tests := []struct {
		in    string
		valid bool
	}{
		{in: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC", valid: true},
		{in: "0x0000000000000000000000000000000000000000", valid: true},
		{in: "0X8DB97C7CECE249C2B98BDC0226CC4C2A57BF52FC", valid: true},
		{in: "8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC"},
		{in: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52F"},
		{in: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FCC"},
		{in: "0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FG"},
		{in: ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			err := ValidateEVMAddress(tt.in)
			if tt.valid {
				require.NoError(t, err)
			} else {
				require.ErrorContains(t, err, "not an EVM address")
			}
		})
	}
}
