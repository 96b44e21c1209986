package explorer

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The chart's markup is made here, not by html/template: only numbers and
// escaped text may be in it.
func TestBarChartEscapesAndScales(t *testing.T) {
	svg := string(barChart(`"><script>`, `<i>label</i>`, []chartPoint{
		{Timestamp: 7200, Value: "4"}, {Timestamp: 0, Value: "2"}, {Timestamp: 3600, Value: `"><b>`},
	}, true))
	require.NotContains(t, svg, "<script>")
	require.NotContains(t, svg, "<i>")
	require.NotContains(t, svg, "<b>")
	require.Contains(t, svg, `data-metric="&#34;&gt;&lt;script&gt;"`)
	require.Equal(t, 3, strings.Count(svg, "<rect "))
	// The tallest bar spans the plot; the others scale; a bad value is 0.
	require.Contains(t, svg, `y="16.00" width="170.00" height="134.00" data-timestamp="7200" data-value="4"`)
	require.Contains(t, svg, `height="67.00" data-timestamp="0" data-value="2"`)
	require.Contains(t, svg, `height="0.00" data-timestamp="3600" data-value="&#34;&gt;&lt;b&gt;"`)
	require.Contains(t, svg, "<title>1970-01-01 02:00 UTC: 4</title>")
	require.Contains(t, svg, ">max 4<")
	require.NotContains(t, svg, "style")
}

func httptestGet(h http.Handler, target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	return rec
}
