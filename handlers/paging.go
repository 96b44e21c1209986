package handlers

import (
	"errors"
	"fmt"
	"time"
)

// Server-side helpers around page tokens: every list endpoint resumes from a
// token's position and issues the next one the same way.

// resumeFrom decodes the request's optional pageToken. An absent token means
// the first page and yields the zero PageToken (Position 0). A token the
// client got wrong is a 400; a failure on our side (no signing key) is not.
func (s *server) resumeFrom(raw, route string, filters FilterHash, maxAge time.Duration) (PageToken, error) {
	if raw == "" {
		return PageToken{}, nil
	}
	token, err := DecodePageToken(s.backend.PageTokenKey(), raw, route, filters, maxAge, s.now())
	switch {
	case errors.Is(err, errInvalidPageToken):
		return PageToken{}, badRequest("%v", err)
	case err != nil:
		return PageToken{}, fmt.Errorf("decoding page token: %w", err)
	}
	return token, nil
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
