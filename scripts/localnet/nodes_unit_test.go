package localnet

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ava-labs/avalanchego/genesis"
)

func TestNodesValidation(t *testing.T) {
	base := Config{AvalancheGoPath: "a", PluginDir: "p", DataDir: "d"}
	for _, nodes := range []int{0, 1, LocalValidators} {
		c := base
		c.Nodes = nodes
		if err := c.validate(); err != nil {
			t.Errorf("Nodes %d: %v", nodes, err)
		}
	}
	for _, nodes := range []int{-1, 2, 4, 6} {
		c := base
		c.Nodes = nodes
		if err := c.validate(); err == nil {
			t.Errorf("Nodes %d accepted", nodes)
		}
	}
	// Flags set per node cannot be given once for all five; on one node
	// they still can.
	c := base
	c.ExtraFlags = map[string]string{"log-dir": "/l"}
	if err := c.validate(); err != nil {
		t.Errorf("log-dir on one node: %v", err)
	}
	c.Nodes = LocalValidators
	if err := c.validate(); err == nil {
		t.Error("log-dir on five nodes accepted")
	}
}

func TestNodeCountOfDataDir(t *testing.T) {
	one, five := &state{}, &state{Nodes: LocalValidators}
	for _, tc := range []struct {
		saved *state
		nodes int
		ok    bool
	}{
		{nil, 5, true}, {one, 0, true}, {one, 1, true}, {five, 5, true},
		{one, 5, false}, {five, 1, false}, {five, 0, false},
	} {
		err := checkNodeCount(&Config{DataDir: "/d", Nodes: tc.nodes}, tc.saved)
		if (err == nil) != tc.ok {
			t.Errorf("saved %+v, Nodes %d: %v", tc.saved, tc.nodes, err)
		}
		if err != nil && !strings.Contains(err.Error(), "NODES=") {
			t.Errorf("error does not say which NODES runs the data dir: %v", err)
		}
	}
}

func TestPeerPorts(t *testing.T) {
	cfg := &Config{Nodes: LocalValidators, HTTPPort: 9650, StakingPort: 9651}
	got, err := resolvePeerPorts(cfg, nil, 9650, 9651)
	if err != nil {
		t.Fatal(err)
	}
	want := []peerState{{9652, 9653}, {9654, 9655}, {9656, 9657}, {9658, 9659}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("node %d: %+v, want %+v", i+2, got[i], want[i])
		}
	}
	// Saved ports are kept when node 1's are not explicit.
	saved := &state{Peers: []peerState{{1001, 1002}, {1003, 1004}, {1005, 1006}, {1007, 1008}}}
	got, err = resolvePeerPorts(&Config{Nodes: LocalValidators}, saved, 2001, 2002)
	if err != nil || got[3] != (peerState{1007, 1008}) {
		t.Errorf("saved ports: %v %v", got, err)
	}
	// Node 1's ports two apart collide with node 2's.
	if _, err := resolvePeerPorts(&Config{Nodes: LocalValidators, HTTPPort: 9650, StakingPort: 9652}, nil, 9650, 9652); err == nil {
		t.Error("colliding ports accepted")
	}
}

// TestLocalIdentities copies the five identities avalanchego ships and
// checks them against the local genesis; a wrong one is refused.
func TestLocalIdentities(t *testing.T) {
	stakingDir := localStakingDir(t)
	dir := t.TempDir()
	for i := 1; i <= LocalValidators; i++ {
		id, err := installLocalIdentity(filepath.Join(dir, "n"), stakingDir, i)
		if err == nil && i > 1 {
			t.Fatalf("node %d got node 1's identity: %v", i, id.nodeID)
		}
		id, err = installLocalIdentity(peerDataDir(dir, i), stakingDir, i)
		if err != nil {
			t.Fatal(err)
		}
		if id.nodeID != genesis.LocalConfig.InitialStakers[i-1].NodeID {
			t.Errorf("node %d is %s", i, id.nodeID)
		}
		args := (&Config{DataDir: dir, Nodes: LocalValidators}).argsFor(peerDataDir(dir, i), 1, 2, map[string]string{"staking-tls-cert-file": id.certFile})
		if !strings.Contains(strings.Join(args, " "), "--staking-tls-cert-file="+id.certFile) {
			t.Errorf("args %v", args)
		}
	}
	if _, err := installLocalIdentity(t.TempDir(), "", 1); err == nil {
		t.Error("a missing identity with no dir to copy it from was accepted")
	}
	// A data dir whose key is not the genesis's is refused.
	bad := t.TempDir()
	if _, err := installLocalIdentity(bad, stakingDir, 2); err != nil {
		t.Fatal(err)
	}
	other, _ := os.ReadFile(filepath.Join(stakingDir, "signer3.key"))
	if err := os.WriteFile(identityIn(bad).signerFile, other, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := installLocalIdentity(bad, stakingDir, 2); err == nil {
		t.Error("node 2 with node 3's BLS key accepted")
	}
}

// localStakingDir is avalanchego's staking/local dir: $AVADATA_LOCAL_STAKING_DIR,
// or the one of the module this repository pins.
func localStakingDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("AVADATA_LOCAL_STAKING_DIR"); dir != "" {
		return dir
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/ava-labs/avalanchego").Output()
	if err != nil {
		t.Skipf("finding the avalanchego module (go list -m): %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "staking", "local")
}
