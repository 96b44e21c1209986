package seed

import (
	"context"
	"encoding/hex"
	"fmt"
	"net/http"
)

// signable asks the signature aggregator of the avadata API at baseURL to
// sign msg, and reports whether it did. Only the aggregator can tell: a
// node without sybil protection (one-node `make run`) hides the validator
// sets from its chains, so it answers 404 although platform.getValidatorsAt
// lists the genesis validators. Other answers (avadata still starting, a
// 429, validators that have not accepted the block yet) are asked again.
func signable(ctx context.Context, baseURL, network string, msg []byte) (bool, string, error) {
	client := &http.Client{Timeout: requestTimeout}
	url := baseURL + "/v1/signatureAggregator/" + network + "/aggregateSignatures"
	body := aggregationBody(msg)
	var last string
	for {
		reply, status, err := do(ctx, client, http.MethodPost, url, body)
		if err == nil && status == http.StatusOK {
			return true, "", nil
		}
		if err == nil && status == http.StatusNotFound {
			// The aggregator's JSON error, not the node's plain-text 404 of a
			// chain whose handlers are not up yet.
			if ok, derr := HasData(reply, "message"); derr == nil && ok {
				return false, string(reply), nil
			}
		}
		last = describe(status, reply, err)
		if err := sleep(ctx, pollInterval); err != nil {
			return false, "", fmt.Errorf("seed: asking the signature aggregator (%s): %w", last, err)
		}
	}
}

// aggregationBody is the aggregateSignatures request for msg.
func aggregationBody(msg []byte) string {
	return `{"message":"` + hex.EncodeToString(msg) + `"}`
}
