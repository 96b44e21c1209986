package handlers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
)

// TestOperationTable holds the package documentation's table of operations
// against the route table: the same operations, methods and paths in the
// same order, each with a file that exists and defines a handler.
func TestOperationTable(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	section := string(doc)[strings.Index(string(doc), "// # Operations"):]
	section = section[:strings.Index(section, "// One file per operation")]
	var documented [][]string
	for line := range strings.SplitSeq(section, "\n") {
		if fields := strings.Fields(strings.TrimPrefix(line, "//\t")); strings.HasPrefix(line, "//\t") {
			require.Len(t, fields, 4, "a table row is operation, method, path and file: %q", line)
			documented = append(documented, fields)
		}
	}

	fakes := handlertest.NewFakes()
	s := &server{Core: handlertest.NewCore(fakes), backend: readers(fakes)}
	all, err := s.routes(nil)
	require.NoError(t, err)
	var routes []api.Route
	for _, rt := range all {
		if !rt.Page { // the explorer's pages are listed in handlers/explorer's doc.go
			routes = append(routes, rt)
		}
	}
	require.Len(t, documented, len(routes), "every route is documented, once")
	for i, rt := range routes {
		row := documented[i]
		require.Equal(t, []string{rt.Name, rt.Method, rt.Path}, row[:3], "row %d", i)
		src, err := os.ReadFile(filepath.FromSlash(row[3]))
		require.NoError(t, err, "the file serving %s", rt.Name)
		require.True(t, strings.Contains(string(src), "func (s *server) serve") || strings.Contains(string(src), "Handler"),
			"%s defines the handler of %s", row[3], rt.Name)
	}
}
