package explorer

import (
	"html/template"
	"net/url"
	"slices"
	"strings"

	"github.com/avadata/avadata/handlers/api"
)

// linkFuncs make the explorer's links. Every link is absolute below the
// explorer's root, with each path segment escaped.
func linkFuncs() template.FuncMap {
	return template.FuncMap{
		"link":      link,
		"apiLink":   apiLink,
		"withQuery": withQuery,
		"tabs":      tabs,
	}
}

// link is the explorer URL of the path segments: link req "evm" 43112 "tx" h.
func link(req *request, segments ...any) string {
	return joinPath(req.Root, segments)
}

// apiLink is the API URL of the path segments, for a page's link to the
// JSON it shows: apiLink req "v1" "status".
func apiLink(req *request, segments ...any) string {
	return joinPath(req.Base, segments)
}

// joinPath is root and the path segments, each escaped; root and "/"
// without segments.
func joinPath(root string, segments []any) string {
	var b strings.Builder
	b.WriteString(root)
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(str(s)))
	}
	if len(segments) == 0 {
		b.WriteByte('/')
	}
	return b.String()
}

// withQuery is the current page's URL with query parameters set (pairs of
// name and value; an empty value removes the parameter): for tabs and the
// next page of a list.
func withQuery(req *request, kv ...any) string {
	q := url.Values{}
	for k, v := range req.Query {
		q[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		name, value := str(kv[i]), str(kv[i+1])
		if value == "" {
			q.Del(name)
		} else {
			q.Set(name, value)
		}
	}
	u := req.Root + req.Path
	if enc := q.Encode(); enc != "" {
		u += "?" + enc
	}
	return u
}

// tab is one tab of a page's tab bar.
type tab struct {
	Name, Label, URL string
	Current          bool
}

// tabs is the tab bar of the current page: each spec is "name:Label"; a
// tab's URL is the page with tab=name, from the first page of its list.
func tabs(req *request, current string, specs ...string) []tab {
	out := make([]tab, 0, len(specs))
	for _, spec := range specs {
		name, label, _ := strings.Cut(spec, ":")
		out = append(out, tab{Name: name, Label: label, URL: withQuery(req, "tab", name, "page", ""), Current: name == current})
	}
	return out
}

// pageTab is the tab a page's URL asks for (tab=), fallback when it names
// none; a tab the page does not have is a 400, like any bad input, so each
// tab has one URL.
func pageTab(req *request, fallback string, names ...string) (string, error) {
	tab := req.Query.Get("tab")
	if tab == "" {
		return fallback, nil
	}
	if slices.Contains(names, tab) {
		return tab, nil
	}
	return "", api.BadRequest("invalid tab '%s': this page has the tabs %s", api.Truncate(tab), strings.Join(names, ", "))
}
