// Command subnet-evm serves subnet-evm's VM, at the version go.mod pins, as
// an rpcchainvm plugin: the second EVM chain of avadata's local network.
//
// It does what subnet-evm's own plugin main does (register libevm's extras,
// serve evm.VM) except for one thing: that main exits at once unless it can
// raise the open-files soft limit to 32768, which fails wherever the hard
// limit is lower (containers, CI machines with 20000). The node then only
// reports a failed handshake. This one raises the soft limit as far as the
// hard limit allows and goes on, as the node does with --fd-limit.
package main

import (
	"context"
	"fmt"
	"os"
	"syscall"

	"github.com/ava-labs/avalanchego/graft/subnet-evm/plugin/evm"
	"github.com/ava-labs/avalanchego/utils/logging"
	"github.com/ava-labs/avalanchego/utils/ulimit"
	"github.com/ava-labs/avalanchego/version"
	"github.com/ava-labs/avalanchego/vms/rpcchainvm"
)

func main() {
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "version") {
		fmt.Printf("Subnet-EVM/%s [rpcchainvm=%d]\n", version.Current.Semantic(), version.RPCChainVMProtocol)
		return
	}
	evm.RegisterAllLibEVMExtras()
	if err := raiseFDLimit(); err != nil {
		// Not fatal: a local chain needs far fewer files.
		fmt.Fprintf(os.Stderr, "subnet-evm: raising the open-files limit: %v\n", err)
	}
	if err := rpcchainvm.Serve(context.Background(), &evm.VM{}); err != nil {
		fmt.Fprintf(os.Stderr, "subnet-evm: serving the VM: %v\n", err)
		os.Exit(1)
	}
}

// raiseFDLimit sets the soft open-files limit to subnet-evm's default, or to
// the hard limit when that is lower.
func raiseFDLimit() error {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil {
		return fmt.Errorf("getting the limit: %w", err)
	}
	return ulimit.Set(min(uint64(ulimit.DefaultFDLimit), uint64(rl.Max)), logging.NoLog{})
}
