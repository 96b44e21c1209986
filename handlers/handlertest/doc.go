// Package handlertest is what the HTTP layer's tests share across domains:
// in-memory fakes of the node and of every reader, fixtures of every domain
// on a local network, a clock the test moves, assertions on replies, and
// NewAPI, which serves a domain's routes through the whole request path.
package handlertest
