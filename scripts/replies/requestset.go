package replies

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// DefaultRequestSet is the request set a record is made of unless another
// file is given: requests.txt beside this file, whose header says how it is
// written.
//
//go:embed requests.txt
var DefaultRequestSet string

// requestTemplate is one request of the set, before its placeholders are
// filled in.
type requestTemplate struct {
	line   int // in the set, for error messages
	route  string
	method string
	target string
	header map[string]string
	body   string
	// bodyRepeat sends the body that many times over.
	bodyRepeat int
	// follow is how many further pages to follow, at most.
	follow int
	// label names the request for a later token-from.
	label string
	// tokenFrom is the label whose reply's nextPageToken the target's
	// ${pageToken} stands for; tokenEdit changes it first.
	tokenFrom string
	tokenEdit string
	normalise []string
}

// ParseRequestSet reads a request set. Blank lines and lines starting with
// # are skipped; the other lines are
//
//	route NAME                          the route the next requests count under
//	METHOD TARGET [OPTION...]           a request; options:
//	                                      follow=N       follow nextPageToken N more pages
//	                                      label=NAME     name it for token-from
//	                                      normalise=N,.. more normalisers (normalise.go)
//	  header NAME: VALUE                (indented) a request header
//	  body TEXT                         (indented) the body, the rest of the line
//	  body-repeat N                     (indented) send the body N times over
//	  token-from LABEL                  (indented) ${pageToken} in TARGET is
//	                                    the labelled request's live nextPageToken
//	  token-edit tamper                 (indented) change one character of it
//
// ${name} elsewhere in TARGET or a body is filled in from the discovered IDs.
func ParseRequestSet(text string) ([]requestTemplate, error) {
	var (
		out   []requestTemplate
		route string
	)
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		var err error
		switch {
		case indented && len(out) == 0:
			err = fmt.Errorf("an indented line before any request")
		case indented:
			err = parseRequestDetail(&out[len(out)-1], trimmed)
		case strings.HasPrefix(trimmed, "route "):
			route = strings.TrimSpace(strings.TrimPrefix(trimmed, "route "))
		case route == "":
			err = fmt.Errorf("a request before any route line")
		default:
			var t requestTemplate
			t, err = parseRequestLine(trimmed)
			t.line, t.route = n, route
			out = append(out, t)
		}
		if err != nil {
			return nil, fmt.Errorf("request set line %d: %w", n, err)
		}
	}
	return out, checkLabels(out)
}

func parseRequestLine(line string) (requestTemplate, error) {
	fields := strings.Fields(line)
	if len(fields) < 2 {
		return requestTemplate{}, fmt.Errorf("want METHOD TARGET [OPTION...], got %q", line)
	}
	t := requestTemplate{method: fields[0], target: fields[1]}
	if t.method != strings.ToUpper(t.method) {
		return t, fmt.Errorf("method %q is not upper case", t.method)
	}
	for _, opt := range fields[2:] {
		name, value, ok := strings.Cut(opt, "=")
		if !ok {
			return t, fmt.Errorf("option %q is not NAME=VALUE", opt)
		}
		var err error
		switch name {
		case "follow":
			t.follow, err = strconv.Atoi(value)
		case "label":
			t.label = value
		case "normalise":
			t.normalise = strings.Split(value, ",")
			err = checkNormalisers(t.normalise)
		default:
			err = fmt.Errorf("unknown option %q", name)
		}
		if err != nil {
			return t, fmt.Errorf("option %q: %w", opt, err)
		}
	}
	return t, nil
}

func parseRequestDetail(t *requestTemplate, line string) error {
	keyword, rest, _ := strings.Cut(line, " ")
	switch keyword {
	case "header":
		name, value, ok := strings.Cut(rest, ":")
		if !ok {
			return fmt.Errorf("want header NAME: VALUE, got %q", line)
		}
		if t.header == nil {
			t.header = make(map[string]string)
		}
		t.header[strings.TrimSpace(name)] = strings.TrimSpace(value)
	case "body":
		t.body = rest
	case "body-repeat":
		n, err := strconv.Atoi(strings.TrimSpace(rest))
		if err != nil || n < 2 {
			return fmt.Errorf("body-repeat wants a count of at least 2, got %q", rest)
		}
		t.bodyRepeat = n
	case "token-from":
		t.tokenFrom = strings.TrimSpace(rest)
	case "token-edit":
		if _, err := editToken("x", strings.TrimSpace(rest)); err != nil {
			return err
		}
		t.tokenEdit = strings.TrimSpace(rest)
	default:
		return fmt.Errorf("unknown request detail %q", keyword)
	}
	return nil
}

// checkLabels checks that every token-from names an earlier label and that
// a target has ${pageToken} exactly when it takes a token.
func checkLabels(set []requestTemplate) error {
	var labels []string
	for _, t := range set {
		if t.tokenFrom != "" && !slices.Contains(labels, t.tokenFrom) {
			return fmt.Errorf("request set line %d: token-from %q names no earlier label", t.line, t.tokenFrom)
		}
		if t.tokenFrom != "" && t.follow > 0 {
			return fmt.Errorf("request set line %d: a request that takes a token cannot follow pages", t.line)
		}
		if (t.tokenFrom != "") != strings.Contains(t.target, tokenMarker) {
			return fmt.Errorf("request set line %d: a target has %s exactly when the request has token-from", t.line, tokenMarker)
		}
		if t.label != "" {
			if slices.Contains(labels, t.label) {
				return fmt.Errorf("request set line %d: label %q used twice", t.line, t.label)
			}
			labels = append(labels, t.label)
		}
	}
	return nil
}

// placeholderPattern matches ${name}; ${pageToken} is left for Send.
func placeholderPattern() *regexp.Regexp { return regexp.MustCompile(`\$\{([A-Za-z0-9_.]+)\}`) }

// fill replaces the placeholders of s with ids; a name ids lacks is an
// error, so a request set and the discovery cannot drift apart silently.
func fill(s string, ids map[string]string) (string, error) {
	var missing []string
	out := placeholderPattern().ReplaceAllStringFunc(s, func(m string) string {
		if m == tokenMarker {
			return m
		}
		name := m[2 : len(m)-1]
		v, ok := ids[name]
		if !ok {
			missing = append(missing, name)
		}
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("no discovered value for %s", strings.Join(missing, ", "))
	}
	return out, nil
}

// request fills in the template's placeholders.
func (t requestTemplate) request(ids map[string]string) (Request, error) {
	target, err := fill(t.target, ids)
	if err != nil {
		return Request{}, fmt.Errorf("request set line %d: %w", t.line, err)
	}
	body, err := fill(t.body, ids)
	if err != nil {
		return Request{}, fmt.Errorf("request set line %d: %w", t.line, err)
	}
	return Request{
		Method: t.method, Target: target, Header: t.header, Body: body, BodyRepeat: t.bodyRepeat,
		TokenEdit: t.tokenEdit, Normalise: t.normalise,
	}, nil
}
