package vm

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Nothing in snow.Context gives the node's HTTP address, so it comes from the
// chain config (nodeURI) or, failing that, from the process context file the
// node writes at <data-dir>/process.json just before its HTTP server starts.
// That file may appear slightly after the chain is created, so it is polled.

const nodeURIRetry = 250 * time.Millisecond

// processContextPath is where the node writes process.json relative to the
// chain's data dir (<data-dir>/chainData/<chainID>).
func processContextPath(chainDataDir string) string {
	return filepath.Join(chainDataDir, "..", "..", "process.json")
}

// resolveNodeURI returns configured if set, else waits for process.json.
func resolveNodeURI(ctx context.Context, configured, chainDataDir string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	path := processContextPath(chainDataDir)
	var lastErr error
	for {
		uri, err := readProcessContextURI(path)
		if err == nil {
			return uri, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return "", fmt.Errorf("node URI not configured and %s not readable: %w", path, lastErr)
		case <-time.After(nodeURIRetry):
		}
	}
}

func readProcessContextURI(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var pc struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(b, &pc); err != nil {
		return "", fmt.Errorf("parsing %s: %w", path, err)
	}
	if pc.URI == "" {
		return "", fmt.Errorf("%s has no uri", path)
	}
	return pc.URI, nil
}
