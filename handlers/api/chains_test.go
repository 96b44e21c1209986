package api

import (
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/constants"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/netinfo"
)

const (
	pChainID      = "11111111111111111111111111111111LpoYY"
	mainnetXChain = "2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM"
	mainnetCChain = "2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5"
	fujiXChain    = "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm"
	fujiCChain    = "yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp"
)

func fujiInfo() netinfo.Info {
	x, _ := ids.FromString(fujiXChain)
	c, _ := ids.FromString(fujiCChain)
	return netinfo.Info{NetworkID: constants.FujiID, Chains: netinfo.Primary(constants.FujiID, x, c)}
}

func TestWellKnownChainIDsParse(t *testing.T) {
	for _, f := range wellKnownChainIDs() {
		id, err := ids.FromString(f.id)
		require.NoError(t, err, f.id)
		require.Equal(t, f.id, id.String())
	}
	require.Equal(t, pChainID, ids.Empty.String())
}

func TestResolveNetwork(t *testing.T) {
	custom := fakenet.Info()
	custom.NetworkID = 88888
	tests := []struct {
		name    string
		node    netinfo.Info
		segment string
		wantErr []string
	}{
		{name: "local on local", node: fakenet.Info(), segment: "local"},
		{name: "case-insensitive", node: fakenet.Info(), segment: "Local"},
		{name: "mainnet on local", node: fakenet.Info(), segment: "mainnet",
			wantErr: []string{"this node serves network 'local'; request was for 'mainnet'"}},
		{name: "fuji on local", node: fakenet.Info(), segment: "fuji", wantErr: []string{"serves network 'local'", "'fuji'"}},
		{name: "fuji on fuji", node: fujiInfo(), segment: "fuji"},
		{name: "testnet is fuji", node: fujiInfo(), segment: "testnet"},
		{name: "testnet is a local network", node: fakenet.Info(), segment: "testnet"},
		{name: "testnet is a custom network", node: custom, segment: "Testnet"},
		{name: "local on fuji", node: fujiInfo(), segment: "local", wantErr: []string{"serves network 'fuji'"}},
		{name: "unknown name", node: fakenet.Info(), segment: "devnet",
			wantErr: []string{"network", "'devnet'", "'mainnet', 'fuji', 'testnet', 'local'"}},
		{name: "custom network by its name", node: custom, segment: "network-88888"},
		{name: "unknown on custom lists its name", node: custom, segment: "x", wantErr: []string{"'network-88888'"}},
		{name: "mainnet on custom", node: custom, segment: "mainnet", wantErr: []string{"serves network 'network-88888'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ResolveNetwork(tt.segment, tt.node)
			if tt.wantErr != nil {
				requireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
		})
	}
}

func TestResolveBlockchain(t *testing.T) {
	all := netinfo.PrimaryChains()
	pOnly := []netinfo.Chain{netinfo.P}
	node := fakenet.Info()
	tests := []struct {
		name    string
		segment string
		allowed []netinfo.Chain
		want    netinfo.Chain
		wantErr []string
	}{
		{name: "p alias", segment: "p-chain", allowed: all, want: netinfo.P},
		{name: "x alias", segment: "x-chain", allowed: all, want: netinfo.X},
		{name: "c alias", segment: "c-chain", allowed: all, want: netinfo.C},
		{name: "alias any case", segment: "X-Chain", allowed: all, want: netinfo.X},
		{name: "p id", segment: pChainID, allowed: all, want: netinfo.P},
		{name: "local x id", segment: fakenet.XChainID.String(), allowed: all, want: netinfo.X},
		{name: "local c id", segment: fakenet.CChainID.String(), allowed: all, want: netinfo.C},
		{name: "mainnet x id", segment: mainnetXChain, allowed: all,
			wantErr: []string{"blockchainId", "x-chain of mainnet", "serves network 'local'", fakenet.XChainID.String()}},
		{name: "fuji c id", segment: fujiCChain, allowed: all,
			wantErr: []string{"blockchainId", "c-chain of fuji", fakenet.CChainID.String()}},
		{name: "garbage", segment: "nope", allowed: all, wantErr: []string{"invalid blockchainId 'nope'", "'p-chain'", "'c-chain'"}},
		{name: "short node alias is not a Data API alias", segment: "P", allowed: all, wantErr: []string{"invalid blockchainId 'P'"}},
		{name: "not allowed here", segment: "x-chain", allowed: pOnly,
			wantErr: []string{"not supported by this endpoint", "allowed: 'p-chain' (" + pChainID + ")"}},
		{name: "not allowed by id", segment: fakenet.CChainID.String(), allowed: pOnly, wantErr: []string{"not supported"}},
		{name: "subnet chain by id", segment: fakenet.SubnetChainID.String(), allowed: all,
			wantErr: []string{"(dispatch) is not supported by this endpoint"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := resolveBlockchain(tt.segment, node, tt.allowed)
			if tt.wantErr != nil {
				requireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestResolveBlockchainOnMainnetIDs(t *testing.T) {
	x, err := ids.FromString(mainnetXChain)
	require.NoError(t, err)
	c, err := ids.FromString(mainnetCChain)
	require.NoError(t, err)
	mainnet := netinfo.Info{NetworkID: constants.MainnetID, Chains: netinfo.Primary(constants.MainnetID, x, c)}

	got, err := resolveBlockchain(mainnetXChain, mainnet, netinfo.PrimaryChains())
	require.NoError(t, err, "the node's own well-known ID is accepted")
	require.Equal(t, netinfo.X, got)

	_, err = resolveBlockchain(fujiXChain, mainnet, netinfo.PrimaryChains())
	requireBadRequest(t, err, "x-chain of fuji", "serves network 'mainnet'")
}

func TestResolveEVMChain(t *testing.T) {
	node := fakenet.Info()
	tests := []struct {
		name    string
		segment string
		want    netinfo.Chain
		wantErr []string
	}{
		{name: "evm chain id", segment: "43112", want: netinfo.C},
		{name: "c-chain blockchain id", segment: fakenet.CChainID.String(), want: netinfo.C},
		{name: "c-chain alias", segment: "c-chain", want: netinfo.C},
		{name: "alias any case", segment: "C-Chain", want: netinfo.C},
		{name: "subnet evm chain id", segment: "779672", want: fakenet.SubnetChain},
		{name: "subnet blockchain id", segment: fakenet.SubnetChainID.String(), want: fakenet.SubnetChain},
		{name: "mainnet evm id", segment: "43114", wantErr: []string{"chainId 43114", "C-chain of mainnet", "43112"}},
		{name: "fuji evm id", segment: "43113", wantErr: []string{"chainId 43113", "fuji"}},
		{name: "mainnet c id", segment: mainnetCChain, wantErr: []string{"chainId", "c-chain of mainnet"}},
		{name: "unknown number", segment: "1", wantErr: []string{"unsupported chainId '1'", "43112 ('c-chain'", "779672 ('dispatch'"}},
		{name: "p-chain is not EVM", segment: pChainID, wantErr: []string{"is the p-chain, which is not an EVM chain", "43112"}},
		{name: "x alias is not EVM", segment: "x-chain", wantErr: []string{"unsupported chainId 'x-chain'"}},
		{name: "subnet name is no alias", segment: "dispatch", wantErr: []string{"unsupported chainId 'dispatch'"}},
		{name: "negative", segment: "-1", wantErr: []string{"unsupported chainId '-1'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveEVMChain(tt.segment, node)
			if tt.wantErr != nil {
				requireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got.Chain)
		})
	}
}

func TestResolveEVMChainBeforeItsIDIsRead(t *testing.T) {
	node := fakenet.Info()
	node.Chains[3].EVMChainID = 0
	_, err := ResolveEVMChain(fakenet.SubnetChainID.String(), node)
	var apiErr *Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusServiceUnavailable, apiErr.Status)
	require.Contains(t, apiErr.Message, "not known yet")
	_, err = ResolveEVMChain("0", node)
	requireBadRequest(t, err, "unsupported chainId '0'", "EVM chain id not read yet")
}

func TestResolveEVMChainNumber(t *testing.T) {
	node := fakenet.Info()
	got, err := ResolveEVMChainNumber("779672", node)
	require.NoError(t, err)
	require.Equal(t, fakenet.SubnetChain, got.Chain)
	for _, bad := range []string{fakenet.CChainID.String(), "c-chain", "0x1"} {
		_, err := ResolveEVMChainNumber(bad, node)
		requireBadRequest(t, err, "EVM chain id number", "not a blockchain id")
	}
}

func TestResolveMetricsChain(t *testing.T) {
	node := fakenet.Info()
	tests := []struct {
		segment string
		want    netinfo.Chain
		wantErr []string
	}{
		{segment: "43112", want: netinfo.C},
		{segment: fakenet.CChainID.String(), want: netinfo.C},
		{segment: "c-chain", want: netinfo.C},
		{segment: "p-chain", want: netinfo.P},
		{segment: "x-chain", want: netinfo.X},
		{segment: pChainID, want: netinfo.P},
		{segment: fakenet.XChainID.String(), want: netinfo.X},
		{segment: "779672", want: fakenet.SubnetChain},
		{segment: fakenet.SubnetChainID.String(), want: fakenet.SubnetChain},
		{segment: "43114", wantErr: []string{"mainnet"}},
		{segment: fujiXChain, wantErr: []string{"x-chain of fuji"}},
		{segment: "7", wantErr: []string{"unsupported chainId '7'", "'p-chain'", "43112", "779672"}},
		{segment: "bogus", wantErr: []string{"unsupported chainId 'bogus'"}},
	}
	for _, tt := range tests {
		t.Run(tt.segment, func(t *testing.T) {
			got, err := ResolveMetricsChain(tt.segment, node)
			if tt.wantErr != nil {
				requireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}
