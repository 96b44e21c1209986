package localnet

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
)

func TestJoinConfigValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  JoinConfig
		want string
	}{
		{"no data dir", JoinConfig{}, "DataDir is required"},
		{"port out of range", JoinConfig{DataDir: "/d", HTTPPort: 70000}, "out of range"},
		{"same ports", JoinConfig{DataDir: "/d", HTTPPort: 9000, StakingPort: 9000}, "both 9000"},
		{"reserved flag", JoinConfig{DataDir: "/d", ExtraFlags: map[string]string{"chain-config-dir": "/x"}}, `"chain-config-dir"`},
		{"nodeURI", JoinConfig{DataDir: "/d", ChainConfig: map[string]any{"nodeURI": "http://x"}}, "nodeURI"},
		{"ok", JoinConfig{DataDir: "/d", ExtraFlags: map[string]string{"log-level": "debug"}}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := c.cfg.validate()
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// Node 1 of a one-node network tracks the subnets of its chains once they
// exist, so a joining node exchanges their messages with it; a multi-node
// network sets its flags per node elsewhere.
func TestSingleNodeFlagsTrackSubnets(t *testing.T) {
	n := &Network{}
	if f := n.singleNodeFlags(); f != nil {
		t.Fatalf("no chains yet: %v", f)
	}
	n.state.SubnetID, n.state.SubnetEVM = ids.GenerateTestID(), subnetEVMState{SubnetID: ids.GenerateTestID(), ChainID: ids.GenerateTestID()}
	want := n.state.SubnetID.String() + "," + n.state.SubnetEVM.SubnetID.String()
	if got := n.singleNodeFlags()["track-subnets"]; got != want {
		t.Fatalf("track-subnets %q, want %q", got, want)
	}
	n.cfg.Nodes = LocalValidators
	if f := n.singleNodeFlags(); f != nil {
		t.Fatalf("multi-node: %v", f)
	}
}

func TestWriteSubnetEVMChainConfig(t *testing.T) {
	dir := t.TempDir()
	read := func() map[string]any {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "x", "config.json"))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if err := writeSubnetEVMChainConfig(dir, "x", nil); err != nil {
		t.Fatal(err)
	}
	if m := read(); m["state-sync-commit-interval"] != nil || m["pruning-enabled"] != false {
		t.Fatalf("without extra keys: %v", m)
	}
	// Extra keys are written over CChainConfig, even over an existing file.
	if err := writeSubnetEVMChainConfig(dir, "x", StateSyncServerChainConfig(256)); err != nil {
		t.Fatal(err)
	}
	m := read()
	if m["state-sync-commit-interval"] != float64(256) || m["commit-interval"] != float64(256) || m["pruning-enabled"] != false {
		t.Fatalf("with extra keys: %v", m)
	}
	// Without extra keys again, the file is left as it is.
	if err := writeSubnetEVMChainConfig(dir, "x", nil); err != nil {
		t.Fatal(err)
	}
	if m := read(); m["state-sync-commit-interval"] != float64(256) {
		t.Fatalf("an existing file was rewritten: %v", m)
	}
}

func TestJoinRefusesMultiNodeAndStoppedNetworks(t *testing.T) {
	n := &Network{cfg: Config{Nodes: LocalValidators}}
	if _, err := n.Join(context.Background(), JoinConfig{DataDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "one-node network") {
		t.Fatalf("multi-node: %v", err)
	}
	n = &Network{}
	if _, err := n.Join(context.Background(), JoinConfig{DataDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "not running") {
		t.Fatalf("stopped: %v", err)
	}
}
