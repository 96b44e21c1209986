package evmmeta

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/safehttp"
)

func TestFetcherRefusesNonPublicAddresses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"name":"secret"}`))
	}))
	defer srv.Close()
	f := newFetcher(FetchOptions{Enabled: true}, safehttp.PublicAddress)
	_, err := f.fetch(context.Background(), srv.URL+"/1.json")
	require.ErrorIs(t, err, safehttp.ErrForbiddenAddress, "a token URI must not reach the node's loopback")
}

// The rest of the fetch path, against a loopback server that only the test
// allows.
func TestFetcherReadsBoundedDocuments(t *testing.T) {
	big := `{"name":"` + strings.Repeat("x", 2048) + `"}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ipfs/bafy/1.json", "/1.json":
			_, _ = w.Write([]byte(`{"name":"One","image":"ipfs://img","attributes":[{"trait_type":"a","value":1}]}`))
		case "/moved":
			http.Redirect(w, r, "/1.json", http.StatusFound)
		case "/big":
			_, _ = w.Write([]byte(big))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	allowAll := func(netip.Addr) bool { return true }
	d := &Describer{fetcher: newFetcher(FetchOptions{Enabled: true, IPFSGateway: srv.URL + "/ipfs/", MaxBytes: 1024}, allowAll)}
	ctx := context.Background()
	for uri, want := range map[string]evmdata.IndexStatus{
		srv.URL + "/1.json":    evmdata.IndexStatusIndexed,
		srv.URL + "/moved":     evmdata.IndexStatusIndexed,
		"ipfs://bafy/1.json":   evmdata.IndexStatusIndexed,
		srv.URL + "/big":       evmdata.IndexStatusTooLarge,
		srv.URL + "/missing":   evmdata.IndexStatusUnreachable,
		"ftp://example/1.json": evmdata.IndexStatusInvalidScheme,
	} {
		m := evmdata.NFTMetadata{TokenURI: uri, Status: evmdata.IndexStatusUnindexed}
		d.fetchDocument(ctx, &m, uri, evmdata.Erc721)
		require.Equal(t, want, m.Status, uri)
		if want == evmdata.IndexStatusIndexed {
			require.Equal(t, "One", m.Name)
			require.Equal(t, "ipfs://img", m.ImageURI)
		}
	}
}
