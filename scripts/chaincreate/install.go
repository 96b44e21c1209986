package chaincreate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/vm"
)

// Installation is where avadata goes on an existing node: the node's
// plugin dir and chain config dir (their defaults under the node's data
// dir, as avalanchego has them).
type Installation struct {
	PluginDir      string
	ChainConfigDir string
}

// DefaultInstallation is the layout of a node started with --data-dir
// dataDir and no --plugin-dir or --chain-config-dir.
func DefaultInstallation(dataDir string) Installation {
	return Installation{
		PluginDir:      filepath.Join(dataDir, "plugins"),
		ChainConfigDir: filepath.Join(dataDir, "configs", "chains"),
	}
}

// Record is what a run of the installer keeps beside the chain configs, so
// that a second run reuses the chain it created instead of paying for
// another one.
type Record struct {
	SubnetID ids.ID `json:"subnetId"`
	ChainID  ids.ID `json:"chainId"`
}

// recordFile is the record's name in the chain config dir.
const recordFile = "avadata-install.json"

// ReadRecord returns the recorded chain, nil when there is none.
func (in Installation) ReadRecord() (*Record, error) {
	b, err := os.ReadFile(filepath.Join(in.ChainConfigDir, recordFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the install record: %w", err)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("decoding the install record %s: %w", filepath.Join(in.ChainConfigDir, recordFile), err)
	}
	return &r, nil
}

// WriteRecord keeps r for the next run.
func (in Installation) WriteRecord(r Record) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(in.ChainConfigDir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", in.ChainConfigDir, err)
	}
	return writeFileAtomic(filepath.Join(in.ChainConfigDir, recordFile), append(b, '\n'), 0o644)
}

// InstallPlugin copies the plugin binary at src to <plugin dir>/<VM ID>,
// where the node looks for it, replacing an older copy.
func (in Installation) InstallPlugin(src string) (string, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("reading the plugin %s (make build builds it): %w", src, err)
	}
	if err := os.MkdirAll(in.PluginDir, 0o755); err != nil {
		return "", fmt.Errorf("creating the plugin dir %s: %w", in.PluginDir, err)
	}
	dst := filepath.Join(in.PluginDir, vm.ID.String())
	if err := writeFileAtomic(dst, b, 0o755); err != nil {
		return "", fmt.Errorf("installing the plugin: %w", err)
	}
	return dst, nil
}

// WriteChainConfig writes the avadata chain's config naming the node's
// URI, unless the operator wrote one already: that one is kept as it is.
// It reports whether it wrote.
func (in Installation) WriteChainConfig(chainID ids.ID, nodeURI string) (path string, wrote bool, err error) {
	dir := filepath.Join(in.ChainConfigDir, chainID.String())
	path = filepath.Join(dir, "config.json")
	if _, err := os.Stat(path); err == nil {
		return path, false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return path, false, fmt.Errorf("creating %s: %w", dir, err)
	}
	b, err := json.MarshalIndent(map[string]string{"nodeURI": nodeURI}, "", "  ")
	if err != nil {
		return path, false, err
	}
	if err := writeFileAtomic(path, append(b, '\n'), 0o644); err != nil {
		return path, false, fmt.Errorf("writing the chain config: %w", err)
	}
	return path, true, nil
}

// writeFileAtomic writes b to a temporary file beside path and renames it
// over path, so a node starting meanwhile never reads half a file.
func writeFileAtomic(path string, b []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
