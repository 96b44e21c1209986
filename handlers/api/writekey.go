package api

import (
	"net/http"
	"slices"
)

// Operations that make the node do work on a client's behalf (reindex an
// NFT's metadata, run an export) are served only to a client with an API
// key the operator configured. The rate limiter has already turned away an
// unknown key (401) and noted a known one in the request info, so a request
// reaching an operation either carries a configured key or none.

// RequireAPIKey returns a 401 unless r carries an API key the operator
// configured.
func RequireAPIKey(r *http.Request, operation string) error {
	if RequestInfoFrom(r.Context()).Client == SourceAPIKey {
		return nil
	}
	return NewError(http.StatusUnauthorized,
		"%s needs an API key: send one the node's operator configured (apiKeys in the chain config) "+
			"in x-data-api-key or x-glacier-api-key", operation)
}

// RequireKeyAmong returns a 401 unless r carries a configured API key and a
// 403 when that key is not among keys: the operations only some keys may
// use (webhook management). setting names the config key that lists them.
func RequireKeyAmong(r *http.Request, operation string, keys []string, setting string) error {
	if err := RequireAPIKey(r, operation); err != nil {
		return err
	}
	if key := RequestInfoFrom(r.Context()).APIKey; key != "" && slices.Contains(keys, key) {
		return nil
	}
	return NewError(http.StatusForbidden,
		"%s needs an API key the operator allowed for it (%s in the chain config); this key may only read", operation, setting)
}
