package chaincreate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/vm"
)

func TestInstallation(t *testing.T) {
	in := DefaultInstallation(t.TempDir())
	rec, err := in.ReadRecord()
	require.NoError(t, err)
	require.Nil(t, rec, "nothing installed yet")

	want := Record{SubnetID: ids.GenerateTestID(), ChainID: ids.GenerateTestID()}
	require.NoError(t, in.WriteRecord(want))
	rec, err = in.ReadRecord()
	require.NoError(t, err)
	require.Equal(t, want, *rec)

	src := filepath.Join(t.TempDir(), "avadata")
	require.NoError(t, os.WriteFile(src, []byte("plugin bytes"), 0o755))
	dst, err := in.InstallPlugin(src)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(in.PluginDir, vm.ID.String()), dst)
	got, err := os.ReadFile(dst)
	require.NoError(t, err)
	require.Equal(t, "plugin bytes", string(got))
	info, err := os.Stat(dst)
	require.NoError(t, err)
	require.NotZero(t, info.Mode()&0o100, "the node executes the plugin")

	path, wrote, err := in.WriteChainConfig(want.ChainID, "http://127.0.0.1:9650")
	require.NoError(t, err)
	require.True(t, wrote)
	require.JSONEq(t, `{"nodeURI": "http://127.0.0.1:9650"}`, string(must(os.ReadFile(path))))

	// The operator's own config is never overwritten.
	require.NoError(t, os.WriteFile(path, []byte(`{"nodeURI": "http://10.0.0.1:9650", "indexFrom": "genesis"}`), 0o644))
	_, wrote, err = in.WriteChainConfig(want.ChainID, "http://127.0.0.1:9650")
	require.NoError(t, err)
	require.False(t, wrote)
	require.Contains(t, string(must(os.ReadFile(path))), "10.0.0.1")
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
