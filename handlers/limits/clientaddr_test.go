package limits

import (
	"net/http"
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
)

func TestClientOf(t *testing.T) {
	trusted, err := ParseTrustedProxies([]string{"127.0.0.1", "::1", "10.0.0.0/8", "fd00::/8"})
	require.NoError(t, err)
	addressing := clientAddressing{trusted: trusted}
	tests := []struct {
		name   string
		peer   string
		xff    []string
		want   string // netip.Prefix, or "" for the unknown client
		source api.ClientSource
	}{
		{name: "no peer", want: "", source: api.SourceUnknownPeer},
		{name: "no peer ignores the header", xff: []string{"192.0.2.1"}, want: "", source: api.SourceUnknownPeer},
		{name: "peer with port", peer: "192.0.2.1:5000", want: "192.0.2.1/32", source: api.SourcePeer},
		{name: "peer without port", peer: "192.0.2.1", want: "192.0.2.1/32", source: api.SourcePeer},
		{name: "IPv6 peer by /64", peer: "[2001:db8::1]:5000", want: "2001:db8::/64", source: api.SourcePeer},
		{name: "IPv4-mapped IPv6 peer", peer: "[::ffff:192.0.2.1]:1", want: "192.0.2.1/32", source: api.SourcePeer},
		{name: "zoned IPv6 peer", peer: "[fe80::1%eth0]:1", want: "fe80::/64", source: api.SourcePeer},
		{name: "garbage peer", peer: "not-an-address", want: "", source: api.SourceUnknownPeer},
		{name: "untrusted peer ignores the header", peer: "192.0.2.1:1", xff: []string{"198.51.100.1"}, want: "192.0.2.1/32", source: api.SourcePeer},
		{name: "trusted peer without header", peer: "127.0.0.1:1", want: "127.0.0.1/32", source: api.SourcePeer},
		{name: "trusted peer", peer: "127.0.0.1:1", xff: []string{"198.51.100.1"}, want: "198.51.100.1/32", source: api.SourceForwarded},
		{name: "forged left entries", peer: "127.0.0.1:1", xff: []string{"203.0.113.1, 198.51.100.1"}, want: "198.51.100.1/32", source: api.SourceForwarded},
		{name: "trusted chain", peer: "::1", xff: []string{"198.51.100.1, 10.0.0.2", "fd00::5"}, want: "198.51.100.1/32", source: api.SourceForwarded},
		{name: "all hops trusted", peer: "127.0.0.1:1", xff: []string{"10.0.0.3, 10.0.0.2"}, want: "10.0.0.3/32", source: api.SourceForwarded},
		{name: "entry with port", peer: "127.0.0.1:1", xff: []string{"198.51.100.1:8080"}, want: "198.51.100.1/32", source: api.SourceForwarded},
		{name: "IPv6 entry", peer: "127.0.0.1:1", xff: []string{"[2001:db8:5::9]:80"}, want: "2001:db8:5::/64", source: api.SourceForwarded},
		{name: "garbage entry stops at the trusted hop", peer: "127.0.0.1:1", xff: []string{"unknown"}, want: "127.0.0.1/32", source: api.SourcePeer},
		{name: "garbage further left", peer: "127.0.0.1:1", xff: []string{"junk, 10.0.0.9"}, want: "10.0.0.9/32", source: api.SourceForwarded},
		{name: "empty entries", peer: "127.0.0.1:1", xff: []string{" , "}, want: "127.0.0.1/32", source: api.SourcePeer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &http.Request{RemoteAddr: tt.peer, Header: http.Header{}}
			for _, line := range tt.xff {
				r.Header.Add("X-Forwarded-For", line)
			}
			got := addressing.clientOf(r)
			require.Equal(t, tt.source, got.source)
			if tt.want == "" {
				require.False(t, got.prefix.IsValid(), "got %s", got.prefix)
				return
			}
			require.Equal(t, netip.MustParsePrefix(tt.want), got.prefix)
		})
	}
}

func TestClientOfTrustUnknownPeer(t *testing.T) {
	addressing := clientAddressing{trustUnknownPeer: true}
	r := &http.Request{Header: http.Header{"X-Forwarded-For": {"203.0.113.1, 198.51.100.1"}}}
	got := addressing.clientOf(r)
	require.Equal(t, api.SourceForwarded, got.source)
	require.Equal(t, netip.MustParsePrefix("198.51.100.1/32"), got.prefix)

	got = addressing.clientOf(&http.Request{Header: http.Header{}})
	require.Equal(t, api.SourceUnknownPeer, got.source)
}

func TestClientOfBoundsHops(t *testing.T) {
	addressing := clientAddressing{trusted: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}}
	r := &http.Request{RemoteAddr: "10.0.0.1:1", Header: http.Header{}}
	for range 1000 {
		r.Header.Add("X-Forwarded-For", "10.1.2.3")
	}
	got := addressing.clientOf(r)
	require.Equal(t, netip.MustParsePrefix("10.1.2.3/32"), got.prefix)
}

func TestParseTrustedProxies(t *testing.T) {
	got, err := ParseTrustedProxies([]string{"10.0.0.5", "10.1.2.3/8", "::1", "::ffff:192.0.2.1"})
	require.NoError(t, err)
	require.Equal(t, []netip.Prefix{
		netip.MustParsePrefix("10.0.0.5/32"), netip.MustParsePrefix("10.0.0.0/8"),
		netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("192.0.2.1/32"),
	}, got)
	_, err = ParseTrustedProxies([]string{"localhost"})
	require.ErrorContains(t, err, `"localhost" is neither an IP address nor a CIDR block`)
	got, err = ParseTrustedProxies([]string{})
	require.NoError(t, err)
	require.NotNil(t, got, "an empty list trusts nobody; nil would mean the default")
}
