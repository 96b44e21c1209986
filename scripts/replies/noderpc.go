package replies

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// nodeCall calls a JSON-RPC 2.0 method of one of the node's APIs (endpoint
// such as /ext/info or /ext/bc/C/rpc) and decodes its result into result.
func (c *Client) nodeCall(ctx context.Context, endpoint, method string, params, result any) error {
	if params == nil {
		params = struct{}{}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		return fmt.Errorf("encoding %s: %w", method, err)
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.Node+endpoint, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("building %s: %w", method, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("calling %s on %s: %w", method, endpoint, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("reading the reply of %s: %w", method, err)
	}
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return fmt.Errorf("parsing the reply of %s (status %d): %w", method, resp.StatusCode, err)
	}
	if reply.Error != nil {
		return fmt.Errorf("%s on %s: error %d: %s", method, endpoint, reply.Error.Code, reply.Error.Message)
	}
	if err := json.Unmarshal(reply.Result, result); err != nil {
		return fmt.Errorf("decoding the result of %s: %w", method, err)
	}
	return nil
}

// apiGet GETs target under the API's base and decodes its JSON reply,
// which must have status 200.
func (c *Client) apiGet(ctx context.Context, target string, result any) error {
	reply, raw := c.Send(ctx, Request{Method: http.MethodGet, Target: target}, "")
	if reply.Error != "" {
		return fmt.Errorf("GET %s: %s", target, reply.Error)
	}
	if reply.Status != http.StatusOK {
		return fmt.Errorf("GET %s: status %d: %s", target, reply.Status, raw)
	}
	if err := json.Unmarshal(raw, result); err != nil {
		return fmt.Errorf("parsing GET %s: %w", target, err)
	}
	return nil
}
