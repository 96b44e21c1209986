package operator

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/tests/e2e/harness"
)

// TestOperatorGrafanaDashboardMatchesMetrics checks the shipped Grafana
// dashboard is valid JSON and that every avadata metric its queries name is
// one the node actually exports at /ext/metrics, so the dashboard cannot
// drift from the code.
func TestOperatorGrafanaDashboardMatchesMetrics(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	raw, err := os.ReadFile(filepath.Join(harness.RepoRoot(), "scripts", "grafana", "avadata.json"))
	require.NoError(t, err)
	var dashboard struct {
		Title  string `json:"title"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	require.NoError(t, json.Unmarshal(raw, &dashboard))
	require.Equal(t, "avadata", dashboard.Title)

	harness.Get(t, ctx, env.Base(t)+"/v1/status") // so the API metrics have a series
	r := harness.Get(t, ctx, env.URI(t)+"/ext/metrics")
	require.Equal(t, http.StatusOK, r.Status)
	exported := string(r.Body)
	// The node names a VM's metrics avalanche_<VM ID>_vm_<name>.
	names := regexp.MustCompile(`avalanche_[A-Za-z0-9]+_vm_avadata_[a-z0-9_]+`)
	queries := 0
	for _, p := range dashboard.Panels {
		for _, target := range p.Targets {
			queries++
			for _, name := range names.FindAllString(target.Expr, -1) {
				require.Regexp(t, `(?m)^`+name+`[{ ]`, exported, "panel %q uses %s, which /ext/metrics does not export", p.Title, name)
			}
		}
	}
	require.Greater(t, queries, 10)
}
