//go:build e2e

// Package adopt checks avadata on a node that was not set up for it: one
// started without the index API, one that state-synced an EVM chain, and a
// back-fill that completes an index started above genesis. Each test
// brings up the nodes it needs (make build first; make test-e2e-adopt).
package adopt
