package api

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/avadata/avadata/indexer/netinfo"
)

// A chain's index may start above genesis (a node that state-synced the
// chain, or prunes its blocks, serves nothing older): the store's
// HistoryFrom is its first indexed block. Every answer a missing prefix
// could change says so instead of answering short:
//
//   - a parameter naming a range before the first indexed block
//     (startBlock, blockNumber, a date before its time) is a 400;
//   - a resource that lies before it (a block, a transaction, a contract's
//     deployment) is a 404;
//   - every reply about such a chain carries X-Avadata-History-From, so a
//     client can tell a listing that ends at the first indexed block from
//     one that reaches genesis.
//
// Each message names the chain and the first indexed block as a decimal
// number, what was asked, and what to do. Handlers ask the store per
// request (a back-fill lowers the first block as it goes), never cache it.

// HeaderHistoryFrom is the response header of a reply about a chain whose
// index starts above genesis: its first indexed block, in decimal ("812").
// A reply about several such chains (the all-chains listings) names each
// by stream, as X-Indexed-Height does ("<stream>=812, <stream>=40").
const HeaderHistoryFrom = "X-Avadata-History-From"

// History is where one chain's history in this node's index starts.
type History struct {
	// Chain names the chain in messages: "C-chain", or "chain 99999
	// ('mysubnet')".
	Chain string
	// From is the first block the index holds: 1 when it holds the chain
	// from genesis (block 0 holds no transactions and is never indexed).
	From uint64
	// DerivedFrom is where the running state (cumulative tx counts, NFT
	// holdings and counts) counts from: From, except while a back-fill
	// fills below it; Rederiving says the back-fill is rebuilding that
	// state, which then cannot be shown at all.
	DerivedFrom uint64
	Rederiving  bool
}

// NewHistory is the history of an EVM chain whose first indexed block is
// from.
func NewHistory(ci netinfo.ChainInfo, from uint64) History {
	label := "C-chain"
	if ci.Chain != netinfo.C {
		label = fmt.Sprintf("chain %d ('%s')", ci.EVMChainID, ChainLabel(ci))
	}
	return History{Chain: label, From: max(from, 1), DerivedFrom: max(from, 1)}
}

// WithRunningState sets where the running state counts from, as the
// store's RunningStateFrom says.
func (h History) WithRunningState(from uint64, ok bool) History {
	h.DerivedFrom, h.Rederiving = max(from, h.From), !ok
	return h
}

// CountsFromGenesis reports whether the running state counts the whole
// chain: cumulative counts and NFT holdings are the chain's.
func (h History) CountsFromGenesis() bool { return h.DerivedFrom <= 1 && !h.Rederiving }

// Partial reports an index that does not start at genesis.
func (h History) Partial() bool { return h.From > 1 }

// Starts is the sentence every refusal starts with.
func (h History) Starts() string {
	return fmt.Sprintf("%s history in this node's index starts at block %d", h.Chain, h.From)
}

// remedy is what a client or an operator can do about a refusal.
func (h History) remedy() string {
	return fmt.Sprintf("ask for blocks from %d on, or give the node the chain's full history and set indexFrom", h.From)
}

// CheckBlockParam refuses (400) a parameter naming block value when that
// block lies before the first indexed one; nil otherwise.
func (h History) CheckBlockParam(name string, value uint64) error {
	if !h.Partial() || value >= h.From {
		return nil
	}
	return BadRequest("%s: %s %d is before it; %s", h.Starts(), name, value, h.remedy())
}

// CheckBlockRange refuses (400) a startBlock before the first indexed
// block, and an endBlock (exclusive) that selects only blocks before it. A
// range without startBlock is answered: it ends at the first indexed block
// (X-Avadata-History-From says so), never reaching silently below it.
func (h History) CheckBlockRange(br BlockRange) error {
	if !h.Partial() {
		return nil
	}
	if br.Start.Set {
		return h.CheckBlockParam(paramStartBlock, br.Start.Value)
	}
	if br.End.Set && br.End.Value > 1 && br.End.Value <= h.From {
		return BadRequest("%s: %s %d (exclusive) selects only blocks before it; %s",
			h.Starts(), paramEndBlock, br.End.Value, h.remedy())
	}
	return nil
}

// BlockBefore is the 404 of block number n when it lies before the first
// indexed block (the caller checked).
func (h History) BlockBefore(n uint64) error {
	return NotFound("%s: block %d is before it; %s", h.Starts(), n, h.remedy())
}

// Before is the 404 of a resource that may lie before the first indexed
// block: what describes it ("transaction 0xab… is not in the index").
func (h History) Before(what string) error {
	return NotFound("%s: %s; it may be in an earlier block, which this node's index does not hold; "+
		"give the node the chain's full history and set indexFrom to find it", h.Starts(), what)
}

// Unknown is the 4xx of a figure the missing prefix makes unknown (a
// holder count, a collection's owners): status is its HTTP status, what
// names the figure and why.
func (h History) Unknown(status int, what string) error {
	return NewError(status, "%s: %s cannot be known from the index; give the node the chain's full history and set indexFrom",
		h.Starts(), what)
}

// NoteHistory records that the reply is about stream, whose history starts
// at from, for X-Avadata-History-From. A chain indexed from genesis is not
// recorded.
func (v *Heights) NoteHistory(stream string, from uint64) {
	if from <= 1 {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	for i := range v.history {
		if v.history[i].Stream == stream {
			v.history[i].Height = from
			return
		}
	}
	v.history = append(v.history, StreamHeight{Stream: stream, Height: from})
}

// historyHeader is the X-Avadata-History-From value; "" when no partial
// chain was read.
func (v *Heights) historyHeader() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch len(v.history) {
	case 0:
		return ""
	case 1:
		return strconv.FormatUint(v.history[0].Height, 10)
	}
	parts := make([]string, len(v.history))
	for i, h := range v.history {
		parts[i] = h.Stream + "=" + strconv.FormatUint(h.Height, 10)
	}
	return strings.Join(parts, ", ")
}

// setHistoryHeader writes X-Avadata-History-From when the reply read a
// chain whose index starts above genesis.
func setHistoryHeader(h http.Header, heights *Heights) {
	if v := heights.historyHeader(); v != "" {
		h.Set(HeaderHistoryFrom, v)
	}
}

// IsNotFound reports whether err is a 404 of this package.
func IsNotFound(err error) bool {
	var apiErr *Error
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound
}
