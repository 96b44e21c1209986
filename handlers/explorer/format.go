package explorer

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/avadata/avadata/indexer/evmdata"
)

// formatFuncs turn the API's values into text for people. Amounts stay
// exact: they are decimal strings shifted by their decimals, never floats.
func formatFuncs() template.FuncMap {
	return template.FuncMap{
		"units":       units,
		"avax":        func(v any) string { return units(v, 9) },
		"native":      func(v any) string { return units(v, 18) },
		"timestamp":   timestamp,
		"timestampMs": timestampMs,
		"ago":         ago,
		"short":       short,
		"str":         str,
		"toJSON":      toJSON,
		"add":         func(a, b int) int { return a + b },
		"dict":        dict,
		"list":        func(v ...any) []any { return v },
		"either":      either,
		"hasPrefix":   func(s any, prefix string) bool { return strings.HasPrefix(str(s), prefix) },
		"contains":    func(s any, sub string) bool { return strings.Contains(str(s), sub) },
		"lower":       func(s any) string { return strings.ToLower(str(s)) },
	}
}

// str is v as text: a JSON string or number as it came, nil as "".
func str(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v)
}

// units writes the integer amount v (a decimal string or JSON number) as a
// decimal with decimals places, trailing zeros dropped: units("1500", 3) is
// "1.5". Anything that is no integer is shown as it came.
func units(v any, decimals any) string {
	raw := str(v)
	amount, ok := new(big.Int).SetString(raw, 10)
	if !ok {
		return raw
	}
	d, err := strconv.Atoi(str(decimals))
	if err != nil || d < 0 || d > 255 {
		return raw
	}
	return evmdata.ValueWithDecimals(amount, uint8(d))
}

// timestamp writes unix seconds as UTC time.
func timestamp(v any) string {
	secs, err := strconv.ParseInt(str(v), 10, 64)
	if err != nil {
		return str(v)
	}
	return time.Unix(secs, 0).UTC().Format("2006-01-02 15:04:05 UTC")
}

// timestampMs writes unix milliseconds as UTC time.
func timestampMs(v any) string {
	ms, err := strconv.ParseInt(str(v), 10, 64)
	if err != nil {
		return str(v)
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05 UTC")
}

// ago writes how long before now unix seconds v were, coarsely.
func ago(v any) string {
	secs, err := strconv.ParseInt(str(v), 10, 64)
	if err != nil {
		return ""
	}
	d := time.Since(time.Unix(secs, 0))
	switch {
	case d < 0:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%d s ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return fmt.Sprintf("%d days ago", int(d.Hours()/24))
}

// short abbreviates a long hash or address for a table cell; the full
// value goes in the cell's title and link.
func short(v any) string {
	s := []rune(str(v))
	if len(s) <= 20 {
		return string(s)
	}
	return string(s[:10]) + "…" + string(s[len(s)-6:])
}

// toJSON writes v as indented JSON, for the raw parts of a page.
func toJSON(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// dict makes a map of key-value pairs, to hand a partial several values.
func dict(kv ...any) (map[string]any, error) {
	if len(kv)%2 != 0 {
		return nil, fmt.Errorf("dict: odd number of arguments")
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		m[str(kv[i])] = kv[i+1]
	}
	return m, nil
}

// either is v, or fallback when v is empty.
func either(v, fallback any) any {
	if str(v) == "" {
		return fallback
	}
	return v
}
