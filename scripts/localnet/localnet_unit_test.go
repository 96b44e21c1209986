package localnet

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ava-labs/avalanchego/ids"
)

func TestNodeArgsOverrideAndOrder(t *testing.T) {
	cfg := Config{DataDir: "/d", PluginDir: "/p", ExtraFlags: map[string]string{
		"log-level":                  "debug",
		"proposervm-min-block-delay": "0s",
	}}
	args := cfg.nodeArgs(1234, 1235)
	for _, want := range []string{
		"--log-level=debug", "--proposervm-min-block-delay=0s", "--http-port=1234", "--staking-port=1235",
		"--data-dir=/d", "--plugin-dir=/p", "--network-id=local", "--sybil-protection-enabled=false",
	} {
		if !slices.Contains(args, want) {
			t.Errorf("args lack %s: %v", want, args)
		}
	}
	if slices.Contains(args, "--log-level=info") {
		t.Errorf("ExtraFlags did not override log-level: %v", args)
	}
	if !slices.IsSorted(args) {
		t.Errorf("args not sorted: %v", args)
	}
}

func TestValidateRejects(t *testing.T) {
	base := Config{AvalancheGoPath: "a", PluginDir: "p", DataDir: "d"}
	if err := base.validate(); err != nil {
		t.Fatalf("valid config rejected: %v", err)
	}
	for name, mutate := range map[string]func(*Config){
		"no binary":         func(c *Config) { c.AvalancheGoPath = "" },
		"nodeURI":           func(c *Config) { c.ChainConfig = map[string]any{"nodeURI": "x"} },
		"port flag":         func(c *Config) { c.ExtraFlags = map[string]string{"http-port": "1"} },
		"port out of range": func(c *Config) { c.HTTPPort = 70000 },
	} {
		c := base
		mutate(&c)
		if err := c.validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestResolvePorts(t *testing.T) {
	h, s, err := resolvePorts(&Config{HTTPPort: 9650, StakingPort: 9651}, &state{HTTPPort: 1, StakingPort: 2})
	if err != nil || h != 9650 || s != 9651 {
		t.Errorf("explicit ports: %d %d %v", h, s, err)
	}
	h, s, err = resolvePorts(&Config{}, &state{HTTPPort: 1111, StakingPort: 2222})
	if err != nil || h != 1111 || s != 2222 {
		t.Errorf("saved ports: %d %d %v", h, s, err)
	}
	h, s, err = resolvePorts(&Config{StakingPort: 3333}, nil)
	if err != nil || h == 0 || h == 3333 || s != 3333 {
		t.Errorf("free http port: %d %d %v", h, s, err)
	}
	if _, _, err = resolvePorts(&Config{HTTPPort: 5, StakingPort: 5}, nil); err == nil {
		t.Error("equal ports accepted")
	}
}

func TestStateRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if s, err := readState(dir); s != nil || err != nil {
		t.Fatalf("empty dir: %v %v", s, err)
	}
	want := &state{VMID: ids.GenerateTestID(), SubnetID: ids.GenerateTestID(), ChainID: ids.GenerateTestID(),
		HTTPPort: 1, StakingPort: 2, CreatedAt: time.Unix(1700000000, 0).UTC()}
	if err := writeState(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := readState(dir)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
	// A state without the subnet-evm chain does not mention it; one with it
	// keeps it.
	if b, _ := os.ReadFile(statePath(dir)); strings.Contains(string(b), "subnetEVM") {
		t.Errorf("state without subnet-evm chain: %s", b)
	}
	want.SubnetEVM = subnetEVMState{SubnetID: ids.GenerateTestID(), ChainID: ids.GenerateTestID(), EVMChainID: SubnetEVMChainID}
	if err := writeState(dir, want); err != nil {
		t.Fatal(err)
	}
	if got, err = readState(dir); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
}

func TestChainConfigs(t *testing.T) {
	dir := t.TempDir()
	if err := writeEVMChainConfigIfMissing(dir, "C"); err != nil {
		t.Fatal(err)
	}
	cPath := filepath.Join(dir, "C", "config.json")
	var c map[string]any
	readJSON(t, cPath, &c)
	if c["state-sync-enabled"] != false || !slices.Contains(toStrings(c["eth-apis"]), "debug-tracer") ||
		c["min-delay-target"] != float64(1) {
		t.Errorf("C config: %v", c)
	}
	// A developer's edit survives.
	if err := os.WriteFile(cPath, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeEVMChainConfigIfMissing(dir, "C"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(cPath); string(b) != "{}" {
		t.Errorf("C config overwritten: %s", b)
	}

	chainID := ids.GenerateTestID()
	if err := writeAvadataChainConfig(dir, chainID, "http://127.0.0.1:1", map[string]any{"batchSize": 8}); err != nil {
		t.Fatal(err)
	}
	var a map[string]any
	readJSON(t, filepath.Join(dir, chainID.String(), "config.json"), &a)
	if len(a) != 2 || a["nodeURI"] != "http://127.0.0.1:1" || a["batchSize"] != float64(8) {
		t.Errorf("avadata config: %v", a)
	}
}

func TestTailBuffer(t *testing.T) {
	tb := newTailBuffer(16)
	_, _ = tb.Write([]byte("line one\nline two\nline three\n"))
	if got := tb.lines(1); got != "line three" {
		t.Errorf("lines(1) = %q", got)
	}
	if got := tb.lines(10); !strings.HasSuffix(got, "two\nline three") || len(got) > 16 {
		t.Errorf("lines(10) = %q", got)
	}
}

// A node that dies at once makes Start fail fast with its output, and leave
// no process behind.
func TestStartReportsNodeThatExits(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "avalanchego")
	script := "#!/bin/sh\necho \"could not bind staking port\" >&2\nexit 3\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	n, err := Start(ctx, Config{AvalancheGoPath: fake, PluginDir: dir, DataDir: filepath.Join(dir, "data"), SkipSubnetEVM: true})
	if err == nil {
		t.Fatalf("Start succeeded: %v", n.URI())
	}
	for _, want := range []string{"node exited", "exit status 3", "could not bind staking port"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "data", outputFileName)); err != nil {
		t.Errorf("no output file: %v", err)
	}
}

// A port held by another process fails Start before any node is launched.
func TestStartRefusesBusyPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	dir := t.TempDir()
	_, err = Start(context.Background(), Config{AvalancheGoPath: "/nonexistent", PluginDir: dir,
		DataDir: dir, HTTPPort: l.Addr().(*net.TCPAddr).Port, SkipSubnetEVM: true})
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("Start on a busy port: %v", err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func toStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
