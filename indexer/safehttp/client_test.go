package safehttp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/safehttp/safehttptest"
)

func TestPublicAddress(t *testing.T) {
	for addr, public := range map[string]bool{
		"8.8.8.8": true, "2606:4700::1111": true, "100.63.255.255": true, "100.128.0.0": true,
		"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false, "169.254.169.254": false,
		"0.0.0.0": false, "0.1.2.3": false, "100.64.0.1": false, "100.127.255.254": false, "192.0.0.8": false,
		"198.18.0.1": false, "198.19.255.255": false, "240.0.0.1": false, "255.255.255.255": false,
		"224.0.0.1": false, "::1": false, "::": false, "fe80::1": false, "fc00::1": false, "ff02::1": false,
		"::ffff:127.0.0.1": false, "::ffff:8.8.8.8": true,
		"64:ff9b::a00:1": false, "64:ff9b:1::1": false, "2002:a00:1::1": false, "2001:0:a00:1::1": false, "fec0::1": false,
		"::a00:1": false, "::ffff:0:a00:1": false,
		"2001:4860:4860::8888": true,
	} {
		require.Equal(t, public, PublicAddress(netip.MustParseAddr(addr)), addr)
	}
}

func TestClientRefusesForbiddenAddressesAndRedirects(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/target", http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	ctx := context.Background()
	get := func(c *http.Client, path string) (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
		require.NoError(t, err)
		return c.Do(req)
	}

	public := NewClient(Options{Allowed: PublicAddress, ConnectTimeout: time.Second, Timeout: time.Second})
	_, err := get(public, "/")
	require.ErrorIs(t, err, ErrForbiddenAddress, "loopback is refused after resolution")

	private := NewClient(Options{Allowed: AnyAddress, ConnectTimeout: time.Second, Timeout: time.Second})
	resp, err := get(private, "/redirect")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusFound, resp.StatusCode, "no redirect is followed")

	following := NewClient(Options{Allowed: AnyAddress, ConnectTimeout: time.Second, Timeout: time.Second, MaxRedirects: 3})
	resp, err = get(following, "/redirect")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestClientClosesIdleConnectionsAfterTheIdleTimeout(t *testing.T) {
	srv := safehttptest.NewServer(t, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	client := NewClient(Options{Allowed: AnyAddress, ConnectTimeout: time.Second, Timeout: 5 * time.Second,
		MaxIdleConns: 4, IdleConnTimeout: 200 * time.Millisecond})
	for range 2 {
		resp, err := client.Get(srv.URL)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
	}
	require.Equal(t, 1, srv.Opened(), "the connection is kept for the next request")
	require.Eventually(t, func() bool { return srv.Closed() == 1 }, 10*time.Second, 10*time.Millisecond,
		"closed once idle for the timeout")
}
