// Package replies records every route's reply of a running avadata API for a
// fixed request set, and replays the record to show that the replies are
// still the same: the proof that a refactor of the HTTP layer changed no
// behaviour.
//
// record discovers the IDs the request set needs from the seeded network
// (the node's own APIs first, avadata's listings for what only they show),
// expands the request set (requests.txt, embedded) with them, sends every
// request in order, follows page tokens where the set says so, and writes
// one JSON file (Record). replay sends exactly the recorded requests again,
// in the same order, and compares each reply with the recorded one: status,
// headers and body, byte for byte.
//
// Before sending anything, both wait until the replies can only depend on
// the data (WaitCaughtUp): every follower caught up, and the P-chain's
// proposed height settled. Then only what cannot be the same in two runs
// over the same data is normalised before it is stored or compared
// (normalise.go says why for each): the bytes of page tokens; the rates,
// poll times and in-memory trace flag of the followers' status; and the
// node's live uptime of validators. Two headers are left out of the record
// (see recordedHeaders).
package replies
