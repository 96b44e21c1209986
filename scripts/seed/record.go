package seed

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// RecordFileName is the file in a node's data dir that records the sample
// seeded there. Its presence is what makes a data dir "already seeded".
const RecordFileName = "avadata-seed.json"

// RecordPath is the record file of dataDir.
func RecordPath(dataDir string) string { return filepath.Join(dataDir, RecordFileName) }

// ReadRecord returns the sample seeded in dataDir, or (nil, nil) when none
// was.
func ReadRecord(dataDir string) (*Sample, error) {
	b, err := os.ReadFile(RecordPath(dataDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("seed: reading the record: %w", err)
	}
	var s Sample
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("seed: parsing %s (delete it to seed again): %w", RecordPath(dataDir), err)
	}
	return &s, nil
}

// WriteRecord records s as seeded in dataDir. It writes a temp file and
// renames it, so a crash never leaves a half-written record that would
// stop the next run.
func WriteRecord(dataDir string, s *Sample) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("seed: encoding the record: %w", err)
	}
	path := RecordPath(dataDir)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("seed: writing the record: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("seed: writing the record: %w", err)
	}
	return nil
}
