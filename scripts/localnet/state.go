package localnet

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ava-labs/avalanchego/ids"
)

// state is what a data dir remembers about the network this package created
// in it, so a later Start reuses the chain instead of creating another one.
type state struct {
	VMID        ids.ID    `json:"vmID"`
	SubnetID    ids.ID    `json:"subnetID"`
	ChainID     ids.ID    `json:"chainID"`
	HTTPPort    int       `json:"httpPort"`
	StakingPort int       `json:"stakingPort"`
	CreatedAt   time.Time `json:"createdAt"`
	// SubnetEVM is absent in data dirs made with SkipSubnetEVM or before the
	// subnet-evm chain existed.
	SubnetEVM subnetEVMState `json:"subnetEVM,omitzero"`
	// Nodes is the node count the network was created with; 0 in state
	// files of one-node networks, which predate the field.
	Nodes int `json:"nodes,omitempty"`
	// Peers are nodes 2 to Nodes of a multi-node network, in order.
	Peers []peerState `json:"peers,omitempty"`
}

// peerState is what the state file remembers of one of nodes 2 to 5.
type peerState struct {
	HTTPPort    int `json:"httpPort"`
	StakingPort int `json:"stakingPort"`
}

// nodeCount is the number of nodes the state describes.
func (s *state) nodeCount() int { return max(s.Nodes, 1) }

func statePath(dataDir string) string { return filepath.Join(dataDir, stateFileName) }

// readState returns (nil, nil) when the data dir holds no network yet.
func readState(dataDir string) (*state, error) {
	b, err := os.ReadFile(statePath(dataDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading localnet state: %w", err)
	}
	var s state
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("parsing localnet state %s: %w", statePath(dataDir), err)
	}
	if s.ChainID == ids.Empty || s.HTTPPort == 0 || s.StakingPort == 0 {
		return nil, fmt.Errorf("localnet state %s is incomplete; delete the data dir to start over", statePath(dataDir))
	}
	return &s, nil
}

func writeState(dataDir string, s *state) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding localnet state: %w", err)
	}
	if err := writeFileAtomic(statePath(dataDir), append(b, '\n')); err != nil {
		return fmt.Errorf("writing localnet state: %w", err)
	}
	return nil
}

// writeFileAtomic writes via a temp file and rename, so a crash never leaves
// a half-written state or config file that would break the next Start.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
