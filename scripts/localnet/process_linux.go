//go:build linux

package localnet

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// nodeSysProcAttr puts the node in its own process group and has the kernel
// send it SIGTERM if the process that started it dies (a test binary hitting
// its timeout, `make run` being killed), so no node outlives its owner.
// Pdeathsig fires when the starting OS thread exits; Go only retires threads
// of goroutines that exit while locked to them, which the callers never do.
func nodeSysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}

// groupAlive reports whether any non-zombie process is in process group pgid.
// kill(-pgid, 0) alone is not enough: plugin processes orphaned by a killed
// node are reaped by PID 1, which in a container may never do it, and their
// zombies would look alive forever.
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone meanwhile
		}
		// Format: pid (comm) state ppid pgrp ...; comm may contain spaces
		// and parentheses, so parse after the last ')'.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		fields := bytes.Fields(stat[i+1:])
		if len(fields) < 3 {
			continue
		}
		if state := fields[0]; len(state) == 1 && (state[0] == 'Z' || state[0] == 'X') {
			continue
		}
		if g, err := strconv.Atoi(string(fields[2])); err == nil && g == pgid {
			return true
		}
	}
	return false
}
