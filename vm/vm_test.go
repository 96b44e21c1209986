package vm

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/snow"
	"github.com/ava-labs/avalanchego/snow/snowtest"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/indexer/store"
)

// newTestVM initializes a VM on a real snow.Context whose node never
// answers (no process.json, no nodeURI), as when the node is still starting.
func newTestVM(t *testing.T, config string) (*VM, *snow.Context) {
	t.Helper()
	snowCtx := snowtest.Context(t, ids.GenerateTestID())
	snowCtx.ChainDataDir = filepath.Join(t.TempDir(), "chainData", snowCtx.ChainID.String())
	require.NoError(t, os.MkdirAll(snowCtx.ChainDataDir, 0o755))
	vm := New()
	require.NoError(t, vm.Initialize(context.Background(), snowCtx, nil, []byte("genesis"), nil, []byte(config), nil, nil))
	return vm, snowCtx
}

func TestLifecycleWithoutNode(t *testing.T) {
	require := require.New(t)
	vm, snowCtx := newTestVM(t, `{"chains":["P","C"]}`)

	// The genesis-only chain.
	last, err := vm.LastAccepted(context.Background())
	require.NoError(err)
	blk, err := vm.GetBlock(context.Background(), last)
	require.NoError(err)
	require.Zero(blk.Height())
	_, err = vm.BuildBlock(context.Background())
	require.Error(err)

	// Followers wait for the node; within the grace period that is healthy.
	statuses := vm.Statuses()
	require.Len(statuses, 2)
	require.False(statuses[0].Running)
	require.Contains(statuses[0].LastError, "not reached the node")
	_, err = vm.HealthCheck(context.Background())
	require.NoError(err)
	vm.startedAt = time.Now().Add(-2 * healthGrace)
	_, err = vm.HealthCheck(context.Background())
	require.ErrorContains(err, "follower P is not running")

	// The handlers answer already.
	handlers, err := vm.CreateHandlers(context.Background())
	require.NoError(err)
	rec := httptest.NewRecorder()
	handlers[catchAllKey].ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/ext/bc/data/v1/status", nil))
	require.Equal(http.StatusOK, rec.Code, rec.Body.String())
	var status map[string]any
	require.NoError(json.Unmarshal(rec.Body.Bytes(), &status))

	// Normal operation starts the alias task, which waits for the node URI.
	require.NoError(vm.SetState(context.Background(), snow.NormalOp))

	// Shutdown ends every background task (Wait would hang on a leaked one)
	// and closes the store: it can be reopened.
	require.NoError(vm.Shutdown(context.Background()))
	vm.wg.Wait()
	st, err := store.Open(filepath.Join(snowCtx.ChainDataDir, storeDirName), snowCtx.Log)
	require.NoError(err)
	require.NoError(st.Close())
}

func TestInitializeRejectsBadConfig(t *testing.T) {
	snowCtx := snowtest.Context(t, ids.GenerateTestID())
	snowCtx.ChainDataDir = t.TempDir()
	err := New().Initialize(context.Background(), snowCtx, nil, nil, nil, []byte(`{"nodeUrl":"x"}`), nil, nil)
	require.ErrorContains(t, err, `unknown field "nodeUrl"`)
	require.NoError(t, New().Shutdown(context.Background())) // never initialized
}

func TestNodeURIFromProcessContext(t *testing.T) {
	dataDir := t.TempDir()
	chainDataDir := filepath.Join(dataDir, "chainData", "abc")
	require.NoError(t, os.MkdirAll(chainDataDir, 0o755))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go func() {
		time.Sleep(300 * time.Millisecond) // the node writes it a little later
		_ = os.WriteFile(filepath.Join(dataDir, "process.json"), []byte(`{"pid":1,"uri":"http://127.0.0.1:9650"}`), 0o644)
	}()
	uri, err := resolveNodeURI(ctx, "", chainDataDir)
	require.NoError(t, err)
	require.Equal(t, "http://127.0.0.1:9650", uri)

	uri, err = resolveNodeURI(ctx, "http://configured", chainDataDir)
	require.NoError(t, err)
	require.Equal(t, "http://configured", uri)
}
