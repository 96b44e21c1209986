package api

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParsePage(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	s := newTestCore(func() time.Time { return now })
	paging := DataPaging("listThings", true)

	first, err := s.ParsePage(context.Background(), &Heights{}, query(t, "pageSize=7&sortOrder=Asc"), paging, "a", "b")
	require.NoError(t, err)
	require.True(t, first.First)
	require.Equal(t, 7, first.Size)
	require.Equal(t, SortAsc, first.Order)
	require.Equal(t, NewFilterHash("listThings", "a", "b", "asc"), first.filters, "the sort order is a filter")

	token, err := s.NextPageToken(first, 42, []byte{9})
	require.NoError(t, err)
	next, err := s.ParsePage(context.Background(), &Heights{}, query(t, "pageSize=3&sortOrder=asc&pageToken="+token), paging, "a", "b")
	require.NoError(t, err)
	require.False(t, next.First)
	require.Equal(t, int64(42), next.Token.Position)
	require.Equal(t, []byte{9}, next.Token.Extra)

	_, err = s.ParsePage(context.Background(), &Heights{}, query(t, "pageToken="+token), paging, "a", "b")
	requireBadRequest(t, err, "invalid pageToken", "other parameters")
	_, err = s.ParsePage(context.Background(), &Heights{}, query(t, "sortOrder=asc&pageToken="+token), DataPaging("listOthers", true), "a", "b")
	requireBadRequest(t, err, "invalid pageToken", "another endpoint")
	_, err = s.ParsePage(context.Background(), &Heights{}, query(t, "pageSize=0"), paging)
	requireBadRequest(t, err, "pageSize")
	_, err = s.ParsePage(context.Background(), &Heights{}, query(t, "sortOrder=sideways"), paging)
	requireBadRequest(t, err, "sortOrder")

	unsorted, err := s.ParsePage(context.Background(), &Heights{}, query(t, "sortOrder=sideways"), DataPaging("listThings", false))
	require.NoError(t, err, "endpoints without sortOrder ignore it")
	require.Equal(t, SortDesc, unsorted.Order)
}
