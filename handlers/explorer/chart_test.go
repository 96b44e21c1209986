package explorer

import (
	"fmt"
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
	}, true, 3))
	require.NotContains(t, svg, "<script>")
	require.NotContains(t, svg, "<i>")
	require.NotContains(t, svg, "<b>")
	require.Contains(t, svg, `data-metric="&#34;&gt;&lt;script&gt;"`)
	require.Equal(t, 3, strings.Count(svg, "<rect "))
	// The tallest bar spans the plot; the others scale; a bad value is 0.
	require.Contains(t, svg, `x="210.00" y="14.00" width="80.00" height="90.00" data-timestamp="7200" data-value="4"`)
	require.Contains(t, svg, `x="10.00" y="59.00" width="80.00" height="45.00" data-timestamp="0" data-value="2"`)
	require.Contains(t, svg, `height="0.00" data-timestamp="3600" data-value="&#34;&gt;&lt;b&gt;"`)
	require.Contains(t, svg, "<title>1970-01-01 02:00 UTC: 4</title>")
	require.Contains(t, svg, ">max 4<")
	require.NotContains(t, svg, "style")
}

// A chart always shows its slots, up to the newest bucket: buckets the
// series lacks are 0, buckets before the window are left out.
func TestBarChartSlots(t *testing.T) {
	svg := string(barChart("txCount", "Transactions per day", []chartPoint{
		{Timestamp: 10 * 86400, Value: "5"}, {Timestamp: 2 * 86400, Value: "7"},
	}, false, 4))
	require.Equal(t, 4, strings.Count(svg, "<rect "))
	for day, v := range map[int]string{7: "0", 8: "0", 9: "0", 10: "5"} {
		require.Contains(t, svg, fmt.Sprintf(`data-timestamp="%d" data-value="%s"`, day*86400, v))
	}
	require.NotContains(t, svg, `data-value="7"`)
	require.Contains(t, svg, ">1970-01-08<")
	require.Contains(t, svg, ">1970-01-11<")
	require.Contains(t, string(barChart("txCount", "x", nil, true, 24)), "no data yet")
}

func httptestGet(h http.Handler, target string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
	return rec
}
