package primary

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/avadata/avadata/handlers/api"
	"github.com/avadata/avadata/handlers/handlertest"
)

func TestStubPageTokens(t *testing.T) {
	backend := handlertest.NewFakes()
	srv := newTestAPI(t, handlertest.Config(), backend)
	// A token issued by another endpoint (avg TPS) is rejected by name.
	s := api.NewCore(backend, nil, srv.Clock.Now, "v-test", time.Second)
	tpsPage := firstPage(t, s, "avgTps", "P")
	token, err := s.NextPageToken(tpsPage, 1, nil)
	require.NoError(t, err)
	path := "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight=1&pageToken="
	handlertest.RequireDataError(t, srv.Get(t, path+token), http.StatusBadRequest, "invalid pageToken", "another endpoint")
	handlertest.RequireDataError(t, srv.Get(t, path+"garbage"), http.StatusBadRequest, "invalid pageToken")

	// A token of the same route and filters passes validation.
	q := url.Values{}
	verticesPage := firstPage(t, s, routeGetVertexByHeight, "1", "desc")
	token, err = s.NextPageToken(verticesPage, 7, encodeBlockHeight(7))
	require.NoError(t, err)
	q.Set("pageToken", token)
	const vertices = "/v1/networks/local/blockchains/x-chain/vertices:listByHeight?vertexHeight=1&"
	handlertest.RequireJSON(t, srv.Get(t, vertices+q.Encode()), http.StatusOK, &map[string]any{})
	// ... but not with other filters.
	handlertest.RequireDataError(t, srv.Get(t, vertices+"sortOrder=asc&"+q.Encode()),
		http.StatusBadRequest, "invalid pageToken", "other parameters")
}

func TestParseTxTypes(t *testing.T) {
	tests := []struct {
		query   string
		want    []string
		wantErr []string
	}{
		{query: ""},
		{query: "txTypes=AddValidatorTx", want: []string{"AddValidatorTx"}},
		{query: "txTypes=AddValidatorTx&txTypes=AddDelegatorTx", want: []string{"AddValidatorTx", "AddDelegatorTx"}},
		{query: "txTypes=AddValidatorTx,%20ImportTx,,", want: []string{"AddValidatorTx", "ImportTx"}},
		{query: "txTypes=importtx&txTypes=ImportTx,unknown", want: []string{"ImportTx", "UNKNOWN"}},
		{query: "txTypes=AddValidatorTx&txTypes=Bogus", wantErr: []string{"txTypes", "'Bogus'", "'AddValidatorTx'", "'OperationTx'"}},
		{query: "txTypes=AddValidator", wantErr: []string{"txTypes", "'AddValidator'"}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, err := parseTxTypes(handlertest.Query(t, tt.query))
			if tt.wantErr != nil {
				handlertest.RequireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
	require.Len(t, primaryNetworkTxTypes(), 23)
}

// firstPage is the first page of a listing of route whose filters are
// filters, for tests that mint page tokens.
func firstPage(t *testing.T, s *api.Core, route string, filters ...string) api.Page {
	t.Helper()
	pg, err := s.ParsePage(context.Background(), &api.Heights{}, url.Values{}, api.DataPaging(route, false), filters...)
	require.NoError(t, err)
	return pg
}
