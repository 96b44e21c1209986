// Package api is what every operation of the HTTP layer shares, whatever its
// domain: the Core (the node's view, the clock, the log), the route type and
// the handler adapter that writes errors as the spec's error body, parameter
// and body parsing, chain resolution, paging with signed page tokens, and the
// index heights a reply reflects, which replicas compare.
package api
