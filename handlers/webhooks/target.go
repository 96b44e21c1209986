package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/safehttp"
)

// parseTargetURL reads the url member: an absolute http or https URL with
// a host, at most maxURLBytes long. Where it points is checkTarget's.
func parseTargetURL(fields map[string]json.RawMessage, name string, required bool) (string, error) {
	raw, err := api.StringFieldAt(fields, "", name)
	if err != nil {
		return "", err
	}
	if raw == "" {
		if required {
			return "", api.BadRequest("%s is required: the http or https URL deliveries are POSTed to", name)
		}
		return "", nil
	}
	if len(raw) > maxURLBytes {
		return "", api.BadRequest("invalid %s: is %d bytes long, at most %d are allowed", name, len(raw), maxURLBytes)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", api.BadRequest("invalid %s '%s': not a URL (%v)", name, api.Truncate(raw), unwrapURLError(err))
	}
	if scheme := strings.ToLower(u.Scheme); scheme != "http" && scheme != "https" {
		return "", api.BadRequest("invalid %s '%s': the scheme must be http or https", name, api.Truncate(raw))
	}
	if !u.IsAbs() || u.Hostname() == "" {
		return "", api.BadRequest("invalid %s '%s': must be an absolute URL with a host", name, api.Truncate(raw))
	}
	return raw, nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// checkTarget refuses a URL whose host resolves to an address that is
// not public (loopback, private, link-local, ...), unless the operator
// allows private targets. The delivery's dialer checks every connection
// again (a name may resolve elsewhere later); this check tells the
// caller now instead of letting every delivery fail.
func (s *server) checkTarget(ctx context.Context, raw string) error {
	if s.cfg.AllowPrivateTargets {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return api.BadRequest("invalid %s '%s': not a URL", fieldURL, api.Truncate(raw))
	}
	host := u.Hostname()
	addrs, err := s.cfg.Resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var dnsErr *net.DNSError
		if errors.As(err, &dnsErr) && dnsErr.IsTemporary {
			return api.NewError(http.StatusServiceUnavailable, "resolving the %s host '%s' failed for now: %v; try again", fieldURL, api.Truncate(host), dnsErr)
		}
		return api.BadRequest("invalid %s '%s': its host '%s' does not resolve", fieldURL, api.Truncate(raw), api.Truncate(host))
	}
	for _, a := range addrs {
		if a = a.Unmap(); !safehttp.PublicAddress(a) {
			return api.BadRequest("invalid %s '%s': its host resolves to %s, which is not a public address "+
				"(loopback, private, link-local and reserved targets are refused unless the operator sets "+
				"webhooks.allowPrivateTargets)", fieldURL, api.Truncate(raw), a)
		}
	}
	if len(addrs) == 0 {
		return api.BadRequest("invalid %s '%s': its host '%s' does not resolve", fieldURL, api.Truncate(raw), api.Truncate(host))
	}
	return nil
}

var _ Resolver = (*net.Resolver)(nil)
