// Command avadata is the plugin binary the node starts from its plugin
// directory. Run by hand, `avadata vmid` prints the VM ID (the file name the
// node expects) and `avadata --version` the version, without a node.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/ava-labs/avalanchego/version"
	"github.com/ava-labs/avalanchego/vms/rpcchainvm"

	"github.com/avadata/avadata/vm"
)

func main() {
	if len(os.Args) > 1 {
		os.Exit(runCommand(os.Args[1]))
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
