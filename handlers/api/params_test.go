package api

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireBadRequest checks that err is a 400 Error mentioning every
// fragment (typically the parameter name and the allowed values).
func requireBadRequest(t *testing.T, err error, fragments ...string) {
	t.Helper()
	var apiErr *Error
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, http.StatusBadRequest, apiErr.Status)
	for _, f := range fragments {
		require.Contains(t, apiErr.Message, f)
	}
}

func query(t *testing.T, raw string) url.Values {
	t.Helper()
	q, err := url.ParseQuery(raw)
	require.NoError(t, err)
	return q
}

func TestParsePageSize(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		rule    pageSizeRule
		want    int
		wantErr []string
	}{
		{name: "absent takes default", query: "", rule: StandardPageSize(), want: 10},
		{name: "empty takes default", query: "pageSize=", rule: StandardPageSize(), want: 10},
		{name: "min", query: "pageSize=1", rule: StandardPageSize(), want: 1},
		{name: "max", query: "pageSize=100", rule: StandardPageSize(), want: 100},
		{name: "zero", query: "pageSize=0", rule: StandardPageSize(), wantErr: []string{"pageSize", "between 1 and 100"}},
		{name: "above max", query: "pageSize=101", rule: StandardPageSize(), wantErr: []string{"pageSize", "between 1 and 100"}},
		{name: "negative", query: "pageSize=-5", rule: StandardPageSize(), wantErr: []string{"pageSize"}},
		{name: "not a number", query: "pageSize=ten", rule: StandardPageSize(), wantErr: []string{"pageSize", `"ten"`}},
		{name: "float", query: "pageSize=1.5", rule: StandardPageSize(), wantErr: []string{"pageSize"}},
		{name: "overflow", query: "pageSize=99999999999999999999", rule: StandardPageSize(), wantErr: []string{"pageSize"}},
		{name: "first of repeated", query: "pageSize=7&pageSize=500", rule: StandardPageSize(), want: 7},
		{name: "erc721 max", query: "pageSize=500", rule: Erc721PageSize(), want: 500},
		{name: "erc721 above max", query: "pageSize=501", rule: Erc721PageSize(), wantErr: []string{"between 1 and 500"}},
		{name: "nft holders default", query: "", rule: NFTHolderPageSize(), want: 1000},
		{name: "nft holders max", query: "pageSize=5000", rule: NFTHolderPageSize(), want: 5000},
		{name: "nft holders above max", query: "pageSize=5001", rule: NFTHolderPageSize(), wantErr: []string{"between 1 and 5000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePageSize(query(t, tt.query), tt.rule)
			if tt.wantErr != nil {
				requireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestParseSortOrder(t *testing.T) {
	tests := []struct {
		query   string
		want    sortOrder
		wantErr bool
	}{
		{query: "", want: SortDesc},
		{query: "sortOrder=asc", want: SortAsc},
		{query: "sortOrder=desc", want: SortDesc},
		{query: "sortOrder=ASC", want: SortAsc},
		{query: "sortOrder=up", wantErr: true},
		{query: "sortOrder=ascending", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, err := parseSortOrder(query(t, tt.query))
			if tt.wantErr {
				requireBadRequest(t, err, "sortOrder", "'asc' or 'desc'")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestParseTimestampRange(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		want    TimestampRange
		wantErr []string
	}{
		{name: "none", query: ""},
		{name: "start only", query: "startTimestamp=5", want: TimestampRange{Start: Bound[int64]{5, true}}},
		{name: "end only", query: "endTimestamp=9", want: TimestampRange{End: Bound[int64]{9, true}}},
		{name: "zero allowed", query: "startTimestamp=0&endTimestamp=0", want: TimestampRange{Bound[int64]{0, true}, Bound[int64]{0, true}}},
		{name: "equal allowed", query: "startTimestamp=7&endTimestamp=7", want: TimestampRange{Bound[int64]{7, true}, Bound[int64]{7, true}}},
		{name: "ordered", query: "startTimestamp=1&endTimestamp=2", want: TimestampRange{Bound[int64]{1, true}, Bound[int64]{2, true}}},
		{name: "start after end", query: "startTimestamp=3&endTimestamp=2", wantErr: []string{"startTimestamp", "endTimestamp"}},
		{name: "negative start", query: "startTimestamp=-1", wantErr: []string{"startTimestamp", ">= 0"}},
		{name: "negative end", query: "endTimestamp=-1", wantErr: []string{"endTimestamp", ">= 0"}},
		{name: "not a number", query: "startTimestamp=yesterday", wantErr: []string{"startTimestamp"}},
		{name: "milliseconds float", query: "endTimestamp=1.5", wantErr: []string{"endTimestamp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseTimestampRange(query(t, tt.query))
			if tt.wantErr != nil {
				requireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestParseBlockRange(t *testing.T) {
	tests := []struct {
		name    string
		query   string
		want    BlockRange
		wantErr []string
	}{
		{name: "none", query: ""},
		{name: "start only", query: "startBlock=0", want: BlockRange{Start: Bound[uint64]{0, true}}},
		{name: "end only", query: "endBlock=10", want: BlockRange{End: Bound[uint64]{10, true}}},
		{name: "ordered", query: "startBlock=1&endBlock=2", want: BlockRange{Bound[uint64]{1, true}, Bound[uint64]{2, true}}},
		{name: "equal rejected", query: "startBlock=2&endBlock=2", wantErr: []string{"startBlock", "endBlock", "less than"}},
		{name: "reversed", query: "startBlock=3&endBlock=2", wantErr: []string{"startBlock", "endBlock"}},
		{name: "negative", query: "startBlock=-1", wantErr: []string{"startBlock", "non-negative"}},
		{name: "hex", query: "endBlock=0x10", wantErr: []string{"endBlock", "non-negative"}},
		{name: "max uint64", query: "endBlock=18446744073709551615", want: BlockRange{End: Bound[uint64]{18446744073709551615, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseBlockRange(query(t, tt.query))
			if tt.wantErr != nil {
				requireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestParseCurrency(t *testing.T) {
	for _, code := range currencyCodes() {
		got, err := ParseCurrency(query(t, "currency="+code))
		require.NoError(t, err)
		require.Equal(t, code, got)
	}
	require.Len(t, currencyCodes(), 14)

	got, err := ParseCurrency(query(t, ""))
	require.NoError(t, err)
	require.Equal(t, "usd", got)

	got, err = ParseCurrency(query(t, "currency=EUR"))
	require.NoError(t, err)
	require.Equal(t, "eur", got, "codes are returned lower-case")

	_, err = ParseCurrency(query(t, "currency=btc"))
	requireBadRequest(t, err, "currency", `"btc"`, "'usd'", "'nzd'")
}

func TestParseList(t *testing.T) {
	errOdd := errors.New("is odd")
	evenLength := func(s string) error {
		if len(s)%2 != 0 {
			return errOdd
		}
		return nil
	}
	tests := []struct {
		name     string
		query    string
		max      int
		validate func(string) error
		want     []string
		wantErr  []string
	}{
		{name: "absent", query: "", want: nil},
		{name: "single", query: "addresses=ab", want: []string{"ab"}},
		{name: "several", query: "addresses=ab,cd,ef", want: []string{"ab", "cd", "ef"}},
		{name: "spaces and blanks", query: "addresses=%20ab%20,,cd,", want: []string{"ab", "cd"}},
		{name: "duplicates dropped", query: "addresses=ab,cd,ab", want: []string{"ab", "cd"}},
		{name: "repeated key joins", query: "addresses=ab&addresses=cd,ef&addresses=ab", want: []string{"ab", "cd", "ef"}},
		{name: "at the limit", query: "addresses=a,b,c", max: 3, want: []string{"a", "b", "c"}},
		{name: "over the limit", query: "addresses=a,b,c,d", max: 3, wantErr: []string{"addresses", "more than 3"}},
		{name: "validated", query: "addresses=ab,cde", validate: evenLength, wantErr: []string{"addresses", `"cde"`, "is odd"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseList(query(t, tt.query), "addresses", tt.max, tt.validate)
			if tt.wantErr != nil {
				requireBadRequest(t, err, tt.wantErr...)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestParseListStopsAtLimit(t *testing.T) {
	// A huge list fails on the first entry over the limit.
	items := make([]string, 100_000)
	for i := range items {
		items[i] = "node" + strconv.Itoa(i)
	}
	q := url.Values{"nodeIds": {strings.Join(items, ",")}}
	_, err := ParseList(q, "nodeIds", 64, nil)
	requireBadRequest(t, err, "nodeIds", "more than 64")
}
