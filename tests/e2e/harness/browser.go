package harness

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// ChromiumPath is Debian's Chromium, which `make test` installs (make
// browser).
const ChromiumPath = "/usr/bin/chromium"

// ArtifactsDir is where e2e runs keep what a person may want to look at
// afterwards (the explorer's screenshots): $AVADATA_E2E_ARTIFACTS, else
// build/e2e-artifacts in the repository.
func ArtifactsDir() string {
	if dir := os.Getenv("AVADATA_E2E_ARTIFACTS"); dir != "" {
		return dir
	}
	return filepath.Join(RepoRoot(), "build", "e2e-artifacts")
}

// Browser is a headless Chromium driven over the DevTools protocol
// (chromedp), which records what a page must never do: log a console
// error, throw, break its Content-Security-Policy, or ask any origin but
// the node's for anything.
type Browser struct {
	ctx    context.Context
	origin string // scheme://host:port of the node

	mu           sync.Mutex
	problems     []problem // console errors, exceptions, CSP reports
	otherOrigins []string  // requests to an origin other than the node's
	status       int64     // status of the last main-document response
	// documents are the pages loaded: a page's own error status (a 404
	// page) is checked by its test, so the browser's "failed to load"
	// entry for it is no problem.
	documents map[string]bool
}

// problem is one thing a page must not do.
type problem struct {
	text string
	url  string // the resource a network entry is about
}

// NewBrowser starts a headless Chromium for pages of the node at nodeURI
// (its origin is the only one pages may ask); it stops with the test.
func NewBrowser(t testing.TB, nodeURI string) *Browser {
	t.Helper()
	_, err := os.Stat(ChromiumPath)
	require.NoError(t, err, "Chromium is missing: `make browser` installs Debian's chromium package")
	u, err := url.Parse(nodeURI)
	require.NoError(t, err)

	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(ChromiumPath),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
		// No request of Chromium's own leaves the machine (it has no
		// network but loopback in CI, and its own requests would count as
		// the page's requests to other origins).
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		// Back loads the page again rather than restoring it from the
		// back-forward cache, whose restored page the DevTools queries of
		// chromedp do not see (a click after Back would wait forever).
		chromedp.Flag("disable-features", "BackForwardCache"),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	b := &Browser{ctx: ctx, origin: u.Scheme + "://" + u.Host, documents: map[string]bool{}}
	// The first action starts Chromium and opens the tab, for as long as
	// its context lives: so it runs under ctx itself, not a shorter one.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("about:blank")), "starting Chromium")
	startCtx, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	require.NoError(t, chromedp.Listen(ctx, b.listen), "listening to the tab")
	_, err = chromedp.Call(startCtx, network.Enable, network.EnableParams{})
	require.NoError(t, err, "enabling network events")
	_, err = chromedp.Call(startCtx, log.Enable, cdp.Empty{})
	require.NoError(t, err, "enabling log events")
	_, err = chromedp.Call(startCtx, runtime.Enable, cdp.Empty{})
	require.NoError(t, err, "enabling runtime events")
	return b
}

// listen records the events that matter to the checks.
func (b *Browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
			var args []string
			for _, a := range e.Args {
				args = append(args, string(a.Value))
			}
			b.problems = append(b.problems, problem{text: "console error: " + strings.Join(args, " ")})
		}
	case *runtime.EventExceptionThrown:
		b.problems = append(b.problems, problem{text: "exception: " + e.ExceptionDetails.Text})
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError {
			p := problem{text: fmt.Sprintf("log error (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL)}
			if e.Entry.Source == log.EntrySourceNetwork {
				p.url = e.Entry.URL
			}
			b.problems = append(b.problems, p)
		}
	case *network.EventRequestWillBeSent:
		if !b.sameOrigin(e.Request.URL) {
			b.otherOrigins = append(b.otherOrigins, e.Request.URL)
		}
	case *network.EventResponseReceived:
		if e.Type == network.ResourceTypeDocument {
			b.status = e.Response.Status
			b.documents[e.Response.URL] = true
		}
	}
}

