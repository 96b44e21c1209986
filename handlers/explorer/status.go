package explorer

import (
	"encoding/json"
	"net/http"
	"sort"
)

// statusData is what the status page shows.
type statusData struct {
	Status    statusReply
	Followers []follower
	// Data and Metrics are the data service's and the metrics service's
	// health checks.
	Data, Metrics health
}

// health is one health check's verdict, for people.
type health struct {
	// Status is the check's status: "ok", "error" or "shutting_down";
	// Err is set when the check could not be read at all.
	Status string
	Err    string
	// Problems are the indicators that are down, by name, with why.
	Problems []healthProblem
	// Up are the names of the indicators that are up.
	Up []string
}

// healthProblem is one indicator that is down.
type healthProblem struct {
	Name, Message string
}

// serveStatus draws the status page: what /v1/status, /v1/health-check
// and the metrics service's health check say, for a person.
func (s *server) serveStatus(r *http.Request, req *request) (view, error) {
	ctx := r.Context()
	var data statusData
	// The status and the two health checks, read at once.
	errs := runAll(ctx,
		func() (err error) { data.Status, err = s.readStatus(ctx); return err },
		func() error { data.Data = s.readHealth(r, call(nil, "v1", "health-check")); return nil },
		func() error { data.Metrics = s.readHealth(r, call(nil, "metrics", "v2", "health-check")); return nil },
	)
	if errs[0] != nil {
		return view{}, errs[0]
	}
	for i, h := range []*health{&data.Data, &data.Metrics} {
		if err := errs[i+1]; err != nil { // a panic, or the page's time is up
			*h = health{Status: "error", Err: errorMessage(err, s.errorStatus(r, err))}
		}
	}
	data.Followers = data.Status.followers()
	return view{Template: "status", Title: "Status", Data: data}, nil
}

// readHealth reads one health check: its 503 carries the same body as its
// 200, naming what is down and why.
func (s *server) readHealth(r *http.Request, c apiCall) health {
	code, body, err := s.getReply(r.Context(), c)
	if err != nil {
		return health{Status: "error", Err: errorMessage(err, s.errorStatus(r, err))}
	}
	var res struct {
		Status  string `json:"status"`
		Details map[string]struct {
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"details"`
	}
	raw, _ := json.Marshal(body)
	if json.Unmarshal(raw, &res) != nil || res.Status == "" {
		return health{Status: "error", Err: replyMessage(body, code)}
	}
	h := health{Status: res.Status}
	for name, d := range res.Details {
		if d.Status == "up" {
			h.Up = append(h.Up, name)
		} else {
			h.Problems = append(h.Problems, healthProblem{Name: name, Message: d.Message})
		}
	}
	sort.Strings(h.Up)
	sort.Slice(h.Problems, func(i, j int) bool { return h.Problems[i].Name < h.Problems[j].Name })
	return h
}
