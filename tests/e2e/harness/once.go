package harness

import (
	"errors"
	"sync"
	"testing"
)

// Once holds what the tests of a package share and make once, in the first
// test that needs it: a network, a scenario (a history of real txs the
// tests then check) or the activity of a fixture.
type Once[T any] struct {
	once sync.Once
	v    T
	err  error
}

// Get returns the value, making it with make on first use; make fails t
// if it cannot. If making it fails the first test, the error stays, so
// later tests say why instead of checking a half-made history or starting
// again what failed. what names it in that error.
func (o *Once[T]) Get(t testing.TB, what string, make func() T) T {
	t.Helper()
	o.once.Do(func() {
		// Overwritten on success; stays if make fails the test.
		o.err = errors.New("making " + what + " failed in an earlier test")
		o.v = make()
		o.err = nil
	})
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.v
}
