package evmmeta

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"
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
)

var (
	errForbiddenAddress = errors.New("address not allowed: loopback, private, link-local or otherwise not public")
	errTooLarge         = errors.New("metadata document too large")
	errScheme           = errors.New("unsupported URI scheme")
)

// fetcher reads metadata documents from the public internet only: every
// connection, redirects included, is checked after name resolution, so a
// token URI can never make the node reach its own loopback services or the
// operator's private network.
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
	dialer := &net.Dialer{Timeout: opts.Timeout, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil || !allowed(ap.Addr().Unmap()) {
			return fmt.Errorf("%s: %w", address, errForbiddenAddress)
		}
		return nil
	}}
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would hide the real destination from the check
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   opts.Timeout,
		ResponseHeaderTimeout: opts.Timeout,
		MaxIdleConns:          4,
	}
	client := &http.Client{
		Transport: transport,
		Timeout:   opts.Timeout,
		CheckRedirect: func(_ *http.Request, via []*http.Request) error {
			if len(via) >= maxRedirects {
				return errors.New("too many redirects")
			}
			return nil
		},
	}
	return &fetcher{opts: opts, client: client}
}

// publicAddress is the production address check.
func publicAddress(a netip.Addr) bool {
	return a.IsGlobalUnicast() && !a.IsPrivate() && !a.IsLoopback() && !a.IsLinkLocalUnicast()
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
