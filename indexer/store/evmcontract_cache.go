package store

import (
	"sync/atomic"

	"github.com/ava-labs/avalanchego/cache/lru"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/indexer/evmdata"
	"github.com/avadata/avadata/indexer/netinfo"
)

// contractCache keeps Store.Contract's answers, found or not. Every shaped
// address is looked up (a transaction's sender and recipient, a page's
// counterparties, a balance page's tokens), mostly externally owned
// accounts the index has no row for, and the same few tokens again and
// again; each lookup was a read transaction with two point reads.
//
// An answer is kept with its chain's generation, read before the store is;
// the generation moves on after every commit that writes a contract or
// deployment row of the chain (a block that deploys one or reveals a
// token's standard, metadata read on chain), so an answer read before such
// a commit is never served after it. On a chain without new contracts the
// answers stay; on a busy one they live for a few blocks.
type contractCache struct {
	gens    [256]atomic.Uint64 // by netinfo.Chain
	entries *lru.Cache[contractCacheKey, cachedContract]
}

// contractCacheEntries bounds the cached answers (about 200 bytes each).
const contractCacheEntries = 1 << 14

type contractCacheKey struct {
	chain netinfo.Chain
	addr  common.Address
}

type cachedContract struct {
	contract evmdata.Contract
	found    bool
	gen      uint64
}

func newContractCache() *contractCache {
	return &contractCache{entries: lru.NewCache[contractCacheKey, cachedContract](contractCacheEntries)}
}

// generation is chain's generation now: read it before reading the store.
func (c *contractCache) generation(chain netinfo.Chain) uint64 { return c.gens[chain].Load() }

// get returns the answer kept for addr if it is of chain's current
// generation; the contract is the caller's (its Deployment a copy).
func (c *contractCache) get(chain netinfo.Chain, addr common.Address) (evmdata.Contract, bool, bool) {
	hit, ok := c.entries.Get(contractCacheKey{chain, addr})
	if !ok || hit.gen != c.generation(chain) {
		return evmdata.Contract{}, false, false
	}
	return ownContract(hit.contract), hit.found, true
}

// put keeps an answer read at generation gen.
func (c *contractCache) put(chain netinfo.Chain, addr common.Address, contract evmdata.Contract, found bool, gen uint64) {
	c.entries.Put(contractCacheKey{chain, addr}, cachedContract{contract: ownContract(contract), found: found, gen: gen})
}

// invalidate ends chain's generation: call it after a commit that wrote a
// contract or deployment row of chain.
func (c *contractCache) invalidate(chain netinfo.Chain) { c.gens[chain].Add(1) }

// ownContract copies what c points to, so that neither the cache nor a
// caller sees the other's changes.
func ownContract(c evmdata.Contract) evmdata.Contract {
	if c.Deployment != nil {
		d := *c.Deployment
		c.Deployment = &d
	}
	return c
}

// writesContract reports whether k is a contract or deployment row (the
// rows Store.Contract reads).
func writesContract(k []byte) bool { return len(k) > 0 && (k[0] == tagContract || k[0] == tagDeploy) }
