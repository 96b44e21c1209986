//go:build unix && !linux

package localnet

import "syscall"

// nodeSysProcAttr puts the node in its own process group (see the Linux
// variant; Pdeathsig exists only on Linux).
func nodeSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// groupAlive reports whether process group pgid still has members (zombies
// included; there is no portable way to tell them apart without /proc).
func groupAlive(pgid int) bool {
	return syscall.Kill(-pgid, 0) == nil
}
