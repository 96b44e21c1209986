package api

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Query parameter names shared by the Data API endpoints.
const (
	paramPageToken      = "pageToken"
	paramPageSize       = "pageSize"
	paramSortOrder      = "sortOrder"
	ParamStartTimestamp = "startTimestamp"
	ParamEndTimestamp   = "endTimestamp"
	paramStartBlock     = "startBlock"
	paramEndBlock       = "endBlock"
	paramCurrency       = "currency"
)

// Conventions of the parsers in this file:
//   - a parameter that is absent or empty takes its default;
//   - only the first value of a repeated scalar parameter is read (list
//     parameters join all of their values);
//   - unknown parameters are ignored;
//   - a bad value is a 400 whose message names the parameter and says what
//     is allowed.

// pageSizeRule is an endpoint's pageSize range and default.
type pageSizeRule struct {
	Default, Min, Max int
}

// Page size rules of the spec (Limits).
func StandardPageSize() pageSizeRule { return pageSizeRule{Default: 10, Min: 1, Max: 100} }
func Erc721PageSize() pageSizeRule   { return pageSizeRule{Default: 10, Min: 1, Max: 500} }
func NFTHolderPageSize() pageSizeRule {
	return pageSizeRule{Default: 1000, Min: 1, Max: 5000}
}

// MetricsSeriesPageSize is the pageSize rule of the Metrics API's time
// series (the SDK: default 100, at most 2160, an hourly series of 90 days).
func MetricsSeriesPageSize() pageSizeRule { return pageSizeRule{Default: 100, Min: 1, Max: 2160} }

// MetricsAddressesPageSize is the pageSize rule of the Metrics API's address
// listings (the SDK: default 1000, at most 5000).
func MetricsAddressesPageSize() pageSizeRule {
	return pageSizeRule{Default: 1000, Min: 1, Max: 5000}
}

// RegistryPageSize is the pageSize rule the OpenAPI gives listSubnets and
// listBlockchains (the spec names none for them).
func RegistryPageSize() pageSizeRule { return pageSizeRule{Default: 100, Min: 1, Max: 10000} }

