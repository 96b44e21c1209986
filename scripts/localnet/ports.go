package localnet

import (
	"fmt"
	"net"
)

// freeLoopbackPorts asks the kernel for n distinct free TCP ports on
// 127.0.0.1. All listeners stay open until every port is chosen, so the same
// port is never handed out twice; another process can still take one before
// the node binds it, which a test then sees as a failed Start.
func freeLoopbackPorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// resolvePorts picks the node's ports: explicit Config values first, then the
// ones saved for this data dir (a restarted node keeps its URI), then free
// ones.
func resolvePorts(cfg *Config, saved *state) (httpPort, stakingPort int, err error) {
	httpPort, stakingPort = cfg.HTTPPort, cfg.StakingPort
	if saved != nil {
		if httpPort == 0 {
			httpPort = saved.HTTPPort
		}
		if stakingPort == 0 {
			stakingPort = saved.StakingPort
		}
	}
	if httpPort == 0 || stakingPort == 0 {
		free, err := freeLoopbackPorts(2)
		if err != nil {
			return 0, 0, err
		}
		// Two distinct free ports always leave one that differs from an
		// explicitly chosen other port.
		for _, p := range []*int{&httpPort, &stakingPort} {
			if *p != 0 {
				continue
			}
			for _, f := range free {
				if f != httpPort && f != stakingPort {
					*p = f
					break
				}
			}
		}
	}
	if httpPort == stakingPort {
		return 0, 0, fmt.Errorf("http and staking ports are both %d", httpPort)
	}
	return httpPort, stakingPort, nil
}
