package api

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

// Several nodes, each running avadata, can serve one API behind a load
// balancer (replicas). Each has its own index, at its own height. So that
// the replicas serve one consistent API:
//
//   - every response that reads the index says which state it reflects, in
//     the X-Indexed-Height header, so a client or a balancer can tell
//     replicas apart;
//   - every page token carries the heights its page was cut at, and a
//     replica serves the next page only from an index at least that far
//     (replicas.go), so paging never goes back to an older state.
//
// Heights are kept per stream: one per followed chain, plus the X-chain's
// pre-Cortina vertices, which have their own follower and position. A stream
// is named the same way on every node of a network: "P", "X", "C" and
// "X-vertices", and the blockchain ID (cb58) of any other chain. The
// store's chain numbers cannot serve: they depend on the order in which a
// node discovered its chains.
//
// The handlers record what they read in the request's Heights, which
// adapt gives every handler and writes out as X-Indexed-Height: a
// resolved chain is recorded at the height indexed at that moment (the
// response reflects at least that state); a listing pinned to a height
// (the EVM listings) pins its stream to exactly that height.

// HeaderIndexedHeight is the response header naming the heights a response
// reflects: "<stream>=<height>", comma-separated when a response read
// several streams, sorted by stream name. E.g. "C=1234" or "P=10, X=7".
const HeaderIndexedHeight = "X-Indexed-Height"

// VertexStream names the X-chain vertex follower: its follower.Identity
// name (indexer.add), which /v1/status shows too.
const VertexStream = "X-vertices"

// StreamHeight is the indexed height of one stream.
type StreamHeight struct {
	Stream string
	Height uint64
}

// ChainStream names the block stream of chain.
func ChainStream(node netinfo.Info, chain netinfo.Chain) string {
	if chain.IsPrimary() {
		return chain.String()
	}
	return node.ChainID(chain).String()
}

// EVMChainStream names the block stream of an EVM chain: the C-chain's
// name, or the chain's cb58 blockchain ID. Request paths use
// Core.EVMChainStream, the same name kept per chain.
func EVMChainStream(ci netinfo.ChainInfo) string {
	if ci.Chain.IsPrimary() {
		return ci.Chain.String()
	}
	return ci.BlockchainID.String()
}

// EVMChainStream is api.EVMChainStream with the cb58 ID computed once per
// chain (see streamNames).
func (c *Core) EVMChainStream(ci netinfo.ChainInfo) string {
	if ci.Chain.IsPrimary() {
		return ci.Chain.String()
	}
	return c.streamName(ci.BlockchainID)
}

// StreamStatus is what a replica knows of one of its streams.
type StreamStatus struct {
	Height uint64
	// BlocksPerSecond is the follower's recent rate, for Retry-After.
	BlocksPerSecond float64
	Paused          bool
}

// streamStatuses reads the follower statuses, by stream name. The X-chain
// reports two followers: its blocks, then its vertices.
func (c *Core) streamStatuses() map[string]StreamStatus {
	node := c.Network()
	out := map[string]StreamStatus{}
	for _, st := range c.Statuses() {
		stream := c.statusStream(node, st)
		if _, seen := out[stream]; !seen {
			out[stream] = StreamStatus{Height: st.IndexedHeight, BlocksPerSecond: st.BlocksPerSecond, Paused: st.Paused}
		}
	}
	return out
}

func (c *Core) statusStream(node netinfo.Info, st follower.Status) string {
	if st.Chain == netinfo.X && st.ChainName == VertexStream {
		return VertexStream
	}
	if st.Chain.IsPrimary() {
		return ChainStream(node, st.Chain)
	}
	return c.streamName(node.ChainID(st.Chain))
}

// streamName is the stream name of a non-primary chain (ChainStream's): its
// cb58 ID, computed once per chain.
func (c *Core) streamName(id ids.ID) string {
	if name, ok := c.streamNames.Load(id); ok {
		return name.(string)
	}
	name := id.String()
	c.streamNames.Store(id, name)
	return name
}

// currentHeight is stream's indexed height now (0 when it has no follower
// yet).
func (c *Core) currentHeight(stream string) uint64 {
	return c.streamStatuses()[stream].Height
}

// ReadsStream records that the request reads stream, at its height now.
func (c *Core) ReadsStream(heights *Heights, stream string) {
	heights.Note(stream, c.currentHeight(stream))
}

// ReadsChain records that the request reads chain's blocks.
func (c *Core) ReadsChain(heights *Heights, chain netinfo.Chain) {
	c.ReadsStream(heights, ChainStream(c.Network(), chain))
}

