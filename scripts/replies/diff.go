package replies

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Unified diffs of reply bodies, for the replay report. Most bodies are one
// line of JSON, so both sides are indented first (json.Indent keeps every
// member and value as it is, only the whitespace between changes) and the
// lines of that are compared. The comparison itself is always of the raw
// bytes (compare.go); this only shows where they differ.

// diffContext is the number of unchanged lines shown around a change.
const diffContext = 3

// maxDiffCells bounds the table of the line diff (lines before × lines
// after, once the common head and tail are cut off); beyond it the changed
// middle is shown as removed, then added, which is still a correct diff.
const maxDiffCells = 4_000_000

// bodyDiff returns a unified diff of two bodies.
func bodyDiff(before, after []byte) string {
	b, a := indentJSON(before), indentJSON(after)
	note := ""
	if bytes.Equal(a, b) {
		// Same JSON, different whitespace: show the raw bytes.
		b, a = before, after
		note = "(the bodies differ only in whitespace between JSON tokens)\n"
	}
	return note + unifiedDiff(splitLines(b), splitLines(a))
}

// indentJSON returns body indented when it is JSON, else body.
func indentJSON(body []byte) []byte {
	var out bytes.Buffer
	if json.Indent(&out, body, "", "  ") != nil {
		return body
	}
	return out.Bytes()
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// diffOp is one line of a diff: ' ' kept, '-' removed, '+' added. aLine
// and bLine are the 0-based positions in before and after where it is.
type diffOp struct {
	kind         byte
	text         string
	aLine, bLine int
}

// diffLines returns the edit script from a to b: the common head and tail,
// and a longest-common-subsequence script of the middle.
func diffLines(a, b []string) []diffOp {
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var ops []diffOp
	for i := range head {
		ops = append(ops, diffOp{' ', a[i], i, i})
	}
	ops = append(ops, diffMiddle(a[head:len(a)-tail], b[head:len(b)-tail], head, head)...)
	for k := tail; k > 0; k-- {
		i, j := len(a)-k, len(b)-k
		ops = append(ops, diffOp{' ', a[i], i, j})
	}
	return ops
}

// diffMiddle diffs a and b, which start at line a0 and b0 of the whole.
func diffMiddle(a, b []string, a0, b0 int) []diffOp {
	var ops []diffOp
	if len(a)*len(b) > maxDiffCells {
		for i, s := range a {
			ops = append(ops, diffOp{'-', s, a0 + i, b0})
		}
		for j, s := range b {
			ops = append(ops, diffOp{'+', s, a0 + len(a), b0 + j})
		}
		return ops
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i], a0 + i, b0 + j})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			// Removals before additions, as diff(1) shows them.
			ops = append(ops, diffOp{'-', a[i], a0 + i, b0 + j})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j], a0 + i, b0 + j})
			j++
		}
	}
	return ops
}

// unifiedDiff renders the changes from a to b as hunks with diffContext
// lines of context; "" when there are none.
func unifiedDiff(a, b []string) string {
	ops := diffLines(a, b)
	var sb strings.Builder
	sb.WriteString("--- before\n+++ after\n")
	changed := false
	for start := 0; start < len(ops); {
		// The next change, and the hunk around it: it goes on while the
		// gap to the next change is at most two contexts wide.
		first := start
		for first < len(ops) && ops[first].kind == ' ' {
			first++
		}
		if first == len(ops) {
			break
		}
		changed = true
		last := first
		for k := first + 1; k < len(ops) && k-last <= 2*diffContext; k++ {
			if ops[k].kind != ' ' {
				last = k
			}
		}
		from, to := max(first-diffContext, start), min(last+diffContext+1, len(ops))
		writeHunk(&sb, ops[from:to])
		start = to
	}
	if !changed {
		return ""
	}
	return sb.String()
}

func writeHunk(sb *strings.Builder, ops []diffOp) {
	aLen, bLen := 0, 0
	for _, op := range ops {
		if op.kind != '+' {
			aLen++
		}
		if op.kind != '-' {
			bLen++
		}
	}
	fmt.Fprintf(sb, "@@ -%s +%s @@\n", hunkRange(ops[0].aLine, aLen), hunkRange(ops[0].bLine, bLen))
	for _, op := range ops {
		sb.WriteByte(op.kind)
		sb.WriteString(op.text)
		sb.WriteByte('\n')
	}
}

// hunkRange is a hunk's "start,length" in unified diff's 1-based lines; an
// empty range names the line before it.
func hunkRange(start, length int) string {
	if length == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, length)
}
