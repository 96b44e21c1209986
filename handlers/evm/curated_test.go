package evm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/handlertest"
)

func writeCurated(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "curated.json")
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

func TestLoadCuratedContracts(t *testing.T) {
	path := writeCurated(t, `{
		"43114": {
			"0xb31f66aa3c1e785363f0875a1b74e27b85fd66c7": {
				"description": "Wrapped AVAX", "officialSite": "https://example.org", "email": "team@example.org",
				"color": "#E84142", "logoAsset": {"assetId": "a", "imageUri": "https://example.org/logo.png"},
				"resourceLinks": [{"type": "Twitter", "url": "https://x.example/wavax"}], "tags": ["defi"]
			}
		},
		"779672": {"0x06012c8cf97BEaD5deAe237070F9587f8E7A266d": {}}
	}`)
	got, err := LoadCuratedContracts(path)
	require.NoError(t, err)
	require.Equal(t, CuratedContracts{
		43114: {handlertest.Wavax: {
			Description: "Wrapped AVAX", OfficialSite: "https://example.org", Email: "team@example.org", Color: "#E84142",
			LogoAsset:     &ImageAsset{AssetID: "a", ImageURI: "https://example.org/logo.png"},
			ResourceLinks: []ResourceLink{{Type: "Twitter", URL: "https://x.example/wavax"}},
			Tags:          []string{"defi"},
		}},
		779672: {handlertest.Kitties: {}},
	}, got)
	entry, ok := got.lookup(43114, handlertest.Wavax)
	require.True(t, ok, "addresses are matched whatever their case in the file")
	require.Equal(t, "Wrapped AVAX", entry.Description)
	require.Equal(t, "https://example.org/logo.png", got.logoURI(43114, handlertest.Wavax))
	require.Empty(t, got.logoURI(43112, handlertest.Wavax))

	none, err := LoadCuratedContracts("")
	require.NoError(t, err)
	require.Empty(t, none)

	empty, err := LoadCuratedContracts(writeCurated(t, "{}"))
	require.NoError(t, err)
	require.Empty(t, empty)
}

func TestLoadCuratedContractsErrors(t *testing.T) {
	const a = "0xb31f66aa3c1e785363f0875a1b74e27b85fd66c7"
	entry := func(body string) string { return `{"43114": {"` + a + `": ` + body + `}}` }
	tests := map[string]struct {
		content   string
		fragments []string
	}{
		"not an object":      {`[]`, []string{"want a JSON object"}},
		"malformed":          {`{"43114": {`, []string{"malformed JSON"}},
		"trailing data":      {`{} {}`, []string{"unexpected data after the JSON object"}},
		"chain alias":        {`{"c-chain": {}}`, []string{`chain "c-chain"`, "positive decimal number"}},
		"chain zero":         {`{"0": {}}`, []string{`chain "0"`}},
		"duplicate chain":    {`{"1": {}, "1": {}}`, []string{`"1" appears more than once`}},
		"chain not object":   {`{"1": []}`, []string{`chain "1"`, "want a JSON object"}},
		"bad address":        {`{"1": {"0x1234": {}}}`, []string{`contract "0x1234"`, "40 hex digits"}},
		"same address twice": {`{"1": {"` + a + `": {}, "` + strings.ToUpper("0X"+a[2:]) + `": {}}}`, []string{"more than once", "case-insensitive"}},
		"duplicate key":      {`{"1": {"` + a + `": {}, "` + a + `": {}}}`, []string{"appears more than once"}},
		"unknown field":      {entry(`{"website": "https://x"}`), []string{"contract " + a, `unknown field "website"`}},
		"wrong type":         {entry(`{"tags": "defi"}`), []string{"contract " + a}},
		"link type case":     {entry(`{"resourceLinks": [{"type": "twitter", "url": "https://x"}]}`), []string{`resourceLinks[0]: type "twitter"`, "'Twitter'"}},
		"link without url":   {entry(`{"resourceLinks": [{"type": "Blog"}]}`), []string{"resourceLinks[0]: url is empty"}},
		"empty tag":          {entry(`{"tags": ["defi", ""]}`), []string{"tags[1] is empty"}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			path := writeCurated(t, tt.content)
			_, err := LoadCuratedContracts(path)
			require.Error(t, err)
			require.Contains(t, err.Error(), "curated contracts "+path)
			for _, f := range tt.fragments {
				require.Contains(t, err.Error(), f)
			}
		})
	}

	_, err := LoadCuratedContracts(filepath.Join(t.TempDir(), "missing.json"))
	require.ErrorContains(t, err, "reading curated contracts")
}
