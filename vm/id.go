package vm

import "github.com/ava-labs/avalanchego/ids"

// Name is the VM's name. The VM ID is this name zero-padded to 32 bytes, the
// convention of avalanchego's own example VMs (constants.XSVMID).
const Name = "avadata"

// Version is the plugin's version, reported by Version and `avadata --version`.
const Version = "v0.1.0"

// ID is the VM ID: the plugin file must be named ID.String() in the node's
// plugin directory.
var ID = ids.ID{'a', 'v', 'a', 'd', 'a', 't', 'a'}
