package evm

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// The index directory measurements of BenchmarkEVMHTTPRoutesAt1M (the
// load and the process measurements are harness.HTTPLoad's).

// findIndexDir returns avadata's Badger directory (the VM's "index" dir
// under the node's chain data), found as RemoveIndex finds it.
func findIndexDir(b *testing.B, dataDir string) string {
	var found []string
	err := filepath.WalkDir(dataDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == "index" {
			if _, statErr := os.Stat(filepath.Join(path, "MANIFEST")); statErr == nil {
				found = append(found, path)
			}
		}
		return err
	})
	if err != nil || len(found) != 1 {
		b.Fatalf("avadata index dirs under %s: %v (%v)", dataDir, found, err)
	}
	return found[0]
}

// dirBytes is the disk space dir's files take: allocated blocks, so that
// Badger's preallocated value-log file counts only what it holds.
func dirBytes(dir string) (allocated int64) {
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				allocated += info.Sys().(*syscall.Stat_t).Blocks * 512
			}
		}
		return nil
	})
	return allocated
}
