package harness

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The official Data API client, @avalanche-sdk/chainkit, as a conformance
// client: tests/sdk holds its pinned package.json and package-lock.json and
// conformance.mjs, which runs SDK calls against a base URL and reports each
// (that file says how). InstallSDK installs it with `npm ci` (so the tests
// need node and npm, and the npm registry the first time); Catalog and Run
// call the script.

// sdkInstallTimeout bounds `npm ci` (about 100 packages).
const sdkInstallTimeout = 5 * time.Minute

// sdkStamp, in node_modules, holds the hash of the package-lock.json that
// was installed, so a later run installs again only when the lock changed.
const sdkStamp = ".avadata-lock-sha256"

// SDK is the conformance client installed in Dir.
type SDK struct {
	Dir string
}

// SDKDir is tests/sdk.
func SDKDir() string { return filepath.Join(RepoRoot(), "tests", "sdk") }

// InstallSDK installs the pinned SDK into tests/sdk/node_modules with
// `npm ci`, unless the installed packages are those of the current
// package-lock.json.
func InstallSDK(t testing.TB) *SDK {
	t.Helper()
	dir := SDKDir()
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	require.NoError(t, err, "reading the SDK's package-lock.json")
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(dir, "node_modules", sdkStamp)
	if got, err := os.ReadFile(stamp); err == nil && strings.TrimSpace(string(got)) == want {
		return &SDK{Dir: dir}
	}
	for _, tool := range []string{"node", "npm"} {
		_, err := exec.LookPath(tool)
		require.NoError(t, err, "the SDK conformance tests need %s (Node.js 18 or later) on PATH", tool)
	}
	ctx, cancel := context.WithTimeout(context.Background(), sdkInstallTimeout)
	defer cancel()
	began := time.Now()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "npm ci in %s: %s", dir, out)
	require.NoError(t, os.WriteFile(stamp, []byte(want+"\n"), 0o644), "writing %s", stamp)
	t.Logf("installed the SDK in %s with npm ci in %v", dir, time.Since(began).Round(time.Millisecond))
	return &SDK{Dir: dir}
}

// SDKFunction is one function of the SDK (its src/funcs), as the catalog
// describes it.
type SDKFunction struct {
	Func          string `json:"func"`          // dataEvmBlocksGet
	Method        string `json:"method"`        // data.evm.blocks.get, what a user calls
	OperationID   string `json:"operationId"`   // getBlock; empty for a client-side helper
	HTTPMethod    string `json:"httpMethod"`    // GET
	Path          string `json:"path"`          // /v1/chains/{chainId}/blocks/{blockId}
	SuccessStatus int    `json:"successStatus"` // the one 2XX status the SDK accepts
	Paginated     bool   `json:"paginated"`
}

// SDKCatalog is every function of the installed SDK.
type SDKCatalog struct {
	SDKVersion string        `json:"sdkVersion"`
	Functions  []SDKFunction `json:"functions"`
}

// SDKCase is one SDK call of a run (conformance.mjs describes the fields).
type SDKCase struct {
	Name        string          `json:"name"`
	Func        string          `json:"func"`
	Request     map[string]any  `json:"request"`
	APIKey      bool            `json:"apiKey,omitempty"`
	MaxPages    int             `json:"maxPages,omitempty"`
	RequestFrom *SDKRequestFrom `json:"requestFrom,omitempty"`
	PollUntil   *SDKPollUntil   `json:"pollUntil,omitempty"`
	// KeepPages has the report hold every page's parsed result
	// (SDKCall.PageResults), not only the first's.
	KeepPages bool `json:"keepPages,omitempty"`
	// Key, when set, is the API key this call sends instead of the
	// input's (a key that may only read, for a 403).
	Key string `json:"key,omitempty"`
}

// SDKRequestFrom fills a request parameter from an earlier case's result.
type SDKRequestFrom struct {
	Case  string `json:"case"`
	Path  string `json:"path"`
	Param string `json:"param"`
}

// SDKPollUntil repeats a call while its result's value at Path is one of
// NotIn, for up to TimeoutMs.
type SDKPollUntil struct {
	Path       string   `json:"path"`
	NotIn      []string `json:"notIn"`
	TimeoutMs  int      `json:"timeoutMs"`
	IntervalMs int      `json:"intervalMs,omitempty"`
}

