package vm

import (
	"bytes"
	"encoding/hex"
	"fmt"
)

// Page tokens are signed with HMAC-SHA256 (handlers/pagetoken.go). By
// default each node signs with a random secret it keeps in its index, so
// only that node accepts its tokens. Replicas behind one load balancer set
// the same pageTokenSecret instead, so a client's next page may go to any
// of them.

// minPageTokenSecretBytes is the least secret accepted: HMAC-SHA256's own
// output size, the strength of the per-node default.
const minPageTokenSecretBytes = 32

// pageTokenSecretHelp says how to write a good secret; config errors end
// with it. The secret itself is never quoted in an error: errors reach the
// node's log.
const pageTokenSecretHelp = "pageTokenSecret must be at least 32 random bytes written as hex " +
	"(64 or more hex digits, e.g. the output of `openssl rand -hex 32`), the same on every replica"

// pageTokenSecret decodes the pageTokenSecret key: nil when it is not set.
func (c Config) pageTokenSecret() ([]byte, error) {
	if c.PageTokenSecret == "" {
		return nil, nil
	}
	secret, err := hex.DecodeString(c.PageTokenSecret)
	if err != nil {
		return nil, fmt.Errorf("pageTokenSecret is not hex (%d characters, some not hex digits, or an odd count): %s",
			len(c.PageTokenSecret), pageTokenSecretHelp)
	}
	if len(secret) < minPageTokenSecretBytes {
		return nil, fmt.Errorf("pageTokenSecret is %d bytes, too short: %s", len(secret), pageTokenSecretHelp)
	}
	// A placeholder ("000...0") decodes fine but protects nothing.
	if bytes.Count(secret, secret[:1]) == len(secret) {
		return nil, fmt.Errorf("pageTokenSecret repeats one byte, not a random secret: %s", pageTokenSecretHelp)
	}
	return secret, nil
}
