package harness

import (
	"context"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/scripts/localnet"
)

// RestartAndKillMidCatchUp starts the node and SIGKILLs it as soon as a
// follower has indexed some but not all of the backlog. It reports whether
// that moment was caught.
func RestartAndKillMidCatchUp(t *testing.T, ctx context.Context, net *localnet.Network, base string, target map[string]uint64) bool {
	t.Helper()
	restarted := make(chan error, 1)
	go func() { restarted <- net.Restart(ctx) }()
	for {
		select {
		case err := <-restarted:
			require.NoError(t, err)
			return false // healthy before a partial state was seen
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		default:
		}
		if partial, ok := partialIndex(ctx, base, target); ok && partial {
			require.NoError(t, net.Kill())
			<-restarted // fails: the node died
			return true
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// partialIndex reports whether some follower is part-way through target;
// ok is false while the API is not up yet.
func partialIndex(ctx context.Context, base string, target map[string]uint64) (partial, ok bool) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/status", nil)
	if err != nil {
		return false, false
	}
	resp, err := HTTPClient.Do(req)
	if err != nil {
		return false, false
	}
	defer resp.Body.Close()
	var body struct {
		Chains []FollowerStatus `json:"chains"`
	}
	if resp.StatusCode != http.StatusOK || decodeJSON(resp.Body, &body) != nil {
		return false, false
	}
	for _, c := range body.Chains {
		if c.IndexedHeight > 0 && c.IndexedHeight < target[c.Chain] {
			return true, true
		}
	}
	return false, true
}

// RemoveIndex deletes avadata's Badger directory (the VM's "index" dir under
// the node's chain data) so the next start re-indexes from genesis.
func RemoveIndex(t *testing.T, dataDir string) {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dataDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "index" {
			if _, statErr := os.Stat(filepath.Join(path, "MANIFEST")); statErr == nil {
				found = append(found, path)
			}
		}
		return err
	})
	require.NoError(t, err)
	require.Len(t, found, 1, "avadata index dirs under %s", dataDir)
	require.NoError(t, os.RemoveAll(found[0]))
}