// parsePageSize reads pageSize under rule.
func parsePageSize(q url.Values, rule pageSizeRule) (int, error) {
	raw := q.Get(paramPageSize)
	if raw == "" {
		return rule.Default, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < rule.Min || n > rule.Max {
		return 0, BadRequest("invalid %s %q: must be an integer between %d and %d (default %d)",
			paramPageSize, raw, rule.Min, rule.Max, rule.Default)
	}
	return n, nil
}

// sortOrder is the direction of a listing by timestamp.
type sortOrder string

const (
	SortAsc  sortOrder = "asc"
	SortDesc sortOrder = "desc"
)

// parseSortOrder reads sortOrder (case-insensitive), default desc.
func parseSortOrder(q url.Values) (sortOrder, error) {
	raw := q.Get(paramSortOrder)
	switch strings.ToLower(raw) {
	case "":
		return SortDesc, nil
	case string(SortAsc):
		return SortAsc, nil
	case string(SortDesc):
		return SortDesc, nil
	default:
		return "", BadRequest("invalid %s %q: must be 'asc' or 'desc' (default 'desc')", paramSortOrder, raw)
	}
}

// Bound is an optional range limit.
type Bound[T int64 | uint64] struct {
	Value T
	Set   bool
}

// TimestampRange is the startTimestamp/endTimestamp filter (Unix seconds).
type TimestampRange struct {
	Start, End Bound[int64]
}

// ParseTimestampRange reads startTimestamp and endTimestamp: integers >= 0,
// start <= end when both are given.
func ParseTimestampRange(q url.Values) (TimestampRange, error) {
	var tr TimestampRange
	var err error
	if tr.Start, err = ParseTimestamp(q, ParamStartTimestamp); err != nil {
		return TimestampRange{}, err
	}
	if tr.End, err = ParseTimestamp(q, ParamEndTimestamp); err != nil {
		return TimestampRange{}, err
	}
	if tr.Start.Set && tr.End.Set && tr.Start.Value > tr.End.Value {
		return TimestampRange{}, BadRequest("invalid timestamp range: %s (%d) must not be after %s (%d)",
			ParamStartTimestamp, tr.Start.Value, ParamEndTimestamp, tr.End.Value)
	}
	return tr, nil
}

func ParseTimestamp(q url.Values, name string) (Bound[int64], error) {
	raw := q.Get(name)
	if raw == "" {
		return Bound[int64]{}, nil
	}
	v, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || v < 0 {
		return Bound[int64]{}, BadRequest("invalid %s %q: must be an integer >= 0 (Unix seconds)", name, raw)
	}
	return Bound[int64]{Value: v, Set: true}, nil
}

// BlockRange is the startBlock (inclusive) / endBlock (exclusive) filter.
type BlockRange struct {
	Start, End Bound[uint64]
}

// ParseBlockRange reads startBlock and endBlock: non-negative integers,
// start < end when both are given (endBlock is exclusive, so start == end
// would select nothing).
func ParseBlockRange(q url.Values) (BlockRange, error) {
	var br BlockRange
	var err error
	if br.Start, err = parseBlockNumber(q, paramStartBlock); err != nil {
		return BlockRange{}, err
	}
	if br.End, err = parseBlockNumber(q, paramEndBlock); err != nil {
		return BlockRange{}, err
	}
	if br.Start.Set && br.End.Set && br.Start.Value >= br.End.Value {
		return BlockRange{}, BadRequest("invalid block range: %s (%d) must be less than %s (%d, exclusive)",
			paramStartBlock, br.Start.Value, paramEndBlock, br.End.Value)
	}
	return br, nil
}

func parseBlockNumber(q url.Values, name string) (Bound[uint64], error) {
	raw := q.Get(name)
	if raw == "" {
		return Bound[uint64]{}, nil
	}
	v, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return Bound[uint64]{}, BadRequest("invalid %s %q: must be a non-negative integer block number", name, raw)
	}
	return Bound[uint64]{Value: v, Set: true}, nil
}

// currencyCodes are the currencies of the spec, in its order.
func currencyCodes() []string {
	return []string{"usd", "eur", "aud", "cad", "chf", "clp", "cny", "czk", "dkk", "gbp", "hkd", "huf", "jpy", "nzd"}
}

// ParseCurrency reads currency (case-insensitive), default usd, and returns
// it lower-case.
func ParseCurrency(q url.Values) (string, error) {
	raw := q.Get(paramCurrency)
	if raw == "" {
		return "usd", nil
	}
	code := strings.ToLower(raw)
	if !slices.Contains(currencyCodes(), code) {
		return "", BadRequest("invalid %s %q: must be one of %s (default 'usd')",
			paramCurrency, raw, QuoteList(currencyCodes()))
	}
	return code, nil
}

// ParseList reads a comma-separated list parameter (addresses, nodeIds, ...).
// A repeated parameter counts as one list of all its values. Blank entries
// are dropped, surrounding spaces trimmed and duplicates removed (first
// occurrence kept). Each item must pass validate, when given; an absent
// parameter yields an empty list. maxItems <= 0 means no limit.
func ParseList(q url.Values, name string, maxItems int, validate func(string) error) ([]string, error) {
	raw := strings.Join(q[name], ",")
	if raw == "" {
		return nil, nil
	}
	var items []string
	seen := make(map[string]struct{})
	for item := range strings.SplitSeq(raw, ",") {
		item = strings.TrimSpace(item)
		if _, dup := seen[item]; item == "" || dup {
			continue
		}
		if validate != nil {
			if err := validate(item); err != nil {
				return nil, BadRequest("invalid %s: %q %v", name, item, err)
			}
		}
		seen[item] = struct{}{}
		items = append(items, item)
		// Checked while splitting so a huge list costs no more than the limit.
		if maxItems > 0 && len(items) > maxItems {
			return nil, BadRequest("invalid %s: more than %d entries given", name, maxItems)
		}
	}
	return items, nil
}
