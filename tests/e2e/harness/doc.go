// Package harness is what the end-to-end test packages share: the networks
// they run avadata on (Env: a single-node local network and a 2-node
// network, each started by the first test that needs it), asking avadata
// over HTTP (Get, GetOK, ListAll, WaitIndexed, RequireErrorBody) and
// JSON-RPC, real transactions from the pre-funded key (TxIssuer), and the
// pieces of the kill tests and catch-up benchmarks that several domains use.
//
// What the node itself says, the ground truth the tests compare avadata
// with, is in package truth; the shapes of avadata's replies in dataapi.
package harness
