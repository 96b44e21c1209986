package explorer

import "net/http"

// networkPages are the pages about the whole node: home, search, status.
func (s *server) networkPages() []page {
	return []page{
		{name: "root", path: "", summary: "the explorer's home, without its slash: a redirect", handler: serveRoot},
		{name: "home", path: "/", summary: "home: the followed chains, latest blocks and transactions, activity", handler: s.serveHome},
		{name: "status", path: "/status", summary: "status: the followers and the health checks, for people", handler: s.serveStatus},
		{name: "search", path: "/search", summary: "search: anything a person may paste; one match redirects, several are listed", handler: s.serveSearch},
	}
}

// serveRoot sends {base_url}/explorer to {base_url}/explorer/, the home
// page, whose relative links need the slash.
func serveRoot(_ *http.Request, req *request) (view, error) {
	return view{}, &redirect{URL: link(req)}
}
