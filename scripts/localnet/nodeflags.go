package localnet

import (
	"fmt"
	"strings"
)

// ParseNodeFlags reads node flags written as on the node's command line,
// "--min-stake-duration=1m --log-level=debug", into Config.ExtraFlags form.
// A flag without a value ("--index-allow-incomplete") means "true".
func ParseNodeFlags(s string) (map[string]string, error) {
	flags := map[string]string{}
	for _, field := range strings.Fields(s) {
		name, ok := strings.CutPrefix(field, "--")
		if !ok || name == "" || strings.HasPrefix(name, "-") {
			return nil, fmt.Errorf("node flag %q: want --name=value", field)
		}
		value := "true"
		if n, v, hasValue := strings.Cut(name, "="); hasValue {
			name, value = n, v
		}
		if name == "" {
			return nil, fmt.Errorf("node flag %q: no name", field)
		}
		if _, dup := flags[name]; dup {
			return nil, fmt.Errorf("node flag --%s given twice", name)
		}
		flags[name] = value
	}
	return flags, nil
}
