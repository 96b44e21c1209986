// Command avadata-createchain creates the avadata subnet and chain on the
// network of the node at --uri, paid by the operator's P-chain key, and
// prints what to do next. With --data-dir it is the one command that puts
// avadata on an existing node: it also installs the plugin and the chain
// config, says what the node's settings give avadata, and leaves only the
// node's restart with --track-subnets; run again, it reuses the chain it
// created. The key comes from $AVADATA_PRIVATE_KEY or a file (--key-file),
// never from the command line, so it stays out of shell history and
// process lists.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/ava-labs/avalanchego/utils/crypto/secp256k1"

	"github.com/avadata/avadata/scripts/chaincreate"
	"github.com/avadata/avadata/vm"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "avadata-createchain:", err)
		os.Exit(1)
	}
}

func run() error {
	uri := flag.String("uri", "http://127.0.0.1:9650", "the node's HTTP address")
	keyFile := flag.String("key-file", "", "file holding the key (PrivateKey-...); default $AVADATA_PRIVATE_KEY")
	dataDir := flag.String("data-dir", "", "the node's --data-dir: also install the plugin and the chain config there, and say what the node's settings give")
	pluginDir := flag.String("plugin-dir", "", "the node's --plugin-dir (default <data-dir>/plugins)")
	chainConfigDir := flag.String("chain-config-dir", "", "the node's --chain-config-dir (default <data-dir>/configs/chains)")
	plugin := flag.String("plugin", "", "the avadata plugin binary (default: avadata beside this command)")
	flag.Parse()
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	if *dataDir == "" {
		subnetID, chainID, err := create(ctx, *uri, *keyFile)
		if err != nil {
			return err
		}
		fmt.Printf(`
Next:
  1. copy build/avadata to <plugin-dir>/%[3]s
  2. write <data-dir>/configs/chains/%[2]s/config.json, e.g. {"nodeURI": %[4]q}
  3. restart the node with --track-subnets=%[1]s (and --api-admin-enabled=true for /ext/bc/data)
(or run again with --data-dir to do 1 and 2)
`, subnetID, chainID, vm.ID, *uri)
		return nil
	}
	in := chaincreate.DefaultInstallation(*dataDir)
	if *pluginDir != "" {
		in.PluginDir = *pluginDir
	}
	if *chainConfigDir != "" {
		in.ChainConfigDir = *chainConfigDir
	}
	return install(ctx, in, *uri, *keyFile, *plugin)
}

// create creates the subnet and chain, paid by the operator's key.
func create(ctx context.Context, uri, keyFile string) (subnetID, chainID ids.ID, err error) {
	key, err := loadKey(keyFile)
	if err != nil {
		return ids.Empty, ids.Empty, err
	}
	fmt.Printf("creating the avadata subnet and chain through %s, paid by P-chain address of key %s\n", uri, key.Address())
	subnetID, chainID, err = chaincreate.Create(ctx, uri, key, chaincreate.DefaultGenesis(), func(f string, a ...any) {
		fmt.Printf(f+"\n", a...)
	})
	if err != nil {
		return ids.Empty, ids.Empty, err
	}
	fmt.Printf("\nsubnet ID: %s\nchain ID:  %s\nVM ID:     %s\n", subnetID, chainID, vm.ID)
	return subnetID, chainID, nil
}

// install puts avadata on the node of in: the chain (created once, then
// reused from the record), the plugin, the chain config; then it says what
// the node's settings give and what is left to do.
func install(ctx context.Context, in chaincreate.Installation, uri, keyFile, plugin string) error {
	rec, err := in.ReadRecord()
	if err != nil {
		return err
	}
	if rec != nil {
		fmt.Printf("reusing the avadata chain %s (subnet %s) this command created before\n", rec.ChainID, rec.SubnetID)
	} else {
		subnetID, chainID, err := create(ctx, uri, keyFile)
		if err != nil {
			return err
		}
		rec = &chaincreate.Record{SubnetID: subnetID, ChainID: chainID}
		if err := in.WriteRecord(*rec); err != nil {
			return err
		}
	}
	if plugin == "" {
		self, err := os.Executable()
		if err != nil {
			return fmt.Errorf("finding the plugin beside this command (pass --plugin): %w", err)
		}
		plugin = filepath.Join(filepath.Dir(self), "avadata")
	}
	dst, err := in.InstallPlugin(plugin)
	if err != nil {
		return err
	}
	fmt.Printf("plugin installed:  %s\n", dst)
	cfgPath, wrote, err := in.WriteChainConfig(rec.ChainID, uri)
	if err != nil {
		return err
	}
	if wrote {
		fmt.Printf("chain config:      %s\n", cfgPath)
	} else {
		fmt.Printf("chain config:      %s (yours, kept as it is)\n", cfgPath)
	}
	fmt.Println("\nwhat this node's settings give avadata:")
	for _, c := range chaincreate.Probe(ctx, uri) {
		mark := "missing"
		if c.Has {
			mark = "on     "
		}
		fmt.Printf("  [%s] %s\n            adds: %s\n", mark, c.Setting, c.Adds)
		if c.Detail != "" {
			fmt.Printf("            now:  %s\n", c.Detail)
		}
	}
	fmt.Printf(`
Last step: restart the node with --track-subnets=%s (added to any subnets it
tracks already). avadata then indexes what the node has and serves at
%s/ext/bc/%s (and /ext/bc/data with --api-admin-enabled=true).
`, rec.SubnetID, uri, rec.ChainID)
	return nil
}

func loadKey(path string) (*secp256k1.PrivateKey, error) {
	text := os.Getenv("AVADATA_PRIVATE_KEY")
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reading key file: %w", err)
		}
		text = string(b)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, errors.New("no key: set AVADATA_PRIVATE_KEY or pass --key-file (format PrivateKey-...)")
	}
	key := new(secp256k1.PrivateKey)
	if err := key.UnmarshalText([]byte(text)); err != nil {
		return nil, fmt.Errorf("parsing the key (want PrivateKey-<cb58>): %w", err)
	}
	return key, nil
}
