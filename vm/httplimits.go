package vm

import (
	"errors"
	"fmt"
	"time"

	"github.com/avadata/avadata/handlers/limits"
	"github.com/avadata/avadata/handlers/serve"
)

// maxRequestTimeout bounds requestTimeout. The node cuts a reply off at its
// own --http-write-timeout (30 s by default), so a budget above it would
// only ever show as a dropped connection; the bound just catches typos
// ("20m" for "20s") without presuming the node's setting.
const maxRequestTimeout = 10 * time.Minute

// validateHTTPLimits checks the rate limits, body bound and time budget.
func (c Config) validateHTTPLimits() error {
	rl := c.RateLimit
	if rl.AnonymousRPS < 0 || rl.AnonymousBurst < 0 || rl.KeyRPS < 0 || rl.KeyBurst < 0 || rl.MaxClients < 0 {
		return errors.New("rateLimit: anonymousRps, anonymousBurst, keyRps, keyBurst and maxClients must be positive (0 or absent: the default)")
	}
	if _, err := limits.ParseTrustedProxies(rl.TrustedProxies); err != nil {
		return fmt.Errorf("rateLimit.%w", err)
	}
	if c.MaxRequestBodyBytes < 0 {
		return errors.New("maxRequestBodyBytes must be positive (0 or absent: the default)")
	}
	if c.RequestTimeout < 0 || time.Duration(c.RequestTimeout) > maxRequestTimeout {
		return fmt.Errorf("requestTimeout %s out of range: want a positive duration up to %s, below the node's --http-write-timeout (0 or absent: the default)",
			time.Duration(c.RequestTimeout), maxRequestTimeout)
	}
	return nil
}

// httpLimits fills the limit fields of the handlers' config; ParseConfig has
// validated them.
func (c Config) httpLimits(cfg *serve.Config) {
	rl := c.RateLimit
	cfg.AnonymousRPS, cfg.AnonymousBurst = rl.AnonymousRPS, rl.AnonymousBurst
	cfg.KeyRPS, cfg.KeyBurst = rl.KeyRPS, rl.KeyBurst
	if rl.TrustedProxies != nil { // absent: the handlers' default (loopback)
		cfg.TrustedProxies, _ = limits.ParseTrustedProxies(rl.TrustedProxies)
	}
	cfg.TrustUnknownPeer = rl.TrustUnknownPeer
	cfg.MaxClients = rl.MaxClients
	cfg.MaxBodyBytes = c.MaxRequestBodyBytes
	cfg.RequestTimeout = time.Duration(c.RequestTimeout)
}