// sameOrigin reports whether a request URL is the node's, or needs no
// origin at all (data:, about:).
func (b *Browser) sameOrigin(raw string) bool {
	if strings.HasPrefix(raw, "data:") || strings.HasPrefix(raw, "about:") {
		return true
	}
	u, err := url.Parse(raw)
	return err == nil && u.Scheme+"://"+u.Host == b.origin
}

// do runs actions with a deadline.
func (b *Browser) do(t testing.TB, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, actions...), "browser: %s", what)
}

// get runs one action that returns a value, with a deadline.
func get[T any](t testing.TB, b *Browser, what string, action chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, action)
	require.NoError(t, err, "browser: %s", what)
	return v
}

// eval evaluates a JavaScript expression in the page (the DevTools
// protocol's evaluation, which the page's CSP does not govern).
func eval[T any](t testing.TB, b *Browser, what, expression string) T {
	t.Helper()
	return get(t, b, what, chromedp.Evaluate[T](expression))
}

// Open loads pageURL and waits for its body; it returns the document's
// HTTP status.
func (b *Browser) Open(t testing.TB, pageURL string) int64 {
	t.Helper()
	b.resetStatus()
	b.do(t, "opening "+pageURL, chromedp.Navigate(pageURL), chromedp.WaitReady(chromedp.CSS("body")))
	return b.Status()
}

// resetStatus forgets the last page's status before a navigation, so the
// status read after it is the new page's.
func (b *Browser) resetStatus() {
	b.mu.Lock()
	b.status = 0
	b.mu.Unlock()
}

// Status is the HTTP status of the last page loaded.
func (b *Browser) Status() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status
}

// Location is the URL the browser shows.
func (b *Browser) Location(t testing.TB) string {
	t.Helper()
	return get(t, b, "reading the location", chromedp.Location())
}

// Click clicks the first element matching the CSS selector and waits for
// the page it leads to; it returns that page's HTTP status.
func (b *Browser) Click(t testing.TB, selector string) int64 {
	t.Helper()
	before := b.Location(t)
	b.resetStatus()
	b.do(t, "clicking "+selector, chromedp.Click(chromedp.CSS(selector), chromedp.NodeVisible))
	return b.waitNavigated(t, before)
}

// Submit types text into the input matching selector and submits its form,
// then waits for the page it leads to; it returns that page's HTTP status.
func (b *Browser) Submit(t testing.TB, selector, text string) int64 {
	t.Helper()
	before := b.Location(t)
	b.resetStatus()
	// The input is emptied by script: chromedp's SetValue cannot set "" (it
	// sends the empty string as undefined, and the input then reads "undefined").
	b.do(t, "typing into "+selector,
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { document.querySelector(%q).value = ""; })()`, selector)),
		chromedp.SendKeys(chromedp.CSS(selector), text+"\r"))
	return b.waitNavigated(t, before)
}

// Back goes back one page in the history; it returns that page's HTTP
// status (the browser loads it again: the back-forward cache is off).
func (b *Browser) Back(t testing.TB) int64 {
	t.Helper()
	// history.back() rather than chromedp's NavigateBack, which waits for a
	// load event.
	before := b.Location(t)
	b.resetStatus()
	// Called from a timer, so the evaluation answers before the page it
	// runs in goes away.
	b.do(t, "going back", chromedp.Evaluate[chromedp.Void](`setTimeout(() => history.back(), 0)`))
	return b.waitNavigated(t, before)
}

// waitNavigated waits until the location is no longer before, the new
// document has loaded and its response has been seen; it returns the
// document's HTTP status.
func (b *Browser) waitNavigated(t testing.TB, before string) int64 {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		loc, err := chromedp.Run(ctx, chromedp.Location())
		var state string
		if err == nil {
			state, err = chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState`))
		}
		cancel()
		if status := b.Status(); err == nil && loc != before && state == "complete" && status != 0 {
			return status
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.Fail(t, "browser: no navigation away from "+before+" (or no response to it)")
	return 0
}

// Text is the visible text of the first element matching the CSS
// selector, trimmed; "" when none matches.
func (b *Browser) Text(t testing.TB, selector string) string {
	t.Helper()
	return eval[string](t, b, "reading "+selector, fmt.Sprintf(
		`(() => { const e = document.querySelector(%q); return e ? e.innerText.trim() : ""; })()`, selector))
}

