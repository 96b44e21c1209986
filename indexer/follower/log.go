package follower

import (
	"strconv"

	"go.uber.org/zap"

	"github.com/avadata/avadata/indexer/netinfo"
)

func zapChain(c netinfo.Chain) zap.Field { return zap.Stringer("chain", c) }
func zapErr(err error) zap.Field         { return zap.Error(err) }
func formatRate(r float64) string        { return strconv.FormatFloat(r, 'f', 1, 64) }
