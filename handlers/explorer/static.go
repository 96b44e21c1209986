package explorer

import (
	"embed"
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// staticFiles are served as they are under /explorer/static/.
//
//go:embed static/*
var staticFiles embed.FS

// staticType is the content type of the static file name; false for a
// name that is no static file.
func staticType(name string) (string, bool) {
	switch name {
	case "style.css":
		return "text/css; charset=utf-8", true
	}
	return "", false
}

func (s *server) serveStatic(w http.ResponseWriter, r *http.Request) {
	name := api.PathVar(r, "file")
	contentType, ok := staticType(name)
	if !ok {
		api.WriteError(w, r, http.StatusNotFound, "no explorer file "+api.Truncate(name))
		return
	}
	body, err := staticFiles.ReadFile("static/" + name)
	if err != nil {
		api.WriteError(w, r, http.StatusNotFound, "no explorer file "+api.Truncate(name))
		return
	}
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(body)
}