// Texts are the visible texts of every element matching the CSS selector.
func (b *Browser) Texts(t testing.TB, selector string) []string {
	t.Helper()
	return eval[[]string](t, b, "reading "+selector, fmt.Sprintf(
		`Array.from(document.querySelectorAll(%q)).map(e => e.innerText.trim())`, selector))
}

// Attrs are the values of attribute attr of every element matching the
// CSS selector (elements without it are skipped).
func (b *Browser) Attrs(t testing.TB, selector, attr string) []string {
	t.Helper()
	return eval[[]string](t, b, "reading "+selector+"@"+attr, fmt.Sprintf(
		`Array.from(document.querySelectorAll(%q)).filter(e => e.hasAttribute(%q)).map(e => e.getAttribute(%q))`,
		selector, attr, attr))
}

// Count is the number of elements matching the CSS selector.
func (b *Browser) Count(t testing.TB, selector string) int {
	t.Helper()
	return eval[int](t, b, "counting "+selector, fmt.Sprintf(`document.querySelectorAll(%q).length`, selector))
}

// HTML is the document's markup as the browser has it.
func (b *Browser) HTML(t testing.TB) string {
	t.Helper()
	return get(t, b, "reading the document", chromedp.OuterHTML(chromedp.CSS("html")))
}

// Screenshot writes the whole page as PNG to ArtifactsDir()/explorer/name.png
// and returns the file's path.
func (b *Browser) Screenshot(t testing.TB, name string) string {
	t.Helper()
	png := get(t, b, "taking a screenshot", chromedp.FullScreenshot(100))
	dir := filepath.Join(ArtifactsDir(), "explorer")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	path := filepath.Join(dir, name+".png")
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot %s", path)
	return path
}

// PhoneWidth makes the viewport a phone's (390 CSS pixels wide) until the
// returned function restores the desktop one.
func (b *Browser) PhoneWidth(t testing.TB) (restore func()) {
	t.Helper()
	b.command(t, "narrowing the viewport", func(ctx context.Context) error {
		_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride,
			emulation.SetDeviceMetricsOverrideParams{Width: 390, Height: 844, DeviceScaleFactor: 2, Mobile: true})
		return err
	})
	return func() {
		b.command(t, "widening the viewport", func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
			return err
		})
	}
}

// FitsWidth reports whether the page needs no sideways scrolling of the
// page itself (wide tables scroll inside their own box).
func (b *Browser) FitsWidth(t testing.TB) bool {
	t.Helper()
	return eval[bool](t, b, "measuring the page", `document.documentElement.scrollWidth <= window.innerWidth + 1`)
}

// ScriptsOff turns JavaScript off for the pages loaded next, until the
// returned function turns it back on.
func (b *Browser) ScriptsOff(t testing.TB) (restore func()) {
	t.Helper()
	setScripts := func(disabled bool) func(ctx context.Context) error {
		return func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled,
				emulation.SetScriptExecutionDisabledParams{Value: disabled})
			return err
		}
	}
	b.command(t, "turning scripts off", setScripts(true))
	return func() { b.command(t, "turning scripts on", setScripts(false)) }
}

// command sends DevTools protocol commands, with a deadline.
func (b *Browser) command(t testing.TB, what string, send func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	require.NoError(t, send(ctx), "browser: %s", what)
}

// RequireClean fails the test if any page since the last call logged a
// console error, threw, broke its CSP, or asked another origin for
// anything; it then forgets them.
func (b *Browser) RequireClean(t testing.TB) {
	t.Helper()
	b.mu.Lock()
	var problems []string
	for _, p := range b.problems {
		if p.url == "" || !b.documents[p.url] {
			problems = append(problems, p.text)
		}
	}
	others := b.otherOrigins
	b.problems, b.otherOrigins = nil, nil
	b.mu.Unlock()
	require.Empty(t, problems, "console errors, exceptions or CSP reports")
	require.Empty(t, others, "requests to origins other than %s", b.origin)
}
