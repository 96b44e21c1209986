package aggregator

import (
	"sync"

	"github.com/ava-labs/avalanchego/cache/lru"
	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/bls"
)

// signatureCache keeps the verified signatures of recent messages, by
// message ID and signer BLS key, so that asking again (another quorum,
// another height, a retry after a failure) needs no network traffic for
// the validators that already signed. A signature is the signer's over the
// message bytes alone, so it stays valid at any P-chain height where the
// key signs for the subnet. Late answers, after a request had its quorum,
// land here too.
//
// One lock guards everything, readers included: icm-services' cache hands
// out its maps and lets readers race its writers.
type signatureCache struct {
	mu    sync.Mutex
	byMsg *lru.SizedCache[ids.ID, signatureSet]
}

// signatureSet maps a signer's uncompressed BLS public key bytes to its
// signature over one message.
type signatureSet map[string]*bls.Signature

// cachedSignatureBytes is roughly what one cached signature costs: the key
// string, the signature (a point in memory) and the map entry.
const cachedSignatureBytes = 2*bls.PublicKeyLen + 2*bls.SignatureLen + 64

func newSignatureCache(maxBytes int) *signatureCache {
	size := func(_ ids.ID, s signatureSet) int { return ids.IDLen + 64 + len(s)*cachedSignatureBytes }
	return &signatureCache{byMsg: lru.NewSizedCache(maxBytes, size)}
}

// lookup returns the cached signatures of the message by the given keys,
// keyed like signatureSet; keys without one are left out.
func (c *signatureCache) lookup(msgID ids.ID, publicKeys [][]byte) signatureSet {
	c.mu.Lock()
	defer c.mu.Unlock()
	cached, ok := c.byMsg.Get(msgID)
	if !ok {
		return nil
	}
	out := signatureSet{}
	for _, pk := range publicKeys {
		if sig, ok := cached[string(pk)]; ok {
			out[string(pk)] = sig
		}
	}
	return out
}

// add caches a verified signature of the message by the key.
func (c *signatureCache) add(msgID ids.ID, publicKey []byte, sig *bls.Signature) {
	c.mu.Lock()
	defer c.mu.Unlock()
	cached, ok := c.byMsg.Get(msgID)
	if !ok {
		cached = signatureSet{}
	}
	if _, dup := cached[string(publicKey)]; dup {
		return
	}
	cached[string(publicKey)] = sig
	c.byMsg.Put(msgID, cached) // again, to account for its new size
}

// len is how many messages have cached signatures.
func (c *signatureCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byMsg.Len()
}
