package handlers

import (
	"errors"
	"fmt"
	"time"
)

// Server-side helpers around page tokens: every list endpoint resumes from a
// token's position and issues the next one the same way.

// pagePosition decodes an optional page token into its position; an absent
// token means the first page (position 0).
func (s *server) pagePosition(raw, route string, filters FilterHash, maxAge time.Duration) (int64, error) {
	if raw == "" {
		return 0, nil
	}
	token, err := DecodePageToken(s.backend.PageTokenKey(), raw, route, filters, maxAge, s.now())
	switch {
	case errors.Is(err, errInvalidPageToken):
		return 0, badRequest("%v", err)
	case err != nil:
		return 0, fmt.Errorf("decoding page token: %w", err)
	}
	return token.Position, nil
}

// issuePageToken signs a token pointing at position.
func (s *server) issuePageToken(route string, filters FilterHash, position int64) (string, error) {
	token, err := EncodePageToken(s.backend.PageTokenKey(), PageToken{
		Route:    route,
		Filters:  filters,
		Position: position,
		IssuedAt: s.now(),
	})
	if err != nil {
		return "", fmt.Errorf("issuing page token: %w", err)
	}
	return token, nil
}
