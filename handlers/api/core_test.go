package api

import (
	"time"

	"github.com/avadata/avadata/handlers/handlertest/fakenet"
	"github.com/avadata/avadata/indexer/follower"
	"github.com/avadata/avadata/indexer/netinfo"
)

// testNode is the NodeView of the api package's tests: the fake local network, every stream at the height set in statuses.
type testNode struct {
	statuses []follower.Status
}

func (testNode) Network() netinfo.Info { return fakenet.Info() }

func (n testNode) Statuses() []follower.Status { return n.statuses }

func (testNode) PageTokenKey() []byte { return []byte("test page token key") }

// newTestCore is a Core over testNode with the clock now.
func newTestCore(now func() time.Time) *Core {
	return NewCore(testNode{}, nil, now, "test", time.Second)
}
