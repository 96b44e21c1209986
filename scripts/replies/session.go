package replies

import (
	"context"
	"fmt"
)

// session sends the exchanges of one run (a record or a replay) in order
// and keeps each reply's live page token, which later requests of the same
// run send on.
type session struct {
	client *Client
	norm   *Normaliser
	// tokens[i] is the raw nextPageToken of exchange i's reply ("" when it
	// had none).
	tokens []string
}

func newSession(client *Client) *session {
	return &session{client: client, norm: NewNormaliser()}
}

// send sends req as exchange len(s.tokens) and returns its normalised
// reply.
func (s *session) send(ctx context.Context, req Request) Reply {
	reply, token := s.sendRaw(ctx, req)
	s.tokens = append(s.tokens, token)
	return reply
}

func (s *session) sendRaw(ctx context.Context, req Request) (Reply, string) {
	token := ""
	if req.TokenFrom != nil {
		from := *req.TokenFrom
		if from < 0 || from >= len(s.tokens) {
			return Reply{Error: fmt.Sprintf("takes its page token from #%d, which was not sent before it", from)}, ""
		}
		if token = s.tokens[from]; token == "" {
			return Reply{Error: fmt.Sprintf("not sent: the reply of #%d has no nextPageToken to send", from)}, ""
		}
	}
	token, err := editToken(token, req.TokenEdit)
	if err != nil {
		return Reply{Error: err.Error()}, ""
	}
	reply, raw := s.client.Send(ctx, req, token)
	if reply.Error != "" {
		return reply, ""
	}
	reply.setBody(s.norm.Body(raw, req.Normalise))
	return reply, nextPageToken(raw)
}