// PageReaches records that a page read items up to height of chain: the
// replica serving the next page must hold that height even if this
// follower's status does not show it yet (the store makes a batch's rows
// visible before its position). A stream without a follower here is left as
// it is.
func (c *Core) PageReaches(pg Page, chain netinfo.Chain, height uint64) {
	stream := ChainStream(c.Network(), chain)
	if _, followed := c.streamStatuses()[stream]; followed {
		pg.heights().AtLeast(stream, height)
	}
}

// cutHeights are the heights a page token records: a pinned stream at its
// pin; any other at the highest of what the request saw and what is indexed
// now, after the page's reads, so the token is never below the state the
// page showed. The record takes the same heights, for the header.
func (c *Core) cutHeights(read *Heights) []StreamHeight {
	now := c.streamStatuses()
	return read.raiseUnpinned(func(stream string) uint64 { return now[stream].Height })
}

// Heights is what one request read of the index. Safe for concurrent
// use (a handler may read in parallel).
type Heights struct {
	mu      sync.Mutex
	streams []viewedStream
	// history: the first indexed block of each chain read whose index
	// starts above genesis (history.go).
	history []StreamHeight
}

type viewedStream struct {
	StreamHeight
	// pinned: the response shows exactly this height (a listing pinned to
	// the height of its first page), not at least it.
	pinned bool
}

func (v *Heights) find(stream string) int {
	return slices.IndexFunc(v.streams, func(vs viewedStream) bool { return vs.Stream == stream })
}

// Note records stream at height unless it is recorded already.
func (v *Heights) Note(stream string, height uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.find(stream) < 0 {
		v.streams = append(v.streams, viewedStream{StreamHeight: StreamHeight{Stream: stream, Height: height}})
	}
}

// Height returns the height recorded for stream.
func (v *Heights) Height(stream string) (uint64, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if i := v.find(stream); i >= 0 {
		return v.streams[i].Height, true
	}
	return 0, false
}

// Pin records that the response shows stream at exactly height.
func (v *Heights) Pin(stream string, height uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	vs := viewedStream{StreamHeight: StreamHeight{Stream: stream, Height: height}, pinned: true}
	if i := v.find(stream); i >= 0 {
		v.streams[i] = vs
		return
	}
	v.streams = append(v.streams, vs)
}

// AtLeast records that the response shows stream at height or above (a
// page whose last item lies at that height).
func (v *Heights) AtLeast(stream string, height uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	i := v.find(stream)
	switch {
	case i < 0:
		v.streams = append(v.streams, viewedStream{StreamHeight: StreamHeight{Stream: stream, Height: height}})
	case !v.streams[i].pinned:
		v.streams[i].Height = max(v.streams[i].Height, height)
	}
}

// raiseUnpinned lifts every unpinned stream to at least current(stream)
// and returns all heights, sorted by stream.
func (v *Heights) raiseUnpinned(current func(stream string) uint64) []StreamHeight {
	v.mu.Lock()
	defer v.mu.Unlock()
	for i := range v.streams {
		if !v.streams[i].pinned {
			v.streams[i].Height = max(v.streams[i].Height, current(v.streams[i].Stream))
		}
	}
	return v.sortedLocked()
}

// heights returns the recorded heights, sorted by stream.
func (v *Heights) Sorted() []StreamHeight {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.sortedLocked()
}

func (v *Heights) sortedLocked() []StreamHeight {
	out := make([]StreamHeight, len(v.streams))
	for i, vs := range v.streams {
		out[i] = vs.StreamHeight
	}
	slices.SortFunc(out, func(a, b StreamHeight) int { return strings.Compare(a.Stream, b.Stream) })
	return out
}

// FormatHeights renders heights as the X-Indexed-Height value.
func FormatHeights(heights []StreamHeight) string {
	parts := make([]string, len(heights))
	for i, h := range heights {
		parts[i] = h.Stream + "=" + strconv.FormatUint(h.Height, 10)
	}
	return strings.Join(parts, ", ")
}

// indexedHeightWriter sets X-Indexed-Height just before the status line
// goes out, when the handler has done its reads.
type indexedHeightWriter struct {
	http.ResponseWriter
	heights     *Heights
	wroteHeader bool
}

func (w *indexedHeightWriter) WriteHeader(status int) {
	if !w.wroteHeader {
		w.wroteHeader = true
		if heights := w.heights.Sorted(); len(heights) > 0 {
			w.Header().Set(HeaderIndexedHeight, FormatHeights(heights))
		}
		setHistoryHeader(w.Header(), w.heights)
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *indexedHeightWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *indexedHeightWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
