package primary

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/ava-labs/avalanchego/ids"

	"github.com/avadata/avadata/handlers/api"
)

// listValidators' numeric range filters and its sort positions.

// floatRange is an optional [Min, Max] of a numeric filter.
type floatRange struct {
	Min, Max       float64
	HasMin, HasMax bool
}

func (r floatRange) set() bool { return r.HasMin || r.HasMax }

func (r floatRange) holds(v float64) bool {
	return (!r.HasMin || v >= r.Min) && (!r.HasMax || v <= r.Max)
}

func (r floatRange) String() string {
	return fmt.Sprint(r.HasMin, r.Min, r.HasMax, r.Max)
}

// parseFloatRange reads a min/max pair of numbers within [lo, hi]
// (integers only when integer), min not above max.
func parseFloatRange(q url.Values, minName, maxName string, lo, hi float64, integer bool, what string) (floatRange, error) {
	var r floatRange
	var err error
	read := func(name string) (float64, bool, error) {
		raw := q.Get(name)
		if raw == "" {
			return 0, false, nil
		}
		var v float64
		outside := false
		if integer {
			var u uint64
			u, err = strconv.ParseUint(raw, 10, 64)
			v, outside = float64(u), u > uint64(hi) // float64 would round the bound away
		} else {
			v, err = strconv.ParseFloat(raw, 64)
		}
		if err != nil || outside || math.IsNaN(v) || v < lo || v > hi {
			return 0, false, api.BadRequest("invalid %s '%s': must be %s between %s and %s",
				name, api.Truncate(raw), what, strconv.FormatFloat(lo, 'f', -1, 64), strconv.FormatFloat(hi, 'f', -1, 64))
		}
		return v, true, nil
	}
	if r.Min, r.HasMin, err = read(minName); err != nil {
		return r, err
	}
	if r.Max, r.HasMax, err = read(maxName); err != nil {
		return r, err
	}
	if r.HasMin && r.HasMax && r.Min > r.Max {
		return r, api.BadRequest("invalid %s: %s is above %s", minName, q.Get(minName), maxName)
	}
	return r, nil
}

// validatorPos is a validation's place in a listing: its sort key (absent
// keys last in either order), then its staking tx.
type validatorPos struct {
	known bool
	key   uint64
	txID  ids.ID
}

func (p validatorPos) compare(o validatorPos, desc bool) int {
	if p.known != o.known {
		if p.known {
			return -1
		}
		return 1
	}
	c := 0
	switch {
	case p.key < o.key:
		c = -1
	case p.key > o.key:
		c = 1
	default:
		c = strings.Compare(string(p.txID[:]), string(o.txID[:]))
	}
	if desc {
		return -c
	}
	return c
}

const validatorPosLen = 1 + 8 + ids.IDLen

func (p validatorPos) encode() []byte {
	b := make([]byte, 0, validatorPosLen)
	if p.known {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = append(b, encodeTimeID(int64(p.key), p.txID)...)
	return b
}

func decodeValidatorPos(b []byte) (validatorPos, bool) {
	if len(b) != validatorPosLen || b[0] > 1 {
		return validatorPos{}, false
	}
	key, txID, ok := decodeTimeID(b[1:])
	return validatorPos{known: b[0] == 1, key: uint64(key), txID: txID}, ok
}
