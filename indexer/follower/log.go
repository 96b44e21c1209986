package follower

import (
	"strconv"

	"go.uber.org/zap"
)

func zapChain(name string) zap.Field { return zap.String("chain", name) }
func zapErr(err error) zap.Field     { return zap.Error(err) }
func formatRate(r float64) string    { return strconv.FormatFloat(r, 'f', 1, 64) }
