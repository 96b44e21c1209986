package localnet

import (
	"strings"
	"sync"
)

// tailBuffer keeps the last bytes the node wrote, wherever its output goes,
// so a failed Start can say why without the caller digging through files.
// It also catches what avalanchego prints before its log files exist (bad
// flags, ports in use).
type tailBuffer struct {
	mu   sync.Mutex
	buf  []byte
	size int
}

func newTailBuffer(size int) *tailBuffer { return &tailBuffer{size: size} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.size; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// maxLineLen cuts long lines in an error message: the node's health
// warnings put kilobytes of JSON on one line.
const maxLineLen = 300

// lines returns at most n of the last lines, each cut to maxLineLen.
func (t *tailBuffer) lines(n int) string {
	t.mu.Lock()
	s := string(t.buf)
	t.mu.Unlock()
	all := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(all) > n {
		all = all[len(all)-n:]
	}
	for i, l := range all {
		if len(l) > maxLineLen {
			all[i] = l[:maxLineLen] + " …"
		}
	}
	return strings.Join(all, "\n")
}