// SDKInput is what a run calls.
type SDKInput struct {
	BaseURL  string    `json:"baseURL"`
	APIKey   string    `json:"apiKey,omitempty"`
	MaxPages int       `json:"maxPages,omitempty"`
	Cases    []SDKCase `json:"cases"`
}

// SDKZodIssue is one issue of the SDK's schema validation; a union's issue
// has the issues of each member.
type SDKZodIssue struct {
	Path         []any           `json:"path"`
	Code         string          `json:"code"`
	Message      string          `json:"message"`
	UnionMembers [][]SDKZodIssue `json:"unionMembers,omitempty"`
}

// PathText is the issue's path as a.b[0].c.
func (i SDKZodIssue) PathText() string {
	var b strings.Builder
	for _, p := range i.Path {
		switch v := p.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(v)
		default:
			fmt.Fprintf(&b, "[%v]", v)
		}
	}
	return b.String()
}

// SDKCall is what one call (with its pages) came to.
type SDKCall struct {
	Outcome     string          `json:"outcome"` // ok, typed-error, response-validation, sdk-validation, api-error, other
	ErrorClass  string          `json:"errorClass,omitempty"`
	Status      int             `json:"status,omitempty"`
	Message     string          `json:"message,omitempty"`
	ErrorBody   json.RawMessage `json:"errorBody,omitempty"`
	Body        string          `json:"body,omitempty"`
	Issues      []SDKZodIssue   `json:"issues,omitempty"`
	Pages       int             `json:"pages"`
	Items       int             `json:"items"`
	MorePages   bool            `json:"morePages,omitempty"`
	DroppedKeys []string        `json:"droppedKeys"`
	Result      json.RawMessage `json:"result"`
	// Rewrote lists the fields a run with the spec's overrides rewrote.
	Rewrote []string `json:"rewrote,omitempty"`
	// PageResults is every page's parsed result, when the case keeps them.
	PageResults []json.RawMessage `json:"pageResults,omitempty"`
}

// SDKResult is the report of one case.
type SDKResult struct {
	Name        string         `json:"name"`
	Func        string         `json:"func"`
	Method      string         `json:"method"`
	OperationID string         `json:"operationId"`
	Request     map[string]any `json:"request"`
	DurationMs  int            `json:"durationMs"`
	Polls       int            `json:"polls,omitempty"`
	SDKCall
	// Overridden is the same call made again with the fields where the
	// spec overrides the SDK rewritten to the SDK's form; set when the call
	// ended in a ResponseValidationError.
	Overridden *SDKCall `json:"overridden,omitempty"`
}

// SDKReport is the report of a run.
type SDKReport struct {
	SDKVersion string      `json:"sdkVersion"`
	BaseURL    string      `json:"baseURL"`
	Results    []SDKResult `json:"results"`
}

// Catalog describes every function of the installed SDK.
func (s *SDK) Catalog(t testing.TB, ctx context.Context) SDKCatalog {
	t.Helper()
	var c SDKCatalog
	s.node(t, ctx, &c, "catalog")
	require.NotEmpty(t, c.Functions, "the SDK catalog lists no function")
	return c
}

// Run makes the calls of in and returns the report, one result per case in
// order. The script's progress goes to the test log.
func (s *SDK) Run(t testing.TB, ctx context.Context, in SDKInput) SDKReport {
	t.Helper()
	b, err := json.Marshal(in)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "sdk-input.json")
	require.NoError(t, os.WriteFile(file, b, 0o644))
	var r SDKReport
	s.node(t, ctx, &r, "run", file)
	require.Len(t, r.Results, len(in.Cases), "one result per case")
	return r
}

// node runs conformance.mjs with args and decodes its stdout into v.
func (s *SDK) node(t testing.TB, ctx context.Context, v any, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "node", append([]string{"conformance.mjs"}, args...)...)
	cmd.Dir = s.Dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if stderr.Len() > 0 {
		t.Logf("conformance.mjs %s:\n%s", args[0], stderr.String())
	}
	require.NoError(t, err, "node conformance.mjs %s", strings.Join(args, " "))
	require.NoError(t, json.Unmarshal(stdout.Bytes(), v), "decoding the report of conformance.mjs %s", args[0])
}
