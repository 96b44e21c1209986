package chaincreate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/avadata/avadata/indexer/nodeapi"
)

// A node that has run for months was not set up for avadata. avadata works
// on it as it is; each node setting below adds something, and the probe
// says which ones the node has, so the operator decides what is worth a
// restart (or, for the C-chain's history, a re-bootstrap).

// Capability is one node setting and what it gives avadata.
type Capability struct {
	Setting string // how to turn it on
	Adds    string // what avadata serves with it
	Has     bool
	// Detail says what the probe saw (e.g. the first block the node serves).
	Detail string
}

// probeTimeout bounds each probing call.
const probeTimeout = 10 * time.Second

// Probe asks the node at uri which of avadata's optional settings it has.
func Probe(ctx context.Context, uri string) []Capability {
	c := &prober{uri: strings.TrimRight(uri, "/"), client: &http.Client{Timeout: probeTimeout}}
	index := c.answers(ctx, "/ext/index/P/block", "index.getLastAccepted", map[string]string{"encoding": "hex"})
	first, firstErr := c.firstCBlock(ctx)
	tracer := c.answers(ctx, "/ext/bc/C/rpc", "debug_traceBlockByNumber", []any{"latest", map[string]string{"tracer": "callTracer"}})
	oldTraced := tracer && c.answers(ctx, "/ext/bc/C/rpc", "debug_traceBlockByNumber", []any{"0x1", map[string]string{"tracer": "callTracer"}})
	admin := c.answers(ctx, "/ext/admin", "admin.getLoggerLevel", map[string]string{})

	history := Capability{
		Setting: `C-chain config "state-sync-enabled": false from the node's first start (or a re-bootstrap)`,
		Adds:    "C-chain history from genesis; without it avadata indexes from the first block the node serves and refuses earlier ranges by name",
		Has:     firstErr == nil && first <= 1,
	}
	switch {
	case firstErr != nil:
		history.Detail = "could not tell: " + firstErr.Error()
	case first > 1:
		history.Detail = fmt.Sprintf("the node serves the C-chain from block %d", first)
	}
	return []Capability{
		{
			Setting: "--index-enabled=true (from the node's first start; later it needs --index-allow-incomplete and covers only what follows)",
			Adds:    "proposer details of P- and X-chain blocks (blocks proposed by a node) and DAG-era X-chain vertices; without it avadata reads P and X block by block",
			Has:     index,
		},
		history,
		{
			Setting: `"debug-tracer" in the C-chain config's "eth-apis"`,
			Adds:    "internal transactions and contracts created by contracts",
			Has:     tracer,
		},
		{
			Setting: `C-chain config "pruning-enabled": false (an archive node)`,
			Adds:    "internal transactions of old blocks (a pruning node traces only recent ones)",
			Has:     oldTraced,
		},
		{
			Setting: "--api-admin-enabled=true",
			Adds:    "the /ext/bc/data alias (without it the API is at /ext/bc/<avadata chain ID>)",
			Has:     admin,
		},
	}
}

type prober struct {
	uri    string
	client *http.Client
}

// answers reports whether a JSON-RPC call gets a result (not an error, not
// a 404 of a disabled API).
func (p *prober) answers(ctx context.Context, path, method string, params any) bool {
	var out json.RawMessage
	return p.call(ctx, path, method, params, &out) == nil
}

// firstCBlock finds the first C-chain block the node serves whole (with
// its receipts): where the plugin's follower, with indexFrom
// "earliest-available", starts the C-chain's index. It asks the plugin's
// own search (nodeapi.EVMClient.EarliestServed), so that the probe and the
// index name the same block: a state-synced node also holds the bodies of
// the summary block's parents, which a search for blocks alone would count.
func (p *prober) firstCBlock(ctx context.Context) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, firstBlockTimeout)
	defer cancel()
	c, err := nodeapi.DialEVM(ctx, p.uri, "C")
	if err != nil {
		return 0, err
	}
	defer c.Close()
	head, err := c.BlockNumber(ctx)
	if err != nil {
		return 0, err
	}
	first, err := c.EarliestServed(ctx, head)
	if err != nil {
		return 0, fmt.Errorf("finding the first C-chain block the node serves: %w", err)
	}
	return first, nil
}

// firstBlockTimeout bounds the search for the first served block: a binary
// search over the node's blocks, then a check of the blocks above it.
const firstBlockTimeout = time.Minute

func (p *prober) call(ctx context.Context, path, method string, params, out any) error {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.uri+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", path, method, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%s %s: %w", path, method, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: HTTP %d", path, method, resp.StatusCode)
	}
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &reply); err != nil {
		return fmt.Errorf("%s %s: %w", path, method, err)
	}
	if reply.Error != nil {
		return fmt.Errorf("%s %s: %s", path, method, reply.Error.Message)
	}
	return json.Unmarshal(reply.Result, out)
}
