package explorer

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"path"
	"strings"
)

// templateFiles are the pages' templates. layout.html draws every page
// around its "content"; files whose name starts with "_" hold partials
// every page may use; every other file is one page's "content".
//
//go:embed templates/*.html
var templateFiles embed.FS

// pageTemplates holds each page's template, by its file's name.
type pageTemplates map[string]*template.Template

func parseTemplates() (pageTemplates, error) {
	names, err := fs.Glob(templateFiles, "templates/*.html")
	if err != nil {
		return nil, err
	}
	shared := []string{"templates/layout.html"}
	var pages []string
	for _, n := range names {
		base := path.Base(n)
		switch {
		case base == "layout.html":
		case strings.HasPrefix(base, "_"):
			shared = append(shared, n)
		default:
			pages = append(pages, n)
		}
	}
	base, err := template.New("layout.html").Funcs(templateFuncs()).ParseFS(templateFiles, shared...)
	if err != nil {
		return nil, err
	}
	out := make(pageTemplates, len(pages))
	for _, p := range pages {
		t, err := template.Must(base.Clone()).ParseFS(templateFiles, p)
		if err != nil {
			return nil, err
		}
		out[strings.TrimSuffix(path.Base(p), ".html")] = t
	}
	return out, nil
}

// render draws the page of template name with data.
func (p pageTemplates) render(w io.Writer, name string, data layoutData) error {
	t, ok := p[name]
	if !ok {
		return fmt.Errorf("no template %q", name)
	}
	return t.ExecuteTemplate(w, "layout.html", data)
}
