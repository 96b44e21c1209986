package metricdata

import (
	"fmt"
	"time"
)

// Granularity is the width of a time bucket, the SDK's
// TimeIntervalGranularity. Every bucket starts at a UTC boundary: the hour,
// midnight, Monday midnight (the SDK's week), or the first of the month.
type Granularity byte

// The granularities, in the byte the store keys them by.
const (
	Hour  Granularity = 1
	Day   Granularity = 2
	Week  Granularity = 3
	Month Granularity = 4
)

// Granularities lists every granularity, finest first.
func Granularities() []Granularity { return []Granularity{Hour, Day, Week, Month} }

// String is the SDK's name of the granularity.
func (g Granularity) String() string {
	switch g {
	case Hour:
		return "hour"
	case Day:
		return "day"
	case Week:
		return "week"
	case Month:
		return "month"
	default:
		return fmt.Sprintf("granularity(%d)", byte(g))
	}
}

// ParseGranularity reads the SDK's name of a granularity.
func ParseGranularity(s string) (Granularity, bool) {
	for _, g := range Granularities() {
		if g.String() == s {
			return g, true
		}
	}
	return 0, false
}

// Start is the Unix second at which the bucket holding ts begins.
func (g Granularity) Start(ts int64) int64 {
	t := time.Unix(ts, 0).UTC()
	switch g {
	case Hour:
		return ts - mod(ts, 3600)
	case Day:
		return ts - mod(ts, 86400)
	case Week:
		day := ts - mod(ts, 86400)
		// time.Weekday counts from Sunday (0); the SDK's weeks start on Monday.
		back := (int64(t.Weekday()) + 6) % 7
		return day - back*86400
	case Month:
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC).Unix()
	default:
		panic(fmt.Sprintf("metricdata: unknown granularity %d", byte(g)))
	}
}

// Next is the start of the bucket after the one starting at start.
func (g Granularity) Next(start int64) int64 {
	switch g {
	case Hour:
		return start + 3600
	case Day:
		return start + 86400
	case Week:
		return start + 7*86400
	case Month:
		t := time.Unix(start, 0).UTC()
		return time.Date(t.Year(), t.Month()+1, 1, 0, 0, 0, 0, time.UTC).Unix()
	default:
		panic(fmt.Sprintf("metricdata: unknown granularity %d", byte(g)))
	}
}

// Previous is the start of the bucket before the one starting at start.
func (g Granularity) Previous(start int64) int64 { return g.Start(start - 1) }

// mod is the non-negative remainder, so buckets before 1970 still start on
// their boundary.
func mod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}
