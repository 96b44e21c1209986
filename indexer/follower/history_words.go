package follower

import "fmt"

// HistoryWords says, for people reading the health check, where the
// index of s's chain starts when that is above genesis; "" when it holds
// the chain from genesis (or has not started it yet).
func HistoryWords(s Status) string {
	if s.HistoryFrom <= 1 {
		return ""
	}
	return fmt.Sprintf("history from block %d: earlier blocks are not indexed (the node did not serve them when "+
		"avadata started, having state-synced or pruned the chain, or indexFrom starts there); answers about them "+
		"are refused, not short", s.HistoryFrom)
}
