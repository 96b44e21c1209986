package exportjob

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/libevm/common"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/indexer/store"
)

// An export's operationId is the export itself: a token that holds the
// whole request, with every chain's block range already fixed, signed with
// the key that signs page tokens (api.EncodePageToken, keyed with the
// shared pageTokenSecret on replicas). So any replica that is asked about
// an operation it has never seen can check that avadata issued it and run
// the same export from its own index: the range is pinned, the rows are
// read in a fixed order, and each row holds only what every replica's
// index holds alike, so every replica writes the same file.
//
// Token fields (api.PageToken): Route is operationRoute, Filters the hash
// of operationRoute alone, IssuedAt the creation time, Heights one entry
// per chain (its stream and the last block of its range, in the request's
// order: a replica runs the export once its index has them) and Extra:
//
//	version(1) | count(1) | count × address(20) | chains × firstBlock(8)
const (
	operationRoute   = "postTransactionExportJob"
	operationVersion = 1
	// operationVersionPrimary marks a primary-network export: its Extra is
	// version(1) | kind(1) | count(1) | count × address(20) | chains ×
	// firstBlock(8).
	operationVersionPrimary = 2
	// MaxAddresses and MaxChains bound one export; they keep the token
	// within a page token's 255 extra bytes.
	MaxAddresses = 10
	MaxChains    = 5
)

// ChainRange is one chain's part of an export: blocks From through To
// (From > To: none).
type ChainRange struct {
	// Stream names the chain as api.EVMChainStream does, the same on every
	// replica.
	Stream string
	From   uint64
	To     uint64
}

// Empty reports whether the range holds no block.
func (c ChainRange) Empty() bool { return c.From > c.To }

// Spec is what an export exports: the native transactions of Addresses
// over each chain's range, the chains one after the other.
type Spec struct {
	Chains    []ChainRange
	Addresses []common.Address
	CreatedAt time.Time // whole seconds
	// Primary, when set, makes it a primary-network export (primary.go) of
	// PrimaryAddresses, its chains streams P, X and C; Addresses is then
	// empty.
	Primary          PrimaryKind
	PrimaryAddresses []ids.ShortID
}

// errNotOurs is an operationId this API did not issue.
var errNotOurs = errors.New("not an operationId issued by avadata")

// encodeOperationID signs spec into an operationId.
func encodeOperationID(key []byte, spec Spec) (string, error) {
	addrs := len(spec.Addresses)
	if spec.Primary != 0 {
		addrs = len(spec.PrimaryAddresses)
	}
	if addrs == 0 || addrs > MaxAddresses || len(spec.Chains) == 0 || len(spec.Chains) > MaxChains {
		return "", fmt.Errorf("encoding operationId: %d addresses and %d chains, want 1..%d and 1..%d",
			addrs, len(spec.Chains), MaxAddresses, MaxChains)
	}
	var extra []byte
	if spec.Primary != 0 {
		extra = encodePrimaryAddresses([]byte{operationVersionPrimary}, spec)
	} else {
		extra = []byte{operationVersion, byte(len(spec.Addresses))}
		for _, a := range spec.Addresses {
			extra = append(extra, a[:]...)
		}
	}
	heights := make([]api.StreamHeight, len(spec.Chains))
	for i, c := range spec.Chains {
		extra = binary.BigEndian.AppendUint64(extra, c.From)
		heights[i] = api.StreamHeight{Stream: c.Stream, Height: c.To}
	}
	return api.EncodePageToken(key, api.PageToken{
		Route:    operationRoute,
		Filters:  api.NewFilterHash(operationRoute),
		Extra:    extra,
		IssuedAt: spec.CreatedAt,
		Heights:  heights,
	})
}

// decodeOperationID checks that id was signed with key and reads its spec.
// Every failure wraps errNotOurs.
func decodeOperationID(key []byte, id string, now time.Time) (Spec, error) {
	t, err := api.DecodePageToken(key, id, operationRoute, api.NewFilterHash(operationRoute), 0, now)
	if err != nil {
		return Spec{}, fmt.Errorf("%w: %w", errNotOurs, err)
	}
	x := t.Extra
	if len(x) >= 1 && x[0] == operationVersionPrimary && len(t.Heights) > 0 {
		spec := Spec{CreatedAt: t.IssuedAt}
		x, ok := decodePrimaryAddresses(x[1:], len(t.Heights), &spec)
		if !ok {
			return Spec{}, fmt.Errorf("%w: malformed operationId", errNotOurs)
		}
		for _, h := range t.Heights {
			spec.Chains = append(spec.Chains, ChainRange{Stream: h.Stream, From: binary.BigEndian.Uint64(x), To: h.Height})
			x = x[8:]
		}
		return spec, nil
	}
	if len(x) < 2 || x[0] != operationVersion {
		return Spec{}, fmt.Errorf("%w: unknown operationId version", errNotOurs)
	}
	n := int(x[1])
	x = x[2:]
	if n == 0 || len(x) != n*common.AddressLength+8*len(t.Heights) || len(t.Heights) == 0 {
		return Spec{}, fmt.Errorf("%w: malformed operationId", errNotOurs)
	}
	spec := Spec{CreatedAt: t.IssuedAt}
	for range n {
		spec.Addresses = append(spec.Addresses, common.BytesToAddress(x[:common.AddressLength]))
		x = x[common.AddressLength:]
	}
	for _, h := range t.Heights {
		spec.Chains = append(spec.Chains, ChainRange{Stream: h.Stream, From: binary.BigEndian.Uint64(x), To: h.Height})
		x = x[8:]
	}
	return spec, nil
}

// jobID files an operation in the store: the same on every replica.
func jobID(operationID string) store.ExportJobID {
	sum := sha256.Sum256([]byte(operationID))
	return store.ExportJobID(sum[:store.ExportJobIDLen])
}
