package evmmeta

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/avadata/avadata/indexer/safehttp"
)

// FetchOptions turn on reading NFT metadata documents from http(s) and ipfs
// URIs. It is off by default: it makes the node call out to addresses that
// token contracts choose.
type FetchOptions struct {
	Enabled bool
	// IPFSGateway serves ipfs:// URIs, e.g. "https://ipfs.io/ipfs/".
	IPFSGateway string
	// Timeout bounds one document (connection, redirects and body).
	Timeout time.Duration
	// MaxBytes bounds one document.
	MaxBytes int64
}

// Defaults of FetchOptions.
const (
	DefaultIPFSGateway   = "https://ipfs.io/ipfs/"
	DefaultFetchTimeout  = 10 * time.Second
	DefaultFetchMaxBytes = maxMetadataBytes
	maxRedirects         = 3
	// idleConnTimeout closes a connection to a metadata host left unused:
	// token URIs point at many hosts, each read rarely.
	idleConnTimeout = 90 * time.Second
)

var (
	errTooLarge = errors.New("metadata document too large")
	errScheme   = errors.New("unsupported URI scheme")
)

// fetcher reads metadata documents from the public internet only
// (safehttp): a token URI can never make the node reach its own loopback
// services or the operator's private network.
type fetcher struct {
	opts   FetchOptions
	client *http.Client
}

func newFetcher(opts FetchOptions, allowed func(netip.Addr) bool) *fetcher {
	if opts.IPFSGateway == "" {
		opts.IPFSGateway = DefaultIPFSGateway
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultFetchTimeout
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultFetchMaxBytes
	}
	client := safehttp.NewClient(safehttp.Options{Allowed: allowed, ConnectTimeout: opts.Timeout, Timeout: opts.Timeout,
		MaxRedirects: maxRedirects, MaxIdleConns: 4, IdleConnTimeout: idleConnTimeout})
	return &fetcher{opts: opts, client: client}
}

// resolve turns a token URI into the URL to fetch.
func (f *fetcher) resolve(uri string) (string, error) {
	switch {
	case strings.HasPrefix(uri, "https://"), strings.HasPrefix(uri, "http://"):
		return uri, nil
	case strings.HasPrefix(uri, "ipfs://"):
		path := strings.TrimPrefix(strings.TrimPrefix(uri, "ipfs://"), "ipfs/")
		return strings.TrimRight(f.opts.IPFSGateway, "/") + "/" + path, nil
	default:
		return "", errScheme
	}
}

// fetch reads the document at uri, at most MaxBytes of it.
func (f *fetcher) fetch(ctx context.Context, uri string) ([]byte, error) {
	target, err := f.resolve(uri)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, f.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s answered %s", target, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.opts.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > f.opts.MaxBytes {
		return nil, errTooLarge
	}
	return body, nil
}
