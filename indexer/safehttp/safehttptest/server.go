// Package safehttptest serves the tests of safehttp's clients: a loopback
// server that counts the connections its clients open and that end, so a
// test sees whether a client keeps its connections or closes them.
package safehttptest

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// Server is a started httptest server that counts connections.
type Server struct {
	*httptest.Server
	opened, closed atomic.Int32
}

// NewServer serves h until the test ends.
func NewServer(t testing.TB, h http.Handler) *Server {
	t.Helper()
	s := &Server{Server: httptest.NewUnstartedServer(h)}
	s.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		switch state {
		case http.StateNew:
			s.opened.Add(1)
		case http.StateClosed, http.StateHijacked:
			s.closed.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// Opened is how many connections clients opened.
func (s *Server) Opened() int { return int(s.opened.Load()) }

// Closed is how many of them ended.
func (s *Server) Closed() int { return int(s.closed.Load()) }
