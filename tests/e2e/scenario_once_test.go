package e2e

import (
	"errors"
	"sync"
	"testing"
)

// onceScenario runs a scenario (a history of real txs the tests then check)
// once per package run, in the first test that needs it.
type onceScenario[T any] struct {
	once sync.Once
	sc   T
	err  error
}

// get returns the scenario, running it on first use. If the run fails the
// first test, the error stays, so later tests say why instead of checking a
// half-made history.
func (o *onceScenario[T]) get(t *testing.T, name string, run func(*testing.T) T) T {
	t.Helper()
	o.once.Do(func() {
		o.err = errors.New("the " + name + " scenario failed in an earlier test")
		o.sc = run(t)
		o.err = nil
	})
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.sc
}
