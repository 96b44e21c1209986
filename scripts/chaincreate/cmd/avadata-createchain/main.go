// Command avadata-createchain creates the avadata subnet and chain on the
// network of the node at --uri, paid by the operator's P-chain key, and
// prints what to do next. The key comes from $AVADATA_PRIVATE_KEY or a file
// (--key-file), never from the command line, so it stays out of shell
// history and process lists.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

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
	flag.Parse()
	key, err := loadKey(*keyFile)
	if err != nil {
		return err
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	fmt.Printf("creating the avadata subnet and chain through %s, paid by P-chain address of key %s\n", *uri, key.Address())
	subnetID, chainID, err := chaincreate.Create(ctx, *uri, key, chaincreate.DefaultGenesis(), func(f string, a ...any) {
		fmt.Printf(f+"\n", a...)
	})
	if err != nil {
		return err
	}
	fmt.Printf(`
subnet ID: %[1]s
chain ID:  %[2]s
VM ID:     %[3]s

Next:
  1. copy build/avadata to <plugin-dir>/%[3]s
  2. write <data-dir>/configs/chains/%[2]s/config.json, e.g. {"nodeURI": %[4]q}
  3. restart the node with --track-subnets=%[1]s (and --api-admin-enabled=true for /ext/bc/data)
`, subnetID, chainID, vm.ID, *uri)
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
