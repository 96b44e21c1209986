package api

import (
	"net/url"
	"strings"
)

// ParseBool reads a boolean parameter: true or false (any case), def when
// absent.
func ParseBool(q url.Values, name string, def bool) (bool, error) {
	switch raw := q.Get(name); strings.ToLower(raw) {
	case "":
		return def, nil
	case "true":
		return true, nil
	case "false":
		return false, nil
	default:
		return false, BadRequest("invalid %s %q: must be true or false (default %t)", name, Truncate(raw), def)
	}
}
