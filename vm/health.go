package vm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/avadata/avadata/handlers"
	"github.com/avadata/avadata/indexer/follower"
)

// healthGrace is how long after start a follower may still be waiting for
// the node before the check reports it.
const healthGrace = time.Minute

// HealthCheck reports every follower's progress. The node drops the details
// when an error is returned, so the error text carries the facts itself.
func (vm *VM) HealthCheck(context.Context) (interface{}, error) {
	indicators := vm.Health()
	details := make(map[string]any, len(indicators))
	var problems []string
	for _, ind := range indicators {
		details[ind.Name] = nodeHealthDetails(ind)
		if ind.Problem != "" {
			problems = append(problems, ind.Problem)
		}
	}
	if len(problems) > 0 {
		return details, errors.New("avadata unhealthy: " + strings.Join(problems, "; "))
	}
	return details, nil
}

// partialHistoryDetails are the health details of a follower whose index
// starts above genesis: its status (historyFrom among it) and, for the
// people reading the check, where history starts in words.
type partialHistoryDetails struct {
	follower.Status
	History string `json:"history"`
}

// nodeHealthDetails is what the node's health check shows of ind: its
// details, with where history starts in words for a follower whose index
// starts above genesis.
func nodeHealthDetails(ind handlers.HealthIndicator) any {
	if s, ok := ind.Details.(follower.Status); ok {
		if words := follower.HistoryWords(s); words != "" {
			return partialHistoryDetails{Status: s, History: words}
		}
	}
	return ind.Details
}

// Health judges every follower and the signature aggregator (when it runs):
// the node's health check and the API's data-health-check report the same.
func (vm *VM) Health() []handlers.HealthIndicator {
	statuses := vm.Statuses()
	out := make([]handlers.HealthIndicator, 0, len(statuses)+1)
	for _, s := range statuses {
		out = append(out, handlers.HealthIndicator{Name: s.ChainName, Problem: vm.followerProblem(s), Details: s})
	}
	if sigagg, problem := vm.sigAggHealth(); sigagg != nil {
		out = append(out, handlers.HealthIndicator{Name: "signatureAggregator", Problem: problem, Details: sigagg})
	}
	return out
}

// ShuttingDown is true once Shutdown has begun.
func (vm *VM) ShuttingDown() bool { return vm.ctx != nil && vm.ctx.Err() != nil }

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
