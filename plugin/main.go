// Command avadata is the plugin binary the node starts from its plugin
// directory. Run by hand, `avadata vmid` prints the VM ID (the file name the
// node expects) and `avadata --version` the version, without a node.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/ava-labs/avalanchego/version"
	"github.com/ava-labs/avalanchego/vms/rpcchainvm"

	"github.com/avadata/avadata/vm"
)

// memoryLimit is the plugin's soft memory limit unless GOMEMLIMIT sets one:
// the garbage collector works harder near it and returns freed memory to the
// OS, so the heap Badger's compactions leave behind does not stay resident
// beside the node. It is a target, not a cap: the plugin never fails on it.
const memoryLimit = 512 << 20

func main() {
	if len(os.Args) > 1 {
		os.Exit(runCommand(os.Args[1]))
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
	if err := rpcchainvm.Serve(context.Background(), vm.New()); err != nil {
		fmt.Fprintf(os.Stderr, "avadata: %v\n", err)
		os.Exit(1)
	}
}

// runCommand handles the by-hand subcommands and returns the exit code.
func runCommand(arg string) int {
	switch arg {
	case "vmid":
		fmt.Println(vm.ID)
	case "--version", "version":
		fmt.Printf("%s %s (vmid %s, avalanchego rpcchainvm protocol %d)\n", vm.Name, vm.Version, vm.ID, version.RPCChainVMProtocol)
	default:
		fmt.Fprintf(os.Stderr, "usage: %s [vmid | --version]\n(with no argument it serves the VM to an avalanchego node)\n", os.Args[0])
		return 2
	}
	return 0
}
