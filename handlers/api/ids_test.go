package api

import (
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"
)

func TestParseIDs(t *testing.T) {
	_, err := ParseNodeID("nodeId", ids.BuildTestNodeID([]byte{1, 2, 3}).String())
	require.NoError(t, err)
	for _, bad := range []string{"", "NodeID-", "NodeID-abc", "111111111111111111116DBWJs", "nodeid-111111111111111111116DBWJs",
		"NodeID-" + strings.Repeat("1", 200)} {
		_, err := ParseNodeID("nodeId", bad)
		requireBadRequest(t, err, "invalid nodeId", "NodeID-")
	}

	id := ids.ID{1, 2, 3}
	for _, good := range []string{id.String(), id.Hex(), "0x" + id.Hex(), strings.ToUpper(id.Hex())} {
		got, err := ParseHexOrCB58ID("signingSubnetId", good)
		require.NoError(t, err, good)
		require.Equal(t, id, got, good)
	}
	for _, bad := range []string{"zz", "0x" + id.Hex()[2:], id.Hex() + "00", "0x" + id.String(), strings.Repeat("2", 500)} {
		_, err := ParseHexOrCB58ID("signingSubnetId", bad)
		requireBadRequest(t, err, "invalid signingSubnetId", "cb58", "hex")
	}

	got, err := ParseCB58ID("txHash", ids.ID{'t', 'x'}.String())
	require.NoError(t, err)
	require.Equal(t, ids.ID{'t', 'x'}, got)
	for _, bad := range []string{"abc", id.Hex(), strings.Repeat("3", 5000)} {
		_, err := ParseCB58ID("txHash", bad)
		requireBadRequest(t, err, "invalid txHash", "cb58")
	}
}

func TestParseEnumAndRequiredUint(t *testing.T) {
	got, err := ParseEnum(query(t, "validationStatus=Active"), "validationStatus", []string{"completed", "active", "pending", "removed"})
	require.NoError(t, err)
	require.Equal(t, "active", got)
	got, err = ParseEnum(query(t, ""), "validationStatus", []string{"completed", "active", "pending", "removed"})
	require.NoError(t, err)
	require.Empty(t, got)
	_, err = ParseEnum(query(t, "delegationStatus=removed"), "delegationStatus", []string{"completed", "active", "pending"})
	requireBadRequest(t, err, "invalid delegationStatus 'removed'", "'completed', 'active', 'pending'")

	n, err := ParseRequiredUint(query(t, "vertexHeight=18446744073709551615"), "vertexHeight")
	require.NoError(t, err)
	require.Equal(t, uint64(18446744073709551615), n)
	_, err = ParseRequiredUint(query(t, ""), "vertexHeight")
	requireBadRequest(t, err, "vertexHeight is required")
	for _, bad := range []string{"-1", "1.5", "x", "18446744073709551616"} {
		_, err = ParseRequiredUint(query(t, "vertexHeight="+bad), "vertexHeight")
		requireBadRequest(t, err, "invalid vertexHeight", ">= 0")
	}
}
