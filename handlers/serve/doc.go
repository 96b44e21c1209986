// Package serve turns a route table into the HTTP handler the node mounts:
// the router (404 and 405 in the spec's error body), route names for logs
// and request metrics, panic recovery, and the limits of package limits
// (keys and rates, body bounds, time budgets). It knows no domain.
package serve
