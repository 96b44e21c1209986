package explorer

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"go.uber.org/zap"

	"github.com/avadata/avadata/handlers/api"
)

// pageHandler answers one page: the view to render, or why not. An
// *api.Error (which the API's own replies become, apiclient.go) is shown
// with its status and message; any other error is a logged 500.
type pageHandler func(r *http.Request, req *request) (view, error)

// view is what a page handler hands to its template.
type view struct {
	// Template is the page's template (templates/<Template>.html).
	Template string
	// Title is the page's title, after the explorer's name.
	Title string
	// Data is the template's .Data.
	Data any
}

// request is what every page knows of its request, and what the layout
// reads (as .Req).
type request struct {
	// Base is the API's base URL path ({base_url}), for links to the JSON
	// a page shows.
	Base string
	// Root is the explorer's absolute path ({base_url}/explorer), the
	// start of every link.
	Root string
	// Path is the request's path below Root, and Query its query: links to
	// other pages of one list (tabs, paging) are made from them.
	Path  string
	Query url.Values
	// Network is the {network} segment of the API's primary-network paths.
	Network string
	// NetworkName is the node's network, for people.
	NetworkName string
	// Search is the search box's text.
	Search string
	// CChainEVMID is the C-chain's EVM chain id, for the nav's link to
	// its EVM pages (0 until the follower read it).
	CChainEVMID uint64
	// Chains are the primary network's chains, for the links of the
	// partials every page shares.
	Chains primaryChains
	// RemoteImages says whether NFT images from other origins may show.
	RemoteImages bool
}

// layoutData is the data the layout renders.
type layoutData struct {
	Req    *request
	Title  string
	Data   any
	Status int // the page's status; an error page's message is in Data
}

// contentSecurityPolicy allows the page's own style sheet and nothing
// else: no script, no frame, no form target or image from another origin.
// Images are this origin's and data: (the SVG charts are inline markup,
// which the policy does not govern).
const contentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self' data:; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// remoteImagesPolicy is the policy where NFT images may come from other
// origins (Config.RemoteImages): only images, only over https.
const remoteImagesPolicy = "default-src 'none'; style-src 'self'; img-src 'self' data: https:; " +
	"form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// serve turns a page handler into an http.Handler: security headers, the
// page or its error, rendered whole before anything is written.
func (s *server) serve(h pageHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := s.newRequest(r)
		header := w.Header()
		policy := contentSecurityPolicy
		if s.cfg.RemoteImages {
			policy = remoteImagesPolicy
		}
		header.Set("Content-Security-Policy", policy)
		header.Set("Referrer-Policy", "no-referrer")
		header.Set("X-Frame-Options", "DENY")
		header.Set("Cache-Control", "no-store")

		v, err := h(r, req)
		var see *redirect
		if errors.As(err, &see) {
			header.Set("Content-Type", "text/html; charset=utf-8")
			http.Redirect(w, r, see.URL, http.StatusSeeOther)
			return
		}
		status := http.StatusOK
		data := layoutData{Req: req, Title: v.Title, Data: v.Data}
		if err != nil {
			status = s.errorStatus(r, err)
			v = view{Template: "error", Title: http.StatusText(status)}
			data = layoutData{Req: req, Title: v.Title, Data: errorMessage(err, status), Status: status}
		}
		var body bytes.Buffer
		if err := s.pages.render(&body, v.Template, data); err != nil {
			s.Log().Warn("explorer page failed to render", zap.String("path", r.URL.Path), zap.Error(err))
			status = http.StatusInternalServerError
			body.Reset()
			_ = s.pages.render(&body, "error", layoutData{Req: req, Title: "Error",
				Data: "the page could not be drawn", Status: status})
		}
		if status == http.StatusServiceUnavailable {
			header.Set("Retry-After", "2")
		}
		header.Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write(body.Bytes())
	})
}

// errorStatus is the status an error page answers with; internal errors
// are logged.
func (s *server) errorStatus(r *http.Request, err error) int {
	var apiErr *api.Error
	if errors.As(err, &apiErr) {
		return apiErr.Status
	}
	if r.Context().Err() != nil {
		return http.StatusServiceUnavailable
	}
	s.Log().Warn("explorer page failed", zap.String("path", r.URL.Path), zap.Error(err))
	return http.StatusInternalServerError
}

// errorMessage is what an error page says.
func errorMessage(err error, status int) string {
	var apiErr *api.Error
	if errors.As(err, &apiErr) {
		return apiErr.Message
	}
	if status == http.StatusServiceUnavailable {
		return "the node took too long to answer; try again"
	}
	return "something went wrong on the node; its log says what"
}

// newRequest reads what every page needs of r.
func (s *server) newRequest(r *http.Request) *request {
	base := basePath(r)
	return &request{
		Base:         base,
		Root:         base + Prefix,
		Path:         strings.TrimPrefix(r.URL.Path, Prefix),
		Query:        r.URL.Query(),
		Network:      NetworkSegment(s.Network().NetworkID),
		NetworkName:  s.Network().Name(),
		Search:       r.URL.Query().Get("q"),
		CChainEVMID:  s.Network().CChainEVMID(),
		Chains:       s.primaryChains(),
		RemoteImages: s.cfg.RemoteImages,
	}
}

// basePath is the node's /ext/bc/<chain> prefix the client asked under
// (the request path has lost it by now), so links work under the alias and
// the chain ID alike.
func basePath(r *http.Request) string {
	if info := api.RequestInfoFrom(r.Context()); info != nil {
		return info.Base
	}
	return ""
}
