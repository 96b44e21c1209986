package explorer

import (
	"net/http"

	"github.com/avadata/avadata/handlers/api"
)

// redirect is a page handler's answer that sends the browser to another
// page (303 See Other): the search's one match, the explorer's root
// without its slash. Handlers return it as their error; serve (page.go)
// answers with the redirect instead of a page.
type redirect struct {
	// URL is the absolute path of the page (made with link).
	URL string
}

func (r *redirect) Error() string { return "see " + r.URL }

// notFoundPage answers a path below the explorer that is no page.
func notFoundPage(r *http.Request, _ *request) (view, error) {
	return view{}, api.NewError(http.StatusNotFound, "no explorer page at %s", api.Truncate(r.URL.Path))
}
