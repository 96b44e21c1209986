package sigagg

import (
	"context"
	"net/http"
	"testing"

	"github.com/ava-labs/avalanchego/ids"
	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/aggregator"
	"github.com/avadata/avadata/handlers/handlertest"
)

// fakeAggregator records the request and answers what it is told.
type fakeAggregator struct {
	got    aggregator.Request
	gotTx  ids.ID
	result aggregator.Result
	err    error
}

func (f *fakeAggregator) AggregateForTx(_ context.Context, txID ids.ID) (aggregator.Result, error) {
	f.gotTx = txID
	return f.result, f.err
}

func (f *fakeAggregator) AggregateSignatures(_ context.Context, req aggregator.Request) (aggregator.Result, error) {
	f.got = req
	return f.result, f.err
}

func TestAggregateSignaturesServed(t *testing.T) {
	subnet := ids.ID{7}
	agg := &fakeAggregator{result: aggregator.Result{
		SignedMessage: []byte{0xab, 0xcd}, PChainHeight: 42, SigningSubnetID: subnet,
		SignedWeight: 300, TotalWeight: 400, Signers: 3,
	}}
	srv := newTestAPI(t, agg)
	rec := srv.Request(t, http.MethodPost, aggregatePath,
		`{"message":"0x0102","justification":"03","signingSubnetId":"`+subnet.String()+
			`","quorumPercentage":60,"quorumPercentageBuffer":10,"pChainHeight":41}`)
	var body map[string]string
	handlertest.RequireJSON(t, rec, http.StatusOK, &body)
	require.Equal(t, map[string]string{"signedMessage": "abcd"}, body)
	require.Equal(t, "42", rec.Header().Get(headerPChainHeight))
	require.Equal(t, subnet.String(), rec.Header().Get(headerSigningSubnetID))
	require.Equal(t, "300/400", rec.Header().Get(headerSignedWeight))
	require.Equal(t, aggregator.Request{
		Message: []byte{1, 2}, Justification: []byte{3}, SigningSubnetID: subnet, HasSigningSubnetID: true,
		QuorumPercentage: 60, QuorumPercentageBuffer: 10, PChainHeight: 41,
	}, agg.got)

	// Defaults.
	rec = srv.Request(t, http.MethodPost, aggregatePath, `{"message":"01"}`)
	handlertest.RequireJSON(t, rec, http.StatusOK, nil)
	require.Equal(t, aggregator.Request{Message: []byte{1}, QuorumPercentage: 67}, agg.got)

	// Invalid input never reaches the aggregator.
	agg.got = aggregator.Request{}
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, aggregatePath, `{"message":"zz"}`), http.StatusBadRequest, "invalid message")
	require.Zero(t, agg.got)
}

func TestGetAggregatedSignaturesServed(t *testing.T) {
	txID := ids.ID{1, 2, 3}
	agg := &fakeAggregator{result: aggregator.Result{SignedMessage: []byte{0xef}, PChainHeight: 9, SigningSubnetID: ids.ID{4}}}
	srv := newTestAPI(t, agg)
	rec := srv.Get(t, aggregatePath+"/"+txID.String())
	var body map[string]string
	handlertest.RequireJSON(t, rec, http.StatusOK, &body)
	require.Equal(t, "ef", body["signedMessage"])
	require.Equal(t, "9", rec.Header().Get(headerPChainHeight))
	require.Equal(t, txID, agg.gotTx)

	agg.err = &aggregator.Error{Kind: aggregator.KindNotFound, Message: "not committed"}
	handlertest.RequireDataError(t, srv.Get(t, aggregatePath+"/"+txID.String()), http.StatusNotFound, "not committed")
	handlertest.RequireDataError(t, srv.Get(t, aggregatePath+"/nope"), http.StatusBadRequest, "txHash")
}

func TestAggregateSignaturesErrors(t *testing.T) {
	cases := []struct {
		kind   aggregator.ErrorKind
		status int
	}{
		{aggregator.KindInvalidRequest, http.StatusBadRequest},
		{aggregator.KindRefused, http.StatusBadRequest},
		{aggregator.KindNotFound, http.StatusNotFound},
		{aggregator.KindUnavailable, http.StatusServiceUnavailable},
		{aggregator.KindBusy, http.StatusTooManyRequests},
	}
	for _, tc := range cases {
		t.Run(tc.kind.String(), func(t *testing.T) {
			srv := newTestAPI(t, &fakeAggregator{err: &aggregator.Error{Kind: tc.kind, Message: "the reason " + tc.kind.String()}})
			rec := srv.Request(t, http.MethodPost, aggregatePath, `{"message":"01"}`)
			handlertest.RequireDataError(t, rec, tc.status, "the reason "+tc.kind.String())
			if tc.status == http.StatusTooManyRequests {
				require.Equal(t, "1", rec.Header().Get("Retry-After"))
			}
		})
	}
	// Anything else is internal: its text stays in the log.
	srv := newTestAPI(t, &fakeAggregator{err: context.DeadlineExceeded})
	handlertest.RequireDataError(t, srv.Request(t, http.MethodPost, aggregatePath, `{"message":"01"}`), http.StatusServiceUnavailable)
	srv = newTestAPI(t, &fakeAggregator{err: errSecret})
	rec := srv.Request(t, http.MethodPost, aggregatePath, `{"message":"01"}`)
	handlertest.RequireDataError(t, rec, http.StatusInternalServerError)
	require.NotContains(t, rec.Body.String(), errSecret.Error())
}

var errSecret = &secretError{}

type secretError struct{}

func (*secretError) Error() string { return "secret internal detail" }
