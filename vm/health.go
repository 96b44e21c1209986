package vm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/avadata/avadata/indexer/follower"
)

// healthGrace is how long after start a follower may still be waiting for
// the node before the check reports it.
const healthGrace = time.Minute

// HealthCheck reports every follower's progress. The node drops the details
// when an error is returned, so the error text carries the facts itself.
func (vm *VM) HealthCheck(context.Context) (interface{}, error) {
	statuses := vm.Statuses()
	details := make(map[string]any, len(statuses)+1)
	var problems []string
	for _, s := range statuses {
		details[s.ChainName] = s
		if p := vm.followerProblem(s); p != "" {
			problems = append(problems, p)
		}
	}
	if sigagg, problem := vm.sigAggHealth(); sigagg != nil {
		details["signatureAggregator"] = sigagg
		if problem != "" {
			problems = append(problems, problem)
		}
	}
	if len(problems) > 0 {
		return details, errors.New("avadata unhealthy: " + strings.Join(problems, "; "))
	}
	return details, nil
}

// followerProblem describes why s is unhealthy, or returns "".
func (vm *VM) followerProblem(s follower.Status) string {
	facts := fmt.Sprintf("indexed %d, node %d, lag %d", s.IndexedHeight, s.NodeHeight, s.Lag)
	now := time.Now()
	switch {
	case s.Paused:
		return fmt.Sprintf("follower %s is stopped (%s)", s.ChainName, facts)
	case !s.Running:
		if now.Sub(vm.startedAt) < healthGrace {
			return ""
		}
		return fmt.Sprintf("follower %s is not running (%s): %s", s.ChainName, facts, s.LastError)
	case s.Lag > 0 && !s.LastProgress.IsZero() && now.Sub(s.LastProgress) > time.Duration(vm.config.StuckAfter):
		return fmt.Sprintf("follower %s is stuck: no progress for %s (%s) %s",
			s.ChainName, now.Sub(s.LastProgress).Round(time.Second), facts, s.LastError)
	case vm.config.MaxLagBlocks > 0 && s.CaughtUp && s.Lag > vm.config.MaxLagBlocks:
		return fmt.Sprintf("follower %s lags %d blocks, more than maxLagBlocks %d (%s)",
			s.ChainName, s.Lag, vm.config.MaxLagBlocks, facts)
	}
	return ""
}
