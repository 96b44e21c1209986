package replies

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Difference is one field of a reply that is not what the record holds.
type Difference struct {
	// Exchange is the recorded exchange.
	Exchange Exchange
	// Field is "error", "status", "header NAME" or "body".
	Field         string
	Before, After string
	// Diff is a unified diff of the bodies (pretty-printed when both are
	// JSON), for Field "body".
	Diff string
}

// compareReplies returns how after differs from before, field by field;
// nothing when they are the same.
func compareReplies(e Exchange, before, after Reply) []Difference {
	var out []Difference
	add := func(field, b, a string) {
		out = append(out, Difference{Exchange: e, Field: field, Before: b, After: a})
	}
	if before.Error != after.Error {
		add("error", before.Error, after.Error)
	}
	if before.Status != after.Status {
		add("status", strconv.Itoa(before.Status), strconv.Itoa(after.Status))
	}
	for _, name := range headerNames(before.Header, after.Header) {
		b, bok := before.Header[name]
		a, aok := after.Header[name]
		if bok != aok || !slices.Equal(b, a) {
			add("header "+name, headerValue(b, bok), headerValue(a, aok))
		}
	}
	if d, ok := compareBodies(before, after); !ok {
		d.Exchange = e
		out = append(out, d)
	}
	return out
}

// compareBodies compares the stored bodies byte for byte.
func compareBodies(before, after Reply) (Difference, bool) {
	b, errB := before.body()
	a, errA := after.body()
	if errB != nil || errA != nil {
		return Difference{Field: "body", Before: fmt.Sprint(errB), After: fmt.Sprint(errA)}, false
	}
	if bytes.Equal(a, b) {
		return Difference{}, true
	}
	return Difference{
		Field:  "body",
		Before: fmt.Sprintf("%d bytes", len(b)),
		After:  fmt.Sprintf("%d bytes", len(a)),
		Diff:   bodyDiff(b, a),
	}, false
}

// headerNames is the sorted union of both replies' header names.
func headerNames(a, b map[string][]string) []string {
	var names []string
	for name := range a {
		names = append(names, name)
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func headerValue(values []string, present bool) string {
	if !present {
		return "(absent)"
	}
	return strings.Join(values, ", ")
}

// String renders a difference for the report.
func (d Difference) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s [%s]\n  %s: before %q, after %q\n", d.Exchange.describe(), d.Exchange.Route, d.Field, d.Before, d.After)
	if d.Diff != "" {
		for line := range strings.SplitSeq(strings.TrimRight(d.Diff, "\n"), "\n") {
			sb.WriteString("    " + line + "\n")
		}
	}
	return sb.String()
}
